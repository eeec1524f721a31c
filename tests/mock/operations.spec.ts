import { test, expect } from '@playwright/test';
import { allOperations, familyBase, fillPath, ENVIRONMENTS, IM_HEADERS } from '../../catalogue';
import { knownIds, requestFor } from '../../fixtures';
import { buildWorld } from '../../fixtures/build-world';
import type { Product } from '../../fixtures/world-types';
import { createAjv } from '../../clients/ajv';
import { app, token, authed, bearer, IM, VENDOR, RESELLER, expectErrorShape, webhookHeaders } from './helpers';

const ajv = createAjv();
const JSON_CT = { 'content-type': 'application/json' };

test.describe('mock operations', () => {
  test('should serve every catalogued operation in both environments with its success status and a body matching the schema', async () => {
    const a = await app();
    for (const env of ENVIRONMENTS) {
      await a.inject({ method: 'POST', url: '/__mock/reset' });
      const tokens = {
        reseller: await token(a, RESELLER, `${env === 'sandbox' ? '/sandbox' : ''}/oauth/oauth20/token`),
        vendor: await token(a, VENDOR, `${env === 'sandbox' ? '/sandbox' : ''}/oauth/oauth30/token`),
      };
      for (const op of allOperations()) {
        const r0 = requestFor(op);
        const q = new URLSearchParams(r0.query).toString();
        const url = `${familyBase(op.family, env)}${fillPath(op.path, { ...knownIds(), ...r0.params })}${q ? `?${q}` : ''}`;
        const r = await a.inject({
          method: op.method,
          url,
          headers: {
            ...authed(tokens[op.family]),
            ...(r0.body ? JSON_CT : {}),
            ...(r0.headers ?? {}),
            ...(op.webhook ? webhookHeaders(r0.body) : {}),
          },
          ...(r0.body ? { payload: JSON.stringify(r0.body) } : {}),
        });
        expect(r.statusCode, `${op.id} ${env}: ${r.body}`).toBe(op.successStatus);
        expect(r.headers['content-type']).toContain('application/json');
        const answer: unknown = JSON.parse(r.body);
        // No document gives a vendor answer's shape: the mock's own placeholder names the operation and lists items.
        if (!op.responseSchema && op.family === 'vendor') expect(answer, op.id).toEqual({ operation: op.id, items: expect.any(Array) });
        // Nor quote to order's: the mock's own answer names the quote and the created order.
        if (op.id === 'quoteToOrder.create')
          expect(answer).toEqual({ quoteNumber: expect.any(String), confirmationNumber: expect.any(String), message: expect.any(String) });
        const validate = op.responseSchema ? ajv.getSchema(op.responseSchema) : undefined;
        if (op.responseSchema) expect(validate?.(answer), `${op.id}: ${JSON.stringify(validate?.errors)}`).toBe(true);
      }
    }
    await a.close();
  });

  test('should produce the same fixture data for the same seed and other data for another seed', async () => {
    // buildWorld is uncached: compare two independent builds, not a cached world with itself.
    expect(buildWorld(1)).toEqual(buildWorld(1));
    expect(buildWorld(1).products).toHaveLength(12);
    expect(buildWorld(2).products.map((p) => p.ingramPartNumber)).not.toEqual(buildWorld(1).products.map((p) => p.ingramPartNumber));
  });

  test('should keep created orders: details, search, modify, cancel; and created returns', async () => {
    const a = await app();
    const t = authed(await token(a));
    const create = allOperations().find((o) => o.id === 'orders.create');
    const c = await a.inject({
      method: 'POST',
      url: '/resellers/v6/orders',
      headers: { ...t, ...JSON_CT },
      payload: JSON.stringify(requestFor(create as never, 1, 5).body),
    });
    expect(c.statusCode).toBe(201);
    const no = JSON.parse(c.body).orders[0].ingramOrderNumber as string;
    const details = async () => JSON.parse((await a.inject({ method: 'GET', url: `/resellers/v6.1/orders/${no}`, headers: t })).body);
    expect((await details()).orderStatus).toBe('PROCESSING');
    const search = JSON.parse(
      (await a.inject({ method: 'GET', url: '/resellers/v6/orders/search?orderStatus=PROCESSING&pageSize=50', headers: t })).body,
    );
    expect(search.orders.map((o: { ingramOrderNumber: string }) => o.ingramOrderNumber)).toContain(no);
    const part = knownIds().partNumber;
    const mod = await a.inject({
      method: 'PUT',
      url: `/resellers/v6/orders/${no}`,
      headers: { ...t, ...JSON_CT },
      payload: JSON.stringify({ notes: 'more', lines: [{ ingramPartNumber: part, addUpdateDeleteLine: 'ADD', quantity: 3 }] }),
    });
    expect(mod.statusCode, mod.body).toBe(200);
    expect((await details()).lines.length).toBe(2);
    expect((await a.inject({ method: 'DELETE', url: `/resellers/v6/orders/${no}`, headers: t })).statusCode).toBe(200);
    expect((await details()).orderStatus).toBe('CANCELLED');
    const ret = await a.inject({
      method: 'POST',
      url: '/resellers/v6/returns/create',
      headers: { ...t, ...JSON_CT },
      payload: JSON.stringify(requestFor(allOperations().find((o) => o.id === 'returns.create') as never).body),
    });
    expect(ret.statusCode, ret.body).toBe(200);
    const rma = JSON.parse(ret.body).returnsClaims[0].caseRequestNumber as string;
    expect((await a.inject({ method: 'GET', url: `/resellers/v6/returns/${rma}`, headers: t })).statusCode).toBe(200);
    // An order number the document allows (at most 12 characters) that names no order.
    const unknown = await a.inject({ method: 'GET', url: '/resellers/v6.1/orders/20-NOSUCH', headers: t });
    expect(unknown.statusCode).toBe(404);
    expect(expectErrorShape(unknown.body)).toBe(true);
    await a.close();
  });

  test('should find an order created by v7 with orders.search by its customer order number, then with orders.details', async () => {
    const a = await app();
    const t = authed(await token(a));
    const body = requestFor(allOperations().find((o) => o.id === 'orders.createV7') as never, 1, 7).body as { customerOrderNumber: string };
    const c = await a.inject({ method: 'POST', url: '/resellers/v7/orders', headers: { ...t, ...JSON_CT }, payload: JSON.stringify(body) });
    expect(c.statusCode, c.body).toBe(200);
    expect(JSON.parse(c.body).confirmationNumber).toBeTruthy();
    const url = `/resellers/v6/orders/search?customerOrderNumber=${encodeURIComponent(body.customerOrderNumber)}`;
    const found = JSON.parse((await a.inject({ method: 'GET', url, headers: t })).body) as { orders: { ingramOrderNumber: string }[] };
    expect(found.orders, `orders of ${body.customerOrderNumber}`).toHaveLength(1);
    const no = found.orders[0]?.ingramOrderNumber as string;
    const d = await a.inject({ method: 'GET', url: `/resellers/v6.1/orders/${no}`, headers: t });
    expect(d.statusCode, d.body).toBe(200);
    expect(JSON.parse(d.body)).toMatchObject({ customerOrderNumber: body.customerOrderNumber, orderStatus: 'PROCESSING' });
    const unknownQuote = await a.inject({
      method: 'POST',
      url: '/resellers/v7/orders',
      headers: { ...t, ...JSON_CT },
      payload: JSON.stringify({ ...body, quoteNumber: 'QUO-NONE' }),
    });
    expect(unknownQuote.statusCode, unknownQuote.body).toBe(404);
    await a.close();
  });

  test('should find a created quote with quotes.search and quotes.details, and validate it', async () => {
    const a = await app();
    const t = authed(await token(a));
    const body = requestFor(allOperations().find((o) => o.id === 'quotes.create') as never, 1, 3).body as {
      quoteName: string;
      products: { ingramPartNumber: string }[];
    };
    const c = await a.inject({
      method: 'POST',
      url: '/resellers/v6/quotes/create',
      headers: { ...t, ...JSON_CT },
      payload: JSON.stringify(body),
    });
    expect(c.statusCode, c.body).toBe(200);
    const no = JSON.parse(c.body).quoteNumber as string;
    const search = await a.inject({ method: 'GET', url: `/resellers/v6/quotes/search?quoteNumber=${no}`, headers: t });
    expect(JSON.parse(search.body).quotes).toEqual([expect.objectContaining({ quoteNumber: no, quoteName: body.quoteName })]);
    const d = JSON.parse((await a.inject({ method: 'GET', url: `/resellers/v6/quotes/${no}`, headers: t })).body);
    expect(d.products.map((p: { ingramPartNumber: string }) => p.ingramPartNumber)).toEqual(body.products.map((p) => p.ingramPartNumber));
    const v = await a.inject({ method: 'GET', url: `/resellers/v6/q2o/validatequote?quoteNumber=${no}`, headers: t });
    expect(v.statusCode, v.body).toBe(200);
    await a.inject({ method: 'POST', url: '/__mock/reset' });
    const after = authed(await token(a));
    expect((await a.inject({ method: 'GET', url: `/resellers/v6/quotes/${no}`, headers: after })).statusCode, 'reset forgets it').toBe(404);
    await a.close();
  });

  test('should answer product details by vendor part number, vendor required info item by item, and refuse a reference-less call', async () => {
    const a = await app();
    const t = authed(await token(a));
    const w = buildWorld(1);
    const p = w.products[0] as Product;
    const r = await a.inject({ method: 'GET', url: `/resellers/v6/catalog/details?vendorPartNumber=${p.vendorPartNumber}`, headers: t });
    expect(r.statusCode, r.body).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ ingramPartNumber: p.ingramPartNumber, vendorPartNumber: p.vendorPartNumber });
    const none = await a.inject({ method: 'GET', url: '/resellers/v6/catalog/details', headers: t });
    expect(none.statusCode, none.body).toBe(400);
    expect(expectErrorShape(none.body)).toBe(true);
    expect((await a.inject({ method: 'GET', url: '/resellers/v6/catalog/details?vendorPartNumber=NOPE', headers: t })).statusCode).toBe(
      404,
    );
    const digital = w.products.find((x) => x.type === 'IM::digital') as Product;
    const info = await a.inject({
      method: 'POST',
      url: '/resellers/v7/vendorrequiredinfo',
      headers: { ...t, ...JSON_CT },
      payload: JSON.stringify({ products: [{ ingramPartNumber: digital.ingramPartNumber }, { ingramPartNumber: 'NOPE' }] }),
    });
    expect(info.statusCode, info.body).toBe(200);
    const [known, unknown] = JSON.parse(info.body) as { vmfAdditionalAttributes: unknown[]; responseMessages: unknown[] }[];
    expect(known?.vmfAdditionalAttributes).toHaveLength(1);
    expect(unknown?.responseMessages).toHaveLength(1);
    await a.close();
  });

  test('should honour search filters and paging, and answer details for every id a search returned', async () => {
    const a = await app();
    const t = authed(await token(a));
    const page = JSON.parse((await a.inject({ method: 'GET', url: '/resellers/v6/catalog?pageSize=5&pageNumber=2', headers: t })).body);
    expect(page).toMatchObject({ recordsFound: 12, pageSize: 5, pageNumber: 2 });
    expect(page.catalog).toHaveLength(5);
    for (const p of page.catalog as { ingramPartNumber: string }[]) {
      const d = await a.inject({ method: 'GET', url: `/resellers/v6/catalog/details/${p.ingramPartNumber}`, headers: t });
      expect(d.statusCode).toBe(200);
      expect(JSON.parse(d.body).ingramPartNumber).toBe(p.ingramPartNumber);
    }
    const vendor = (page.catalog[0] as { vendorName: string }).vendorName;
    const byVendor = JSON.parse(
      (await a.inject({ method: 'GET', url: `/resellers/v6/catalog?vendor=${encodeURIComponent(vendor)}`, headers: t })).body,
    );
    expect(byVendor.catalog.every((p: { vendorName: string }) => p.vendorName === vendor)).toBe(true);
    const shipped = JSON.parse(
      (await a.inject({ method: 'GET', url: '/resellers/v6/orders/search?orderStatus=SHIPPED', headers: t })).body,
    );
    expect(shipped.orders.length).toBeGreaterThan(0);
    expect(shipped.orders.every((o: { orderStatus: string }) => o.orderStatus === 'SHIPPED')).toBe(true);
    const deals = JSON.parse((await a.inject({ method: 'GET', url: '/resellers/v6/deals/search', headers: t })).body);
    for (const d of deals.deals as { dealId: string; vendor: string }[]) {
      const r = await a.inject({
        method: 'GET',
        url: `/resellers/v6/deals/${d.dealId}?vendorName=${encodeURIComponent(d.vendor)}`,
        headers: t,
      });
      expect(r.statusCode, r.body).toBe(200);
    }
    const renewals = await a.inject({ method: 'POST', url: '/resellers/v6/renewals/search', headers: { ...t, ...JSON_CT }, payload: '' });
    expect(renewals.statusCode, 'an empty JSON body reads as {} where the body is optional').toBe(200);
    for (const r of JSON.parse(renewals.body).renewals as { renewalId: number }[]) {
      expect((await a.inject({ method: 'GET', url: `/resellers/v6/renewals/${r.renewalId}`, headers: t })).statusCode).toBe(200);
    }
    const pna = await a.inject({
      method: 'POST',
      url: '/resellers/v6/catalog/priceandavailability?includeAvailability=true&includePricing=false',
      headers: { ...t, ...JSON_CT },
      payload: JSON.stringify({ products: [{ ingramPartNumber: knownIds().partNumber }] }),
    });
    const items = JSON.parse(pna.body);
    expect(Array.isArray(items)).toBe(true);
    expect(items[0].availability).toBeDefined();
    expect(items[0].pricing).toBeUndefined();
    await a.close();
  });

  test('should refuse a call missing required IM-* headers with 400 naming each one', async () => {
    const a = await app();
    const tok = await token(a);
    const { [IM_HEADERS.customerNumber]: _cn, [IM_HEADERS.countryCode]: _cc, ...rest } = IM;
    const r = await a.inject({ method: 'GET', url: '/resellers/v6/catalog', headers: { ...bearer(tok), ...rest } });
    expect(r.statusCode).toBe(400);
    expect(expectErrorShape(r.body)).toBe(true);
    const fields = (JSON.parse(r.body) as { errors: { field: string }[] }).errors.map((e) => e.field);
    expect(fields).toEqual([IM_HEADERS.customerNumber, IM_HEADERS.countryCode]);
    expect(r.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
    const { [IM_HEADERS.customerContact]: _contact, ...withoutContact } = IM;
    const missingContact = await a.inject({
      method: 'GET',
      url: '/resellers/v6/quotes/search',
      headers: { ...bearer(tok), ...withoutContact },
    });
    expect(JSON.parse(missingContact.body).errors[0].field).toBe(IM_HEADERS.customerContact);
    const accepted = await app({}, ['finding.missing-header-accepted']);
    const ok = await accepted.inject({ method: 'GET', url: '/resellers/v6/catalog', headers: bearer(await token(accepted)) });
    expect(ok.statusCode).toBe(200);
    await Promise.all([a.close(), accepted.close()]);
  });

  test('should refuse missing, garbage and other-family tokens with 401 and the error body', async () => {
    const a = await app();
    const vendor = await token(a, VENDOR, '/oauth/oauth30/token');
    for (const headers of [{ ...IM }, authed('garbage'), authed(vendor)]) {
      const r = await a.inject({ method: 'GET', url: '/resellers/v6/catalog', headers });
      expect(r.statusCode).toBe(401);
      expect(expectErrorShape(r.body)).toBe(true);
      expect(r.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
    }
    await a.close();
  });

  test('should refuse a header value the published document does not allow with 400 naming the header', async () => {
    const a = await app();
    const tok = await token(a);
    const uuid = '00000000-0000-4000-8000-000000000001';
    for (const [name, value] of [
      [IM_HEADERS.correlationId, uuid],
      [IM_HEADERS.countryCode, 'USA'],
      [IM_HEADERS.customerNumber, '20-2222222222'],
      [IM_HEADERS.senderId, 's'.repeat(33)],
    ] as const) {
      const r = await a.inject({ method: 'GET', url: '/resellers/v6/catalog', headers: { ...authed(tok), [name]: value } });
      expect(r.statusCode, `${name} ${value}: ${r.body}`).toBe(400);
      expect(expectErrorShape(r.body)).toBe(true);
      const e = JSON.parse(r.body).errors[0];
      expect(e.field).toBe(name);
      expect(e.message).toContain(name);
    }
    const ok = await a.inject({
      method: 'GET',
      url: '/resellers/v6/catalog',
      headers: { ...authed(tok), [IM_HEADERS.correlationId]: 'f'.repeat(32) },
    });
    expect(ok.statusCode, '32 characters are allowed').toBe(200);
    const lenient = await app({}, ['finding.header-constraint-ignored']);
    const r = await lenient.inject({
      method: 'GET',
      url: '/resellers/v6/catalog',
      headers: { ...authed(await token(lenient)), [IM_HEADERS.correlationId]: uuid },
    });
    expect(r.statusCode, 'the drift mode accepts it').toBe(200);
    await Promise.all([a.close(), lenient.close()]);
  });

  test('should answer price and availability item by item, in the order asked, for every choice of parts and the same product asked twice', async () => {
    const a = await app();
    const t = await token(a);
    const [p1, p2] = buildWorld().products as [Product, Product, ...Product[]];
    const products = [
      { ingramPartNumber: p1.ingramPartNumber },
      { ingramPartNumber: 'NO-SUCH-PART' },
      { vendorPartNumber: p1.vendorPartNumber },
      { ingramPartNumber: p2.ingramPartNumber },
    ];
    const call = async (query: string, drift = false) => {
      if (drift) await a.inject({ method: 'PUT', url: '/__mock/drift', payload: { modes: ['shapes.pna-object'] } });
      const r = await a.inject({
        method: 'POST',
        url: `/resellers/v6/catalog/priceandavailability?${query}`,
        headers: { ...authed(t), ...JSON_CT },
        payload: { products },
      });
      if (drift) await a.inject({ method: 'PUT', url: '/__mock/drift', payload: { modes: [] } });
      expect(r.statusCode, r.body).toBe(200);
      expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
      return JSON.parse(r.body) as unknown;
    };
    for (const [availability, pricing] of [
      [true, true],
      [false, true],
      [true, false],
      [false, false],
    ]) {
      const query = `includeAvailability=${availability}&includePricing=${pricing}`;
      // Asked twice: the second answer comes from what the first one cached.
      const [first, again] = [await call(query), await call(query)];
      expect(again).toEqual(first);
      // The drift mode's object form is built from the views themselves, item by item: the same items.
      expect(first).toEqual(((await call(query, true)) as { products: unknown }).products);
      const items = first as {
        index: number;
        ingramPartNumber: string;
        productStatusCode: string;
        availability?: unknown;
        pricing?: unknown;
      }[];
      expect(items.map((i) => [i.index, i.ingramPartNumber, i.productStatusCode])).toEqual([
        [0, p1.ingramPartNumber, 'S'],
        [1, 'NO-SUCH-PART', 'E'],
        [2, p1.ingramPartNumber, 'S'],
        [3, p2.ingramPartNumber, 'S'],
      ]);
      expect(items[0]?.availability !== undefined).toBe(availability);
      expect(items[3]?.pricing !== undefined).toBe(pricing);
      const schema = ajv.getSchema(allOperations().find((o) => o.id === 'catalog.priceAndAvailability')?.responseSchema ?? '');
      expect(schema?.(first), JSON.stringify(schema?.errors)).toBe(true);
    }
    await a.close();
  });

  test("should accept the distributor client's forms its document refuses, and say so, unless strictDocument", async () => {
    const told: string[] = [];
    const a = await app({ onDocumentConflict: (m) => told.push(m) });
    const strict = await app({ strictDocument: true });
    const deals = allOperations().find((o) => o.id === 'deals.details');
    const freight = allOperations().find((o) => o.id === 'freight.estimate');
    const dealsUrl = `/resellers/v6/deals/${encodeURIComponent(requestFor(deals as never).params.dealId ?? '')}`;
    const body = requestFor(freight as never).body as { shipToAddress: unknown };
    const asArray = JSON.stringify({ ...body, shipToAddress: [body.shipToAddress] });
    const returns = requestFor(allOperations().find((o) => o.id === 'returns.create') as never).body as { list: { invoiceDate: string }[] };
    const day = returns.list[0]?.invoiceDate ?? '';
    const withDateTime = JSON.stringify({ list: returns.list.map((l) => ({ ...l, invoiceDate: `${day}T00:00:00.000Z` })) });
    for (const [m, told0] of [
      [a, true],
      [strict, false],
    ] as const) {
      const t = authed(await token(m));
      const d = await m.inject({ method: 'GET', url: dealsUrl, headers: t });
      const f = await m.inject({ method: 'POST', url: '/resellers/v6/freightestimate', headers: { ...t, ...JSON_CT }, payload: asArray });
      const rc = await m.inject({
        method: 'POST',
        url: '/resellers/v6/returns/create',
        headers: { ...t, ...JSON_CT },
        payload: withDateTime,
      });
      if (told0) {
        expect(d.statusCode, d.body).toBe(200);
        expect(f.statusCode, f.body).toBe(200);
        expect(rc.statusCode, rc.body).toBe(200);
      } else {
        for (const [r, field] of [
          [d, 'vendorName'],
          [f, 'shipToAddress'],
          [rc, 'list[0].invoiceDate'],
        ] as const) {
          expect(r.statusCode, r.body).toBe(400);
          const e = JSON.parse(r.body).errors[0];
          expect(e.field).toBe(field);
          expect(e.message).toMatch(/published document .* distributor's generated client/);
        }
      }
    }
    expect(told).toEqual([
      expect.stringMatching(/^deals\.details without vendorName.*accepted$/),
      expect.stringMatching(/^freight\.estimate shipToAddress as an array of 1.*accepted as the object$/),
      expect.stringMatching(
        /^returns\.create list\[0\]\.invoiceDate as a date-time \(\d{4}-\d{2}-\d{2}T00:00:00\.000Z\).*accepted as \d{4}-\d{2}-\d{2}$/,
      ),
    ]);
    await Promise.all([a.close(), strict.close()]);
  });
});

import { test, expect } from '@playwright/test';
import {
  resellerOperations,
  tokenEndpoints,
  allOperations,
  limitFor,
  parseVendorOperations,
  vendorOperations,
  allSchemas,
  familyBase,
  fillPath,
  vendorSandboxBaseStatements,
  parseErrorStatuses,
} from '../../catalogue';
import { createAjv } from '../../clients/ajv';

/** The spec's "Reseller family endpoints" table, copied row by row: method, path. */
const SPEC_TABLE: ReadonlyArray<[string, string, string]> = [
  ['Product Catalog', 'POST', '/resellers/v6/catalog/priceandavailability'],
  ['Product Catalog', 'GET', '/resellers/v6/catalog'],
  ['Product Catalog', 'GET', '/resellers/v6/catalog/details/{partNumber}'],
  ['Orders', 'POST', '/resellers/v6/orders'],
  ['Orders', 'PUT', '/resellers/v6/orders/{orderNumber}'],
  ['Orders', 'GET', '/resellers/v6.1/orders/{orderNumber}'],
  ['Orders', 'GET', '/resellers/v6/orders/search'],
  ['Orders', 'DELETE', '/resellers/v6/orders/{orderNumber}'],
  ['Quotes', 'GET', '/resellers/v6/quotes/search'],
  ['Quotes', 'GET', '/resellers/v6/quotes/{quoteNumber}'],
  ['Quotes', 'GET', '/resellers/v6/q2o/validatequote'],
  ['Quote To Order', 'POST', '/resellers/v6/q2o/orders'],
  ['Invoice', 'GET', '/resellers/v6/invoices/'],
  ['Invoice', 'GET', '/resellers/v6.1/invoices/{invoiceNumber}'],
  ['Renewals', 'POST', '/resellers/v6/renewals/search'],
  ['Renewals', 'GET', '/resellers/v6/renewals/{renewalId}'],
  ['Deals', 'GET', '/resellers/v6/deals/search'],
  ['Deals', 'GET', '/resellers/v6/deals/{dealId}'],
  ['Returns', 'GET', '/resellers/v6/returns/search'],
  ['Returns', 'GET', '/resellers/v6/returns/{caseRequestNumber}'],
  ['Returns', 'POST', '/resellers/v6/returns/create'],
  ['Freight Estimate', 'POST', '/resellers/v6/freightestimate'],
  ['Webhook', 'POST', '/resellers/v1/webhooks/orderstatusevent'],
  ['Webhook', 'POST', '/resellers/v1/webhooks/availabilityupdate'],
];

/** The operations the distributor's published document adds (27 in each form, 28 in all): method, path. */
const DOCUMENT_ONLY: ReadonlyArray<[string, string]> = [
  ['GET', '/resellers/v6/catalog/details'],
  ['POST', '/resellers/v7/orders'],
  ['POST', '/resellers/v7/vendorrequiredinfo'],
  ['POST', '/resellers/v6/quotes/create'],
];

test.describe('catalogue', () => {
  test('should list exactly the 24 reseller rows of the spec table, in order, then the 4 the published document adds', () => {
    const fromSpec = resellerOperations.filter((o) => o.listedIn === 'spec');
    expect(fromSpec.map((o) => [o.group, o.method, o.path])).toEqual(SPEC_TABLE);
    const fromDocument = resellerOperations.filter((o) => o.listedIn === 'document');
    expect(fromDocument.map((o) => [o.method, o.path])).toEqual(DOCUMENT_ONLY);
    expect(resellerOperations).toHaveLength(28);
  });

  test('should give every operation a unique stable id', () => {
    const ids = allOperations().map((o) => o.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z]*(\.[a-zA-Z0-9]+)+$/);
  });

  test('should derive versions, path parameters and JSON bodies from the table', () => {
    const byId = Object.fromEntries(resellerOperations.map((o) => [o.id, o]));
    expect(byId['orders.details']?.version).toBe('v6.1');
    expect(byId['invoices.details']?.version).toBe('v6.1');
    expect(byId['webhooks.orderStatus']?.version).toBe('v1');
    expect(byId['catalog.search']?.version).toBe('v6');
    expect(byId['orders.createV7']?.version).toBe('v7');
    expect(byId['returns.details']?.pathParams).toEqual(['caseRequestNumber']);
    expect(resellerOperations.filter((o) => o.version === 'v6.1').map((o) => o.id)).toEqual(['orders.details', 'invoices.details']);
    for (const o of resellerOperations) expect(o.jsonBody).toBe(o.method === 'POST' || o.method === 'PUT');
    for (const o of resellerOperations.filter((x) => x.jsonBody)) expect(o.requestSchema).toBeTruthy();
  });

  test('should describe both token endpoints and the GET listing conflict', () => {
    expect(tokenEndpoints.reseller).toMatchObject({ method: 'POST', path: '/oauth/oauth20/token', listedMethod: 'GET' });
    expect(tokenEndpoints.vendor).toMatchObject({ method: 'POST', path: '/oauth/oauth30/token' });
    expect(tokenEndpoints.vendor.contentType).toBe('application/x-www-form-urlencoded');
  });

  test('should give every GET 60 per window and every other method a profile limit', () => {
    for (const o of allOperations()) {
      const l = limitFor(o);
      if (o.method === 'GET') expect(l).toBe(60);
      else expect([150, 500]).toContain(l);
    }
    expect(limitFor({ id: 'orders.create', method: 'POST' }, { 'orders.create': 7 })).toBe(7);
  });

  test('should resolve environment bases and keep the vendor sandbox conflict as data', () => {
    expect(familyBase('reseller', 'production')).toBe('');
    expect(familyBase('reseller', 'sandbox')).toBe('/sandbox');
    expect(familyBase('vendor', 'production')).toBe('/vendors/v1');
    expect(familyBase('vendor', 'sandbox')).toBe('/sandbox/vendors/v1');
    expect(vendorSandboxBaseStatements.tableLiteral.base).toBe('/sandbox');
    expect(fillPath('/a/{x}/b', { x: 'p q' })).toBe('/a/p%20q/b');
  });

  test('should parse configured vendor operations and reject malformed ones with a clear message', () => {
    const specs = parseVendorOperations('GET /orders/search, POST /orders');
    expect(specs).toEqual([
      { id: 'vendor.get.orders.search', method: 'GET', path: '/orders/search' },
      { id: 'vendor.post.orders', method: 'POST', path: '/orders' },
    ]);
    expect(vendorOperations(specs)[1]?.jsonBody).toBe(true);
    expect(() => parseVendorOperations('FETCH orders')).toThrow(/not "METHOD \/path"/);
  });

  test('should register a schema for every operation response and request, each valid against the meta-schema', () => {
    const meta = createAjv({ catalogue: false });
    expect(meta.validateSchema({ type: 'strin' }), 'the meta-schema check catches a broken schema').toBe(false);
    for (const s of allSchemas) expect(meta.validateSchema(s), `${s.$id}: ${meta.errorsText(meta.errors)}`).toBe(true);
    const ids = new Set(allSchemas.map((s) => s.$id));
    for (const o of allOperations()) {
      // Only the vendor family's answers and quote to order's have no published shape.
      if (o.responseSchema || (o.family !== 'vendor' && o.id !== 'quoteToOrder.create'))
        expect(ids.has(o.responseSchema ?? ''), `${o.id}: ${o.responseSchema}`).toBe(true);
      if (o.requestSchema) expect(ids.has(o.requestSchema), o.requestSchema).toBe(true);
    }
  });
});

test('should read the statuses a gateway refuses with, and name the flag on anything but 4xx/5xx codes', () => {
  expect(parseErrorStatuses('503, 509', '--refused-status')).toEqual([503, 509]);
  expect(() => parseErrorStatuses('200', '--refusal-status')).toThrow(/--refusal-status takes 4xx or 5xx codes.*received "200"/);
  expect(() => parseErrorStatuses('', '--refused-status')).toThrow(/--refused-status/);
});

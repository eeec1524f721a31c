import { test, expect } from '@playwright/test';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { allOperations, allSchemas, familyBase, fillPath, ENVIRONMENTS } from '../../catalogue';
import { buildWorld, knownIds, requestBody, validQuery } from '../../fixtures';
import { app, token, bearer, VENDOR, RESELLER, expectErrorShape } from './helpers';

const ajv = new Ajv({ strict: true, strictTypes: false, allErrors: true });
(addFormatsModule as unknown as (a: Ajv) => void)(ajv);
for (const s of allSchemas) ajv.addSchema(s);

test.describe('mock operations', () => {
  test('should serve every catalogued operation in both environments with bodies that match the schemas', async () => {
    const a = await app();
    const ids = knownIds();
    for (const env of ENVIRONMENTS) {
      await a.inject({ method: 'POST', url: '/__mock/reset' });
      const tokens = {
        reseller: await token(a, RESELLER, `${env === 'sandbox' ? '/sandbox' : ''}/oauth/oauth20/token`),
        vendor: await token(a, VENDOR, `${env === 'sandbox' ? '/sandbox' : ''}/oauth/oauth30/token`),
      };
      for (const op of allOperations()) {
        const q = new URLSearchParams(validQuery(op.id)).toString();
        const url = `${familyBase(op.family, env)}${fillPath(op.path, ids)}${q ? `?${q}` : ''}`;
        const body = requestBody(op.id);
        const r = await a.inject({
          method: op.method,
          url,
          headers: { ...bearer(tokens[op.family]), ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { payload: JSON.stringify(body) } : {}),
        });
        expect(r.statusCode, `${op.id} ${env}: ${r.body}`).toBeLessThan(300);
        expect(r.headers['content-type']).toContain('application/json');
        const validate = ajv.getSchema(op.responseSchema);
        expect(validate?.(JSON.parse(r.body)), `${op.id}: ${JSON.stringify(validate?.errors)}`).toBe(true);
      }
    }
    await a.close();
  });

  test('should produce the same fixture data for the same seed and other data for another seed', async () => {
    // buildWorld is uncached: compare two independent builds, not a cached world with itself.
    expect(buildWorld(1)).toEqual(buildWorld(1));
    expect(buildWorld(1).products).toHaveLength(12);
    expect(buildWorld(2).products.map((p) => p.partNumber)).not.toEqual(buildWorld(1).products.map((p) => p.partNumber));
  });

  test('should keep created orders: details, search, modify, cancel; and created returns', async () => {
    const a = await app();
    const t = bearer(await token(a));
    const json = { 'content-type': 'application/json' };
    const c = await a.inject({
      method: 'POST',
      url: '/resellers/v6/orders',
      headers: { ...t, ...json },
      payload: requestBody('orders.create', 1, 5),
    });
    expect(c.statusCode).toBe(201);
    const no = JSON.parse(c.body).orderNumber as string;
    expect(JSON.parse((await a.inject({ method: 'GET', url: `/resellers/v6.1/orders/${no}`, headers: t })).body).status).toBe('CREATED');
    const search = JSON.parse((await a.inject({ method: 'GET', url: '/resellers/v6/orders/search?status=CREATED', headers: t })).body);
    expect(search.orders.map((o: { orderNumber: string }) => o.orderNumber)).toContain(no);
    expect(
      (
        await a.inject({
          method: 'PUT',
          url: `/resellers/v6/orders/${no}`,
          headers: { ...t, ...json },
          payload: requestBody('orders.modify'),
        })
      ).statusCode,
    ).toBe(200);
    expect((await a.inject({ method: 'DELETE', url: `/resellers/v6/orders/${no}`, headers: t })).statusCode).toBe(200);
    expect(JSON.parse((await a.inject({ method: 'GET', url: `/resellers/v6.1/orders/${no}`, headers: t })).body).status).toBe('CANCELLED');
    const ret = await a.inject({
      method: 'POST',
      url: '/resellers/v6/returns/create',
      headers: { ...t, ...json },
      payload: { orderNumber: no, reason: 'x', lines: [{ partNumber: 'P', quantity: 1 }] },
    });
    expect(ret.statusCode).toBe(201);
    const rma = JSON.parse(ret.body).caseRequestNumber as string;
    expect((await a.inject({ method: 'GET', url: `/resellers/v6/returns/${rma}`, headers: t })).statusCode).toBe(200);
    const q2o = await a.inject({
      method: 'POST',
      url: '/resellers/v6/q2o/orders',
      headers: { ...t, ...json },
      payload: requestBody('quoteToOrder.create'),
    });
    expect(q2o.statusCode).toBe(201);
    const unknown = await a.inject({ method: 'GET', url: '/resellers/v6.1/orders/NO-SUCH-ORDER', headers: t });
    expect(unknown.statusCode).toBe(404);
    expect(expectErrorShape(unknown.body)).toBe(true);
    await a.close();
  });

  test('should refuse missing, garbage and other-family tokens with 401 and the error body', async () => {
    const a = await app();
    const vendor = await token(a, VENDOR, '/oauth/oauth30/token');
    for (const headers of [{}, bearer('garbage'), bearer(vendor)]) {
      const r = await a.inject({ method: 'GET', url: '/resellers/v6/catalog', headers });
      expect(r.statusCode).toBe(401);
      expect(expectErrorShape(r.body)).toBe(true);
      expect(r.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
    }
    await a.close();
  });
});

/**
 * The mock refuses only what the published document refuses: bodies either published form allows, that a
 * schema of ours once refused, are served (docs/mock.md, "Requests the document accepts").
 */
import { test, expect } from '@playwright/test';
import { operationById } from '../../catalogue';
import { requestFor } from '../../fixtures';
import { VIOLATIONS_HEADER } from '../../mock/checks/request-violations';
import { app, token, authed } from './helpers';

const JSON_CT = { 'content-type': 'application/json' };

/** Bodies the document allows, by operation: no field required, nulls where it makes a field nullable. */
const ALLOWED: readonly { op: string; why: string; body: unknown }[] = [
  { op: 'orders.vendorRequiredInfo', why: 'nothing asked', body: {} },
  { op: 'orders.createV7', why: 'no field required', body: {} },
  {
    op: 'orders.createV7',
    why: 'nullable fields null',
    body: {
      quoteNumber: null,
      acceptBackOrder: null,
      resellerInfo: null,
      shipToInfo: null,
      shipmentDetails: null,
      additionalAttributes: null,
      endUserInfo: { companyName: null },
      lines: [{ ingramPartNumber: null, unitPrice: null, quantity: 1 }],
    },
  },
  { op: 'quotes.create', why: 'no field required (JSON form)', body: {} },
  { op: 'returns.create', why: 'no field required', body: {} },
  {
    op: 'catalog.priceAndAvailability',
    why: 'nullable fields null',
    body: {
      showAvailableDiscounts: null,
      specialBidNumber: null,
      additionalAttributes: null,
      products: [{ ingramPartNumber: null, upc: null }],
    },
  },
];

test.describe('mock requests the document accepts', () => {
  test('should look for no quote when quote to order is asked without a quote number (no document requires one): 404, not 400', async () => {
    const a = await app();
    const op = operationById('quoteToOrder.create');
    const r = await a.inject({ method: op.method, url: op.path, headers: { ...authed(await token(a)), ...JSON_CT }, payload: '{}' });
    expect(r.statusCode, r.body).toBe(404);
    await a.close();
  });

  for (const mode of ['strict', 'warn'] as const) {
    test(`should serve in ${mode} mode, without a violation, each body the published document allows`, async () => {
      const lines: string[] = [];
      const a = await app({ requests: mode, onRequestViolation: (l) => lines.push(l) });
      const t = await token(a);
      for (const { op: id, why, body } of ALLOWED) {
        const op = operationById(id);
        // The query parameters of the catalogue's request (price and availability requires two).
        const q = new URLSearchParams(requestFor(op).query).toString();
        const r = await a.inject({
          method: op.method,
          url: `${op.path}${q ? `?${q}` : ''}`,
          headers: { ...authed(t), ...JSON_CT },
          payload: JSON.stringify(body),
        });
        expect(r.statusCode, `${id} (${why}): ${r.body}`).toBe(op.successStatus);
        expect(r.headers[VIOLATIONS_HEADER], `${id} (${why})`).toBeUndefined();
      }
      expect(lines).toEqual([]);
      await a.close();
    });
  }

  test('should answer vendor required info asked for nothing with an empty list', async () => {
    const a = await app();
    const op = operationById('orders.vendorRequiredInfo');
    const r = await a.inject({ method: op.method, url: op.path, headers: { ...authed(await token(a)), ...JSON_CT }, payload: '{}' });
    expect(JSON.parse(r.body)).toEqual([]);
    await a.close();
  });
});

/**
 * A path parameter longer than the router reads (200 characters) is refused before any route runs: answered in the
 * API's error shape, with the status of that limit (414 URI Too Long), as every other refusal of the mock. One longer
 * than the published document's maxLength (a part number of 6, an order or invoice number of 12) is refused as any
 * value the document refuses: 400 naming the parameter (warn mode: served, the parameter noted).
 */
import { test, expect } from '@playwright/test';
import { allOperations, familyBase, fillPath, requestConstraintsOf, type Operation } from '../../catalogue';
import { knownIds } from '../../fixtures';
import { VIOLATIONS_HEADER, type Violation } from '../../mock/checks/request-violations';
import { app, authed, expectErrorShape, token } from './helpers';

/** Each path parameter the document gives a maxLength, with its operation. */
const BOUNDED = allOperations().flatMap((op) =>
  Object.entries(requestConstraintsOf(op.id)?.path ?? {}).flatMap(([name, node]) =>
    typeof node.maxLength === 'number' ? [{ op, name, maxLength: node.maxLength }] : [],
  ),
);

const urlOf = (op: Operation, name: string, value: string): string =>
  `${familyBase(op.family, 'production')}${fillPath(op.path, { ...knownIds(), [name]: value })}`;

test.describe('a path parameter too long', () => {
  test('should answer a path parameter over 200 characters 414 in the error shape on every operation, and one of 200 as the operation does', async () => {
    const a = await app();
    const t = authed(await token(a));
    const ids = knownIds();
    const withParams = allOperations().filter((o) => o.pathParams.length > 0);
    expect(withParams.length).toBeGreaterThan(5);
    for (const op of withParams) {
      const name = op.pathParams[0] as string;
      for (const length of [201, 2000]) {
        const url = `${familyBase(op.family, 'production')}${fillPath(op.path, { ...ids, [name]: 'A'.repeat(length) })}`;
        const r = await a.inject({ method: op.method, url, headers: t });
        expect(r.statusCode, `${op.id} ${name} of ${length}: ${r.body.slice(0, 120)}`).toBe(414);
        expect(expectErrorShape(r.body), r.body.slice(0, 200)).toBe(true);
        expect(JSON.parse(r.body).errors[0]).toMatchObject({ id: 'uriTooLong', type: 'URITooLong' });
        expect(r.headers['x-ratelimit-remaining'], `${op.id}: the rate-limit headers as on any answer`).toMatch(/^\d+$/);
      }
      const url = `${familyBase(op.family, 'production')}${fillPath(op.path, { ...ids, [name]: 'A'.repeat(200) })}`;
      expect((await a.inject({ method: op.method, url, headers: t })).statusCode, `${op.id} ${name} of 200`).not.toBe(414);
    }
    await a.close();
  });

  test('should answer a path that does not decode 400 in the error shape', async () => {
    const a = await app();
    const r = await a.inject({ method: 'GET', url: '/resellers/v6/orders/%E0%A4%A', headers: authed(await token(a)) });
    expect(r.statusCode, r.body).toBe(400);
    expect(expectErrorShape(r.body), r.body).toBe(true);
    await a.close();
  });

  test("should refuse a path parameter beyond the document's maxLength with 400 naming it, and serve one at it", async () => {
    expect(BOUNDED.map((b) => `${b.op.id} ${b.name} ${b.maxLength}`).sort()).toEqual([
      'catalog.details partNumber 6',
      'invoices.details invoiceNumber 12',
      'orders.details orderNumber 12',
    ]);
    const a = await app();
    const t = authed(await token(a));
    for (const { op, name, maxLength } of BOUNDED) {
      const over = await a.inject({ method: op.method, url: urlOf(op, name, 'A'.repeat(maxLength + 1)), headers: t });
      expect(over.statusCode, `${op.id} ${name} of ${maxLength + 1}: ${over.body}`).toBe(400);
      expect(expectErrorShape(over.body), over.body).toBe(true);
      expect(JSON.parse(over.body).errors[0]).toMatchObject({ id: 'invalidPath', field: name });
      // At the bound, an id the mock does not know: not found, not refused.
      const at = await a.inject({ method: op.method, url: urlOf(op, name, 'A'.repeat(maxLength)), headers: t });
      expect(at.statusCode, `${op.id} ${name} of ${maxLength}: ${at.body}`).toBe(404);
    }
    // Without a maxLength in the document (an order modified or cancelled), a long id is not refused for its length.
    const cancel = allOperations().find((o) => o.id === 'orders.cancel') as Operation;
    const long = await a.inject({ method: cancel.method, url: urlOf(cancel, cancel.pathParams[0] as string, 'A'.repeat(40)), headers: t });
    expect(long.statusCode, long.body).toBe(404);
    await a.close();
  });

  test("should serve a path parameter beyond the document's maxLength in warn mode and note it", async () => {
    const a = await app({ requests: 'warn' });
    const t = authed(await token(a));
    const { op, name, maxLength } = BOUNDED[0] as (typeof BOUNDED)[number];
    const r = await a.inject({ method: op.method, url: urlOf(op, name, 'A'.repeat(maxLength + 1)), headers: t });
    expect(r.statusCode, r.body).toBe(404);
    const noted = JSON.parse(String(r.headers[VIOLATIONS_HEADER])) as Violation[];
    expect(noted.map((v) => v.location)).toEqual([['request', 'path', name]]);
    await a.close();
  });
});

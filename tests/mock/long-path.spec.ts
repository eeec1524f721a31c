/**
 * A path parameter longer than the router reads (200 characters) is refused before any route runs: answered in the
 * API's error shape, with the status of that limit (414 URI Too Long), as every other refusal of the mock.
 */
import { test, expect } from '@playwright/test';
import { allOperations, familyBase, fillPath } from '../../catalogue';
import { knownIds } from '../../fixtures';
import { app, authed, expectErrorShape, token } from './helpers';

test.describe('a path longer than the router reads', () => {
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
});

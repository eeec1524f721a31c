import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import { allOperations, familyBase, fillPath } from '../../catalogue';
import { knownIds } from '../../fixtures';
import { app, token, authed, expectErrorShape } from './helpers';

test.describe('mock bad input', () => {
  test('should answer malformed JSON 400, wrong Content-Type 415, too large 413, unknown path 404, wrong method 405', async () => {
    const a = await app({ bodyLimitBytes: 1024 });
    const t = authed(await token(a));
    const cases: [string, string, Record<string, string>, string | undefined, number][] = [
      ['POST', '/resellers/v6/orders', { 'content-type': 'application/json' }, '{"bad', 400],
      ['POST', '/resellers/v6/orders', { 'content-type': 'text/plain' }, 'hello', 415],
      ['POST', '/resellers/v6/orders', { 'content-type': 'application/json' }, JSON.stringify({ x: 'y'.repeat(2000) }), 413],
      ['POST', '/resellers/v6/orders', { 'content-type': 'application/json' }, JSON.stringify({ lines: [] }), 400],
      ['GET', '/resellers/v6/nothing-here', {}, undefined, 404],
      ['PATCH', '/resellers/v6/catalog', {}, undefined, 405],
      ['GET', '/resellers/v6/q2o/validatequote', {}, undefined, 400],
    ];
    for (const [method, url, headers, payload, status] of cases) {
      const r = await a.inject({
        method: method as 'GET',
        url,
        headers: { ...t, ...headers },
        ...(payload !== undefined ? { payload } : {}),
      });
      expect(r.statusCode, `${method} ${url}: ${r.body}`).toBe(status);
      expect(expectErrorShape(r.body), r.body).toBe(true);
      for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
        expect(r.headers[h], `${h} on ${status}`).toMatch(/^\d+$/);
    }
    await a.close();
  });

  test('should never answer 5xx nor break the error shape for 10 000 generated requests', async () => {
    test.setTimeout(120_000);
    const a = await app({ windowMs: 60_000, limits: Object.fromEntries(allOperations().map((o) => [o.id, 1_000_000])) });
    const good = await token(a);
    const ids = knownIds();
    const paths = allOperations().flatMap((o) => [
      `${familyBase(o.family, 'production')}${fillPath(o.path, ids)}`,
      `${familyBase(o.family, 'sandbox')}${o.path}`,
    ]);
    const path = fc.oneof(
      fc.constantFrom(...paths),
      // A tuple, not chain(): chain builds a new string arbitrary for every generated value (about 10 % of the test's time).
      fc.tuple(fc.constantFrom(...paths), fc.string({ maxLength: 12 })).map(([p, s]) => `${p}/${encodeURIComponent(s)}`),
      fc.constantFrom('/oauth/oauth20/token', '/oauth/oauth30/token', '/sandbox/oauth/oauth20/token'),
      // Unknown paths of encoded segments (not fc.webPath(): building its percent-encoding arbitrary took 1.2 s).
      fc.array(fc.string({ maxLength: 8 }), { maxLength: 4 }).map((segments) => `/${segments.map(encodeURIComponent).join('/')}`),
    );
    const body = fc.oneof(
      fc.constant(undefined),
      fc.json(),
      fc.string({ maxLength: 64 }),
      fc.jsonValue().map((v) => JSON.stringify(v)),
    );
    const contentType = fc.constantFrom(
      undefined,
      'application/json',
      'application/x-www-form-urlencoded',
      'text/plain',
      'application/xml',
      'multipart/form-data; boundary=x',
    );
    const auth = fc.constantFrom(undefined, `Bearer ${good}`, 'Bearer garbage', 'Basic abc', 'Bearer');
    const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS');
    const query = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.string({ maxLength: 16 }), { maxKeys: 3 });
    let count = 0;
    await fc.assert(
      fc.asyncProperty(method, path, body, contentType, auth, query, async (m, p, b, ct, au, q) => {
        const headers: Record<string, string> = {};
        if (ct) headers['content-type'] = ct;
        if (au) headers.authorization = au;
        const qs = new URLSearchParams(q).toString();
        const r = await a.inject({
          method: m as 'GET',
          url: `${p}${qs ? `?${qs}` : ''}`,
          headers,
          ...(b !== undefined && m !== 'GET' && m !== 'HEAD' ? { payload: b } : {}),
        });
        count += 1;
        if (r.statusCode >= 500) return false;
        if (m === 'HEAD') return true;
        if (r.statusCode >= 400 && !expectErrorShape(r.body)) return false;
        return ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].every((h) => /^\d+$/.test(String(r.headers[h])));
      }),
      { numRuns: 10_000, seed: 20261122, interruptAfterTimeLimit: 100_000 },
    );
    expect(count).toBeGreaterThanOrEqual(10_000);
    await a.close();
  });
});

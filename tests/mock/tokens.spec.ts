import { test, expect } from '@playwright/test';
import { app, token, FORM, IM, RESELLER, VENDOR, expectErrorShape } from './helpers';

test.describe('mock tokens', () => {
  test('should issue Bearer tokens on both families and under /sandbox', async () => {
    const a = await app();
    for (const [path, form] of [
      ['/oauth/oauth20/token', RESELLER],
      ['/oauth/oauth30/token', VENDOR],
      ['/sandbox/oauth/oauth20/token', RESELLER],
      ['/sandbox/oauth/oauth30/token', VENDOR],
    ] as const) {
      const r = await a.inject({ method: 'POST', url: path, headers: FORM, payload: form });
      expect(r.statusCode, path).toBe(200);
      const b = JSON.parse(r.body);
      expect(b).toMatchObject({ token_type: 'Bearer', expires_in: 2592000 });
      expect(typeof b.access_token).toBe('string');
      for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) expect(r.headers[h], h).toMatch(/^\d+$/);
    }
    await a.close();
  });

  test('should reject bad token requests with the spec error body: 401, 400, 415 and 405', async () => {
    const a = await app();
    const cases: [string, Record<string, string>, string, number][] = [
      ['POST', FORM, 'grant_type=client_credentials&client_id=demo-reseller&client_secret=nope', 401],
      ['POST', FORM, 'grant_type=client_credentials&client_id=unknown-app&client_secret=x', 401],
      ['POST', FORM, 'grant_type=client_credentials&client_id=demo-vendor&client_secret=demo-vendor-secret', 401],
      ['POST', FORM, 'grant_type=client_credentials&client_secret=demo-reseller-secret', 400],
      ['POST', FORM, 'grant_type=password&client_id=demo-reseller&client_secret=demo-reseller-secret', 400],
      ['POST', { 'content-type': 'application/json' }, JSON.stringify({ grant_type: 'client_credentials' }), 415],
    ];
    for (const [method, headers, payload, status] of cases) {
      const r = await a.inject({ method: method as 'POST', url: '/oauth/oauth20/token', headers, payload });
      expect(r.statusCode, payload).toBe(status);
      expect(expectErrorShape(r.body)).toBe(true);
      expect(r.headers['x-ratelimit-limit']).toMatch(/^\d+$/);
    }
    const put = await a.inject({ method: 'PUT', url: `/oauth/oauth20/token?${RESELLER}` });
    expect(put.statusCode).toBe(405);
    await a.close();
  });

  test('should issue a token by GET with query parameters by default and refuse it with 405 when switched off', async () => {
    const a = await app();
    const r = await a.inject({ method: 'GET', url: `/oauth/oauth20/token?${RESELLER}` });
    expect(r.statusCode).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ token_type: 'Bearer' });
    const off = await app({ tokenGet: 'reject' });
    const refused = await off.inject({ method: 'GET', url: `/oauth/oauth20/token?${RESELLER}` });
    expect(refused.statusCode).toBe(405);
    expect(refused.headers.allow).toBe('POST');
    await Promise.all([a.close(), off.close()]);
  });

  test('should keep the reported expires_in and the real validity separate', async () => {
    const a = await app({ expiresInS: 100, tokenValidityMs: 1000 });
    const r = await a.inject({ method: 'POST', url: '/oauth/oauth20/token', headers: FORM, payload: RESELLER });
    expect(JSON.parse(r.body).expires_in).toBe(100);
    const t = JSON.parse(r.body).access_token as string;
    const ok = await a.inject({ method: 'GET', url: '/resellers/v6/catalog', headers: { ...IM, authorization: `Bearer ${t}` } });
    expect(ok.statusCode).toBe(200);
    await a.inject({ method: 'POST', url: '/__mock/clock', payload: { advanceMs: 1001 } });
    const expired = await a.inject({ method: 'GET', url: '/resellers/v6/catalog', headers: { ...IM, authorization: `Bearer ${t}` } });
    expect(expired.statusCode).toBe(401);
    expect(await token(a)).toBeTruthy();
    await a.close();
  });

  test('should take the bearer token in any spacing and case of its scheme, and tell a missing token from an unknown one', async () => {
    const a = await app();
    const t = await token(a);
    const asked = async (authorization: string) => {
      const r = await a.inject({ method: 'GET', url: '/resellers/v6/catalog', headers: { ...IM, authorization } });
      return r.statusCode === 200 ? 'accepted' : (JSON.parse(r.body) as { errors: { message: string }[] }).errors[0]?.message;
    };
    const MISSING = 'Missing access token: send Authorization: Bearer <ACCESS_TOKEN>';
    const INVALID = 'Invalid or expired access token';
    const answers = Object.fromEntries(
      await Promise.all(
        [
          `Bearer ${t}`,
          `bearer ${t}`,
          `BEARER  ${t}`,
          `Bearer ${t} `,
          `Bearer\t${t}`,
          'Bearer',
          'Bearer ',
          `Basic ${t}`,
          `Bearer ${t}x`,
          `Bearer ${t} x`,
          '',
        ].map(async (h) => [h.replace(t, '<t>'), await asked(h)]),
      ),
    );
    expect(answers).toEqual({
      'Bearer <t>': 'accepted',
      'bearer <t>': 'accepted',
      'BEARER  <t>': 'accepted',
      'Bearer <t> ': 'accepted',
      'Bearer\t<t>': 'accepted',
      Bearer: MISSING,
      'Bearer ': MISSING,
      'Basic <t>': MISSING,
      'Bearer <t>x': INVALID,
      'Bearer <t> x': MISSING,
      '': MISSING,
    });
    await a.close();
  });
});

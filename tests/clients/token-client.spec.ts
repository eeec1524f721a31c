import { test, expect } from '@playwright/test';
import { TokenClient } from '../../clients/token-client';
import {
  computeRefreshAt,
  describeEarlyRefusal,
  parseTokenResponse,
  TokenError,
  buildTokenRequest,
  type EarlyRefusal,
} from '../../clients/token-core';
import { redact, registerSecret, REDACTED } from '../../clients/redact';
import { loadConfig, ConfigError } from '../../config/read-config';

const H = 3600;

function fakeTarget(expiresIn: number) {
  let n = 0;
  const bodies: string[] = [];
  return {
    bodies,
    get count() {
      return n;
    },
    transport: async (req: { body: string }) => {
      n += 1;
      bodies.push(req.body);
      return {
        status: 200,
        text: JSON.stringify({ access_token: `token-number-${n}-abcdef`, token_type: 'Bearer', expires_in: expiresIn }),
      };
    },
  };
}

/** A token client of one reseller app on a fake target and clock. */
function resellerClient(target: ReturnType<typeof fakeTarget>, now: () => number, skewMs?: number): TokenClient {
  return new TokenClient({
    baseUrl: 'http://127.0.0.1:1',
    credentials: { reseller: { clientId: 'id', clientSecret: 'secret-value' } },
    transport: target.transport,
    now,
    ...(skewMs !== undefined ? { skewMs } : {}),
  });
}

test.describe('token client', () => {
  test('should refresh at the earlier of expires_in and 24 h, minus the skew, with a fake clock', async () => {
    let now = 1_000_000;
    const target = fakeTarget(30 * 24 * H);
    const c = resellerClient(target, () => now, 60_000);
    const a = await c.token('reseller', 'production');
    now += 24 * H * 1000 - 60_001;
    expect(await c.token('reseller', 'production')).toBe(a);
    now += 2;
    expect(await c.token('reseller', 'production')).not.toBe(a);
    expect(target.count).toBe(2);
  });

  test('should follow a short expires_in and keep one token per family and environment', async () => {
    let now = 0;
    const target = fakeTarget(120);
    const c = new TokenClient({
      baseUrl: 'http://127.0.0.1:1',
      credentials: { reseller: { clientId: 'id', clientSecret: 'secret-value' }, vendor: { clientId: 'v', clientSecret: 'vendor-secret' } },
      transport: target.transport,
      now: () => now,
    });
    await Promise.all([c.token('reseller', 'production'), c.token('reseller', 'production')]);
    expect(target.count, 'concurrent callers share one request').toBe(1);
    await c.token('reseller', 'sandbox');
    await c.token('vendor', 'production');
    expect(target.count).toBe(3);
    now += 60_001; // 120 s lifetime, skew capped at half of it
    await c.token('reseller', 'production');
    expect(target.count).toBe(4);
    c.invalidate('vendor', 'production');
    await c.token('vendor', 'production');
    expect(target.count).toBe(5);
    expect(computeRefreshAt(0, 120, 60_000)).toBe(60_000);
  });

  test('should report a refusal before the earlier of expires_in and 24 h as early, with its times and never the token', async () => {
    let now = Date.UTC(2026, 0, 1);
    const target = fakeTarget(30 * 24 * H);
    const c = resellerClient(target, () => now);
    const first = await c.token('reseller', 'production');
    now += 5_000;
    expect(c.invalidate('reseller', 'production', 'another-token'), 'a token other than the one held is not dropped').toBeUndefined();
    const early = c.invalidate('reseller', 'production', first);
    expect(early).toEqual({
      issuedAt: '2026-01-01T00:00:00.000Z',
      refusedAt: '2026-01-01T00:00:05.000Z',
      afterMs: 5_000,
      expiresInS: 2592000,
    });
    expect(describeEarlyRefusal(early as EarlyRefusal)).not.toContain(first);
    const second = await c.token('reseller', 'production');
    expect(target.count).toBe(2);
    // Refused after the 24 h guidance (before the 30-day expires_in): not early.
    now += 24 * H * 1000;
    expect(c.invalidate('reseller', 'production', second)).toBeUndefined();
  });

  test('should send the documented form body and never leak the secret or token in errors', async () => {
    const req = buildTokenRequest('http://127.0.0.1:1/', 'vendor', 'sandbox', { clientId: 'v id', clientSecret: 'vendor-secret-xyz' });
    expect(req.url).toBe('http://127.0.0.1:1/sandbox/oauth/oauth30/token');
    expect(req.headers['Content-Type']).toBe('application/x-www-form-urlencoded');
    expect(req.body).toBe('grant_type=client_credentials&client_id=v%20id&client_secret=vendor-secret-xyz');
    const err = (() => {
      try {
        parseTokenResponse(401, '{"echo":"vendor-secret-xyz","access_token":"leaked-token-123"}', 0);
      } catch (e) {
        return e as TokenError;
      }
    })();
    expect(err).toBeInstanceOf(TokenError);
    expect(err?.message).not.toContain('vendor-secret-xyz');
    expect(err?.message).not.toContain('leaked-token-123');
    expect(() => parseTokenResponse(200, '{"access_token":"t1234","expires_in":"soon"}', 0)).toThrow(
      /expires_in "soon", expected a positive integer/,
    );
    registerSecret('another-secret-1');
    expect(redact('x another-secret-1 Authorization: Bearer abc.def client_secret=zzz')).toBe(
      `x ${REDACTED} Authorization: Bearer ${REDACTED} client_secret=${REDACTED}`,
    );
  });

  test('should reject bad configuration with what to do', () => {
    expect(() => loadConfig({ TARGET: 'staging' })).toThrow(ConfigError);
    expect(() => loadConfig({ TARGET: 'staging' })).toThrow(/TARGET must be mock, sandbox, production or a base URL/);
    expect(() => loadConfig({ TARGET: 'https://user:pw@api.example.com' })).toThrow(/must not contain credentials/);
    expect(() => loadConfig({ TARGET: 'mock', ENVIRONMENTS: 'staging' })).toThrow(/ENVIRONMENTS must list production and\/or sandbox/);
    expect(
      loadConfig({ TARGET: 'https://api.example.com', FAMILIES: 'reseller', RESELLER_CLIENT_ID: 'a', RESELLER_CLIENT_SECRET: 'b' })
        .environments,
    ).toEqual(['production', 'sandbox']);
    expect(loadConfig({}).requestBudget).toBe(Infinity);
    expect(
      loadConfig({ TARGET: 'https://api.example.com', FAMILIES: 'reseller', RESELLER_CLIENT_ID: 'a', RESELLER_CLIENT_SECRET: 'b' })
        .requestBudget,
      'a deployment runs on its plan unless REQUEST_BUDGET is set',
    ).toBeUndefined();
    expect(loadConfig({ REQUEST_BUDGET: '300' }).requestBudget).toBe(300);
    expect(() => loadConfig({ REQUEST_BUDGET: 'lots' })).toThrow(/REQUEST_BUDGET must be a non-negative number, received "lots"/);
  });

  test('should parse MOCK_APPS into checked apps, and refuse a malformed entry naming it and never its secret', () => {
    const app = { clientId: 'x-reseller', clientSecret: 'x-reseller-secret', family: 'reseller' };
    expect(loadConfig({ MOCK_APPS: JSON.stringify([app]) }).mock.apps).toEqual([app]);
    expect(loadConfig({}).mock.apps).toBeUndefined();
    expect(() => loadConfig({ MOCK_APPS: 'not json' })).toThrow(/MOCK_APPS must be a JSON array .*not JSON/);
    expect(() => loadConfig({ MOCK_APPS: '{}' })).toThrow(/MOCK_APPS must be a JSON array .*no array of apps/);
    const wrong = () => loadConfig({ MOCK_APPS: JSON.stringify([app, { ...app, family: 'partner', clientId: '' }]) });
    expect(wrong).toThrow(ConfigError);
    expect(wrong).toThrow(/entry 1: clientId is not a non-empty string, family is "partner"/);
    expect(wrong).not.toThrow(/x-reseller-secret/);
  });

  test('should read MOCK_DRIFT once into the list of modes', () => {
    expect(loadConfig({ MOCK_DRIFT: ' token.type-not-bearer, ,shapes.pna-object ' }).mock.drift).toEqual([
      'token.type-not-bearer',
      'shapes.pna-object',
    ]);
    expect(loadConfig({}).mock.drift).toEqual([]);
  });
});

import { GET_LIMIT_PER_MINUTE, type EnvironmentName, type Operation } from '../catalogue';
import { evidenceOf, type ApiResponse } from '../clients/http';
import { test, expect, harnessConfig, label, notRun, selectedOperations, type Session } from './support/fixtures';
import { recordFinding } from './support/findings';

const cfg = harnessConfig();
const env = cfg.environments[0] as EnvironmentName;
const ops = selectedOperations(cfg).filter((o) => o.family === 'reseller' && o.method === 'GET' && o.pathParams.length === 0);
const opNamed = (id: string): Operation => {
  const op = selectedOperations(cfg).find((o) => o.id === id) ?? ops[0];
  if (!op) throw new Error(`rate-limit tests need a reseller GET operation; ${id} is not selected`);
  return op;
};

const int = (res: ApiResponse, h: string): number => Number(res.headers[h]);
const remaining = (r: ApiResponse) => int(r, 'x-ratelimit-remaining');
const limitOf = (r: ApiResponse) => int(r, 'x-ratelimit-limit');

interface Exhaustion {
  first: ApiResponse;
  allowedAfterFirst: number;
  refused: ApiResponse | undefined;
  sent: number;
}

/**
 * Calls until the first 429; at most Remaining(first) + 2 calls after the first. When the window
 * rolls over mid-way (Remaining jumps back up), starts again once.
 */
async function exhaust(session: Session, op: Operation, attempt = 0): Promise<Exhaustion> {
  const first = await session.call(op, env, { allow429: true });
  expect(first.status, `the first call of the exhaustion must succeed; ${evidenceOf(first)}`).toBeLessThan(300);
  const r0 = remaining(first);
  expect(Number.isInteger(r0), `Broken fact: X-RateLimit-Remaining is an integer; ${evidenceOf(first)}`).toBe(true);
  let allowed = 0;
  let sent = 1;
  let prev = r0;
  for (let i = 0; i < r0 + 2; i++) {
    const res = await session.call(op, env, { allow429: true });
    sent += 1;
    if (res.status === 429) return { first, allowedAfterFirst: allowed, refused: res, sent };
    allowed += 1;
    const r = remaining(res);
    if (r > prev && attempt === 0) return exhaust(session, op, 1);
    prev = r;
  }
  return { first, allowedAfterFirst: allowed, refused: undefined, sent };
}

test.describe('rate limits', { tag: ['@rate-limit'] }, () => {
  test.describe.configure({ mode: 'serial' });
  test.beforeEach(() => {
    if (!cfg.probeLimits)
      notRun(test.info(), 'exhaustion spends the app quota for a window; set PROBE_LIMITS=1 to run it against this target');
    if (!cfg.families.includes('reseller'))
      notRun(test.info(), 'the rate-limit checks use reseller GET operations; FAMILIES excludes reseller');
  });

  test('should decrease X-RateLimit-Remaining by exactly 1 per call and keep Reset stable within a window', async ({ session }) => {
    const op = opNamed('catalog.search');
    label(test.info(), op, env, 'remaining-step');
    const seq: ApiResponse[] = [];
    for (let i = 0; i < 4; i++) seq.push(await session.call(op, env));
    for (let i = 1; i < seq.length; i++) {
      const prev = seq[i - 1] as ApiResponse;
      const cur = seq[i] as ApiResponse;
      if (cur.headers['x-ratelimit-reset'] !== prev.headers['x-ratelimit-reset'] && remaining(cur) === limitOf(cur) - 1) continue; // a new window began
      expect(
        remaining(cur),
        `Broken fact: X-RateLimit-Remaining is the number of requests the app can still send\nExpected: ${remaining(prev) - 1} after ${remaining(prev)}\nReceived: ${remaining(cur)}; ${evidenceOf(cur)}`,
      ).toBe(remaining(prev) - 1);
      if (Number(prev.headers['x-ratelimit-reset']) > 1e9) {
        expect(
          cur.headers['x-ratelimit-reset'],
          `Broken fact: X-RateLimit-Reset is when the counter resets (stable within a window)\nEvidence: ${evidenceOf(cur)}`,
        ).toBe(prev.headers['x-ratelimit-reset']);
      }
    }
  });

  test('should keep rate-limit buckets independent across operations', async ({ session }) => {
    const a = opNamed('deals.search');
    const b = opNamed('returns.search');
    label(test.info(), a, env, 'bucket-per-operation');
    const before = await session.call(b, env);
    for (let i = 0; i < 3; i++) await session.call(a, env);
    const after = await session.call(b, env);
    if (after.headers['x-ratelimit-reset'] !== before.headers['x-ratelimit-reset'] && remaining(after) === limitOf(after) - 1) return; // window rolled over
    expect(
      remaining(after),
      `Broken fact: limits are per endpoint\nExpected: ${b.id} Remaining ${remaining(before) - 1} (3 calls to ${a.id} in between must not count)\nReceived: ${remaining(after)}; ${evidenceOf(after)}`,
    ).toBe(remaining(before) - 1);
  });

  test('should keep rate-limit buckets independent across apps', async ({ session }) => {
    const op = opNamed('orders.search');
    label(test.info(), op, env, 'bucket-per-app');
    const second = cfg.secondReseller;
    if (!second) notRun(test.info(), 'needs a second reseller app: RESELLER_B_CLIENT_ID and RESELLER_B_CLIENT_SECRET');
    const other = session.tokenClient({ reseller: second });
    const tokenB = await other.token('reseller', env);
    const before = await session.call(op, env, { token: tokenB });
    for (let i = 0; i < 3; i++) await session.call(op, env);
    const after = await session.call(op, env, { token: tokenB });
    if (after.headers['x-ratelimit-reset'] !== before.headers['x-ratelimit-reset'] && remaining(after) === limitOf(after) - 1) return;
    expect(
      remaining(after),
      `Broken fact: rate limits are allocated per API app\nExpected: the second app's Remaining ${remaining(before) - 1} (3 calls of the first app must not count)\nReceived: ${remaining(after)}; ${evidenceOf(after)}`,
    ).toBe(remaining(before) - 1);
  });

  test('should allow exactly the advertised number of calls per window, then answer 429', async ({ session }) => {
    const op = opNamed('catalog.search');
    label(test.info(), op, env, 'limit-enforced');
    const ex = await exhaust(session, op);
    expect(
      ex.refused,
      `Broken fact: after the limit is exceeded, further requests fail\nExpected: a 429 within ${remaining(ex.first) + 2} calls after Remaining ${remaining(ex.first)}\nReceived: ${ex.allowedAfterFirst} calls allowed`,
    ).toBeDefined();
    expect(
      ex.allowedAfterFirst,
      `Broken fact: X-RateLimit-Limit is the limit enforced (Remaining ${remaining(ex.first)} after the first call, Limit ${limitOf(ex.first)})\nExpected: exactly ${remaining(ex.first)} more calls allowed\nReceived: ${ex.allowedAfterFirst}`,
    ).toBe(remaining(ex.first));
    test.info().annotations.push({
      type: 'observed',
      description: JSON.stringify({ limit: limitOf(ex.first), allowed: ex.allowedAfterFirst + 1, requests: ex.sent }),
    });
  });

  test('should advertise and enforce 60 calls per window on a GET endpoint', async ({ session }) => {
    const op = opNamed('invoices.search');
    label(test.info(), op, env, 'get-limit');
    const ex = await exhaust(session, op);
    expect(
      limitOf(ex.first),
      `Broken fact: all GET calls: ${GET_LIMIT_PER_MINUTE} calls per minute per endpoint\nExpected: X-RateLimit-Limit ${GET_LIMIT_PER_MINUTE}\nReceived: ${evidenceOf(ex.first)}`,
    ).toBe(GET_LIMIT_PER_MINUTE);
    expect(
      ex.refused,
      `Broken fact: all GET calls: ${GET_LIMIT_PER_MINUTE} calls per minute per endpoint\nExpected: a 429 after the limit`,
    ).toBeDefined();
    expect(
      ex.allowedAfterFirst,
      `Broken fact: all GET calls: ${GET_LIMIT_PER_MINUTE} calls per minute per endpoint\nExpected: ${remaining(ex.first)} more calls after Remaining ${remaining(ex.first)}\nReceived: ${ex.allowedAfterFirst}`,
    ).toBe(remaining(ex.first));
  });

  test("should answer 429 with the spec's error body, Remaining 0 and all three headers", async ({ session }) => {
    const op = opNamed('quotes.search');
    label(test.info(), op, env, '429-body');
    const ex = await exhaust(session, op);
    const r = ex.refused;
    if (!r)
      throw new Error(
        `Broken fact: after the limit is exceeded, further requests fail\nExpected: a 429\nReceived: ${ex.allowedAfterFirst} calls allowed after Remaining ${remaining(ex.first)}`,
      );
    expect(r).toBeErrorBody('the 429 body is JSON with errors[] of {field: string or null, message: string}');
    expect(r).toHaveRateLimitHeaders({ nowMs: Date.now(), windowMs: session.target.windowMs });
    expect(r.headers['x-ratelimit-remaining'], `Broken fact: X-RateLimit-Remaining is 0 on a 429\nReceived: ${evidenceOf(r)}`).toBe('0');
  });

  test('should refuse calls until the reset and accept the first call after it', async ({ session }) => {
    const op = opNamed('deals.search');
    label(test.info(), op, env, 'reset');
    const ex = await exhaust(session, op);
    const r = ex.refused;
    if (!r)
      throw new Error(`Broken fact: after the limit is exceeded, further requests fail until the refresh period ends\nReceived: no 429`);
    const again = await session.call(op, env, { allow429: true });
    expect(
      again.status,
      `Broken fact: further requests fail until the refresh period ends\nExpected: 429 right after the first 429\nReceived: ${evidenceOf(again)}`,
    ).toBe(429);
    const reset = Number(r.headers['x-ratelimit-reset']);
    const waitMs = reset > 1e9 ? reset * 1000 - Date.now() : reset * 1000;
    const cap = session.target.windowMs * 2 + 2000;
    expect(waitMs, `X-RateLimit-Reset must name a time within ${cap} ms; ${evidenceOf(r)}`).toBeLessThanOrEqual(cap);
    await new Promise((res) => setTimeout(res, Math.max(0, waitMs) + 300));
    const after = await session.call(op, env, { allow429: true });
    expect(
      after.status,
      `Broken fact: requests fail only until the refresh period ends\nExpected: 2xx 300 ms after the advertised reset\nReceived: ${evidenceOf(after)}`,
    ).toBeLessThan(300);
  });

  test('should record whether X-RateLimit-Reset is an epoch time or a count of seconds', async ({ session }) => {
    const op = opNamed('returns.search');
    label(test.info(), op, env, 'finding');
    const res = await session.call(op, env);
    const raw = res.headers['x-ratelimit-reset'];
    const v = Number(raw);
    const observed = raw === undefined || !Number.isFinite(v) ? 'absent' : v > 1e9 ? 'epoch' : 'seconds';
    recordFinding(
      'ratelimit.reset-unit',
      observed,
      `X-RateLimit-Reset ${raw ?? '(absent)'} at ${Math.floor(Date.now() / 1000)} (epoch s); ${evidenceOf(res)}`,
      { environment: env, policyFile: cfg.policyFile },
    );
  });

  test('should send the rate-limit headers on 4xx answers', async ({ session }) => {
    const op = opNamed('catalog.search');
    label(test.info(), op, env, 'headers-4xx');
    const notFound = await session.send({
      method: 'GET',
      path: `${session.pathOf(op, env)}/no-such-resource-for-certification`,
      token: await session.tokens.token('reseller', env),
    });
    expect(notFound.status).toBeGreaterThanOrEqual(400);
    expect(notFound).toHaveRateLimitHeaders({ nowMs: Date.now(), windowMs: session.target.windowMs });
  });
});

/**
 * Rate limits: each documented fact is its own check (the count, the 429 body, the 429 headers,
 * Remaining stepping by one, the block until the reset), so one broken fact does not hide the
 * others. An absent or non-integer header never satisfies a comparison. On the embedded mock the
 * clock is frozen for each check and moved instead of waiting for a reset.
 */
import {
  GET_LIMIT_PER_MINUTE,
  RATE_LIMIT_HEADERS,
  advertisedResetMs,
  detectResetUnit,
  intHeader,
  type EnvironmentName,
  type Operation,
} from '../catalogue';
import { evidenceOf, type ApiResponse } from '../clients/http';
import { test, expect, harnessConfig, label, notRun, selectedOperations, type Session } from './support/test';
import { recordFinding } from './support/findings';
import { writeObserved } from './support/annotations';

const cfg = harnessConfig();
const env = cfg.environments[0] as EnvironmentName;
const ops = selectedOperations(cfg).filter((o) => o.family === 'reseller' && o.method === 'GET' && o.pathParams.length === 0);
const opNamed = (id: string): Operation => {
  const op = selectedOperations(cfg).find((o) => o.id === id) ?? ops[0];
  if (!op) throw new Error(`rate-limit tests need a reseller GET operation; ${id} is not selected`);
  return op;
};

const NAMES = RATE_LIMIT_HEADERS;
type HeaderKey = keyof typeof NAMES;

/** The header's integer value, or undefined when it is absent or not an integer (never NaN). */
function intOf(res: ApiResponse, h: HeaderKey): number | undefined {
  return intHeader(res.headers[NAMES[h].toLowerCase()]) ?? undefined;
}

/** "X-RateLimit-Remaining absent" or `X-RateLimit-Remaining "abc"`: what a failure says instead of NaN. */
function shown(res: ApiResponse, h: HeaderKey): string {
  const raw = res.headers[NAMES[h].toLowerCase()];
  return raw === undefined ? `${NAMES[h]} absent` : `${NAMES[h]} "${raw}"`;
}

/** The integer value of a header the check depends on; an absent or unparsable header fails the check. */
function mustInt(res: ApiResponse, h: HeaderKey, fact: string): number {
  const v = intOf(res, h);
  if (v === undefined) {
    throw new Error(`Broken fact: ${fact}\nExpected: ${NAMES[h]} as an integer\nReceived: ${shown(res, h)}; ${evidenceOf(res)}`);
  }
  return v;
}

/** A new window began between two answers: Reset moved and Remaining is back at Limit - 1. */
function windowRolled(prev: ApiResponse, cur: ApiResponse): boolean {
  const limit = intOf(cur, 'limit');
  const reset = intOf(cur, 'reset');
  return reset !== undefined && reset !== intOf(prev, 'reset') && limit !== undefined && intOf(cur, 'remaining') === limit - 1;
}

interface Exhaustion {
  first: ApiResponse;
  /** Remaining advertised by the first answer. */
  remainingAtFirst: number;
  allowedAfterFirst: number;
  refused: ApiResponse | undefined;
  sent: number;
  /** Every answer of the exhaustion, oldest first. */
  seq: ApiResponse[];
}

const COUNT_FACT = 'X-RateLimit-Remaining is the number of requests the app can still send';

/**
 * Calls until the first 429: at most Remaining(first) + 2 calls after the first. A 429 is returned
 * whatever its body (the body is another check). When the window rolls over mid-way (only on a live
 * clock), starts again once.
 */
async function exhaust(session: Session, op: Operation, attempt = 0): Promise<Exhaustion> {
  const first = await session.call(op, env);
  expect(first.status, `the first call of the exhaustion must succeed; ${evidenceOf(first)}`).toBeLessThan(300);
  const r0 = mustInt(first, 'remaining', COUNT_FACT);
  let allowed = 0;
  const seq = [first];
  let prev = first;
  for (let i = 0; i < r0 + 2; i++) {
    const res = await session.call(op, env, { allow429: true });
    seq.push(res);
    if (res.status === 429) return { first, remainingAtFirst: r0, allowedAfterFirst: allowed, refused: res, sent: seq.length, seq };
    allowed += 1;
    if (attempt === 0 && windowRolled(prev, res)) return exhaust(session, op, 1);
    prev = res;
  }
  return { first, remainingAtFirst: r0, allowedAfterFirst: allowed, refused: undefined, sent: seq.length, seq };
}

/** Now on the target's clock: the mock's (frozen in these checks) when it has a control API, else ours. */
async function targetNow(session: Session): Promise<number> {
  const control = session.target.control;
  return control ? ((await control('GET', '/config')) as { nowMs: number }).nowMs : Date.now();
}

/** The first 429 of an exhaustion; fails the check when none came. */
function refusedOf(ex: Exhaustion, fact: string): ApiResponse {
  if (ex.refused) return ex.refused;
  throw new Error(
    `Broken fact: ${fact}\nExpected: a 429 within ${ex.remainingAtFirst + 2} calls after Remaining ${ex.remainingAtFirst}\nReceived: ${ex.allowedAfterFirst} calls allowed; last: ${evidenceOf(ex.first)}`,
  );
}

test.describe('rate limits', { tag: ['@rate-limit'] }, () => {
  // Independent checks: a broken fact fails its own check and the others still run.
  test.describe.configure({ mode: 'default' });

  test.beforeEach(async ({ session }) => {
    if (!cfg.probeLimits)
      notRun(test.info(), 'exhaustion spends the app quota for a window; set PROBE_LIMITS=1 to run it against this target');
    if (!cfg.families.includes('reseller'))
      notRun(test.info(), 'the rate-limit checks use reseller GET operations; FAMILIES excludes reseller');
    // Frozen mock clock: no window rolls over during a check; a reset is reached by moving the clock.
    await session.target.control?.('POST', '/clock', { nowMs: Date.now() });
  });

  test.afterEach(async ({ session }) => {
    const control = session.target.control;
    if (!control) return;
    await control('POST', '/clock', { system: true });
    // Drops every window, so the next check starts with full quotas.
    await control('PUT', '/limits', {});
  });

  // First: a finding that rarely fails, so that a run whose rate-limit checks fail restarts no worker for it
  // (Playwright starts a new worker after each failed test that has tests after it).
  test('should record whether X-RateLimit-Reset is an epoch time or a count of seconds', async ({ session }) => {
    const op = opNamed('returns.search');
    label(test.info(), op, env, 'finding');
    // Any answer will do, a 429 included: the finding needs a Reset header, not a successful call.
    const res = await session.call(op, env, { allow429: true });
    const reset = intOf(res, 'reset');
    if (reset === undefined && res.status !== 429)
      notRun(test.info(), `no integer X-RateLimit-Reset to read and no 429 (${shown(res, 'reset')}; status ${res.status})`);
    recordFinding(
      'ratelimit.reset-unit',
      reset === undefined ? 'absent' : detectResetUnit(reset),
      `${shown(res, 'reset')} at ${Math.floor(Date.now() / 1000)} (epoch s); ${evidenceOf(res)}`,
      { environment: env, policyFile: cfg.policyFile },
    );
  });

  test('should decrease X-RateLimit-Remaining by exactly 1 per call and keep Reset stable within a window', async ({ session }) => {
    const op = opNamed('catalog.search');
    label(test.info(), op, env, 'remaining-step');
    const seq: ApiResponse[] = [];
    for (let i = 0; i < 4; i++) seq.push(await session.call(op, env));
    for (let i = 1; i < seq.length; i++) {
      const prev = seq[i - 1] as ApiResponse;
      const cur = seq[i] as ApiResponse;
      const before = mustInt(prev, 'remaining', COUNT_FACT);
      const after = mustInt(cur, 'remaining', COUNT_FACT);
      if (windowRolled(prev, cur)) continue;
      expect(after, `Broken fact: ${COUNT_FACT}\nExpected: ${before - 1} after ${before}\nReceived: ${after}; ${evidenceOf(cur)}`).toBe(
        before - 1,
      );
      const resetFact = 'X-RateLimit-Reset is when the counter resets (stable within a window)';
      const prevReset = mustInt(prev, 'reset', resetFact);
      const curReset = mustInt(cur, 'reset', resetFact);
      if (prevReset > 1e9) expect(curReset, `Broken fact: ${resetFact}\nEvidence: ${evidenceOf(cur)}`).toBe(prevReset);
    }
  });

  test('should keep rate-limit buckets independent across operations', async ({ session }) => {
    const a = opNamed('deals.search');
    const b = opNamed('returns.search');
    label(test.info(), a, env, 'bucket-per-operation');
    const fact = 'limits are per endpoint';
    const before = await session.call(b, env);
    const r0 = mustInt(before, 'remaining', fact);
    for (let i = 0; i < 3; i++) await session.call(a, env);
    const after = await session.call(b, env);
    const r1 = mustInt(after, 'remaining', fact);
    if (windowRolled(before, after)) return;
    expect(
      r1,
      `Broken fact: ${fact}\nExpected: ${b.id} Remaining ${r0 - 1} (3 calls to ${a.id} in between must not count)\nReceived: ${r1}; ${evidenceOf(after)}`,
    ).toBe(r0 - 1);
  });

  test('should keep rate-limit buckets independent across apps', async ({ session }) => {
    const op = opNamed('orders.search');
    label(test.info(), op, env, 'bucket-per-app');
    const second = cfg.secondReseller;
    if (!second) notRun(test.info(), 'needs a second reseller app: RESELLER_B_CLIENT_ID and RESELLER_B_CLIENT_SECRET');
    const fact = 'rate limits are allocated per API app';
    const other = session.tokenClient({ reseller: second });
    const tokenB = await other.token('reseller', env);
    const before = await session.call(op, env, { token: tokenB });
    const r0 = mustInt(before, 'remaining', fact);
    for (let i = 0; i < 3; i++) await session.call(op, env);
    const after = await session.call(op, env, { token: tokenB });
    const r1 = mustInt(after, 'remaining', fact);
    if (windowRolled(before, after)) return;
    expect(
      r1,
      `Broken fact: ${fact}\nExpected: the second app's Remaining ${r0 - 1} (3 calls of the first app must not count)\nReceived: ${r1}; ${evidenceOf(after)}`,
    ).toBe(r0 - 1);
  });

  test('should allow exactly the advertised number of calls per window, then answer 429', async ({ session }) => {
    const op = opNamed('catalog.search');
    label(test.info(), op, env, 'limit-enforced');
    const ex = await exhaust(session, op);
    refusedOf(ex, 'after the limit is exceeded, further requests fail');
    const limit = intOf(ex.first, 'limit');
    expect(
      ex.allowedAfterFirst,
      `Broken fact: X-RateLimit-Limit is the limit enforced (Remaining ${ex.remainingAtFirst} after the first call, ${shown(ex.first, 'limit')})\nExpected: exactly ${ex.remainingAtFirst} more calls allowed\nReceived: ${ex.allowedAfterFirst}`,
    ).toBe(ex.remainingAtFirst);
    writeObserved(test.info(), { limit: limit ?? null, allowed: ex.allowedAfterFirst + 1, requests: ex.sent });
  });

  test('should lower X-RateLimit-Remaining by exactly one per accepted call across the exhaustion of a bucket', async ({ session }) => {
    const op = opNamed('returns.search');
    label(test.info(), op, env, 'remaining-sequence');
    const ex = await exhaust(session, op);
    refusedOf(ex, 'after the limit is exceeded, further requests fail');
    expect(ex.seq).toCountDownRemaining();
  });

  test('should advertise and enforce 60 calls per window on a GET endpoint', async ({ session }) => {
    const op = opNamed('invoices.search');
    label(test.info(), op, env, 'get-limit');
    const fact = `all GET calls: ${GET_LIMIT_PER_MINUTE} calls per minute per endpoint`;
    const ex = await exhaust(session, op);
    const limit = mustInt(ex.first, 'limit', fact);
    expect(limit, `Broken fact: ${fact}\nExpected: X-RateLimit-Limit ${GET_LIMIT_PER_MINUTE}\nReceived: ${evidenceOf(ex.first)}`).toBe(
      GET_LIMIT_PER_MINUTE,
    );
    refusedOf(ex, fact);
    expect(
      ex.allowedAfterFirst,
      `Broken fact: ${fact}\nExpected: ${ex.remainingAtFirst} more calls after Remaining ${ex.remainingAtFirst}\nReceived: ${ex.allowedAfterFirst}`,
    ).toBe(ex.remainingAtFirst);
  });

  test("should answer 429 with the spec's error body", async ({ session }) => {
    const op = opNamed('quotes.search');
    label(test.info(), op, env, '429-body');
    const r = refusedOf(await exhaust(session, op), 'after the limit is exceeded, further requests fail');
    expect(r).toBeErrorBody('the 429 body is JSON with errors[] of {field: string or null, message: string}');
  });

  test('should answer 429 with Remaining 0 and all three rate-limit headers, Limit as advertised', async ({ session }) => {
    const op = opNamed('orders.search');
    label(test.info(), op, env, '429-headers');
    const ex = await exhaust(session, op);
    const r = refusedOf(ex, 'after the limit is exceeded, further requests fail');
    expect(r).toHaveRateLimitHeaders({ nowMs: await targetNow(session), windowMs: session.target.windowMs });
    expect(
      intOf(r, 'remaining'),
      `Broken fact: X-RateLimit-Remaining is 0 on a 429\nReceived: ${shown(r, 'remaining')}; ${evidenceOf(r)}`,
    ).toBe(0);
    expect(ex.seq).toNameTheAdvertisedLimitOn429();
  });

  // The operations the published document adds: their limits are assumed by class (finding ratelimit.document-operation-limits).
  for (const op of selectedOperations(cfg).filter((o) => o.listedIn === 'document')) {
    test(`should answer 429 with the spec's error body and Remaining 0 once ${op.id} has spent its advertised limit`, async ({
      session,
    }) => {
      label(test.info(), op, env, '429-document-operation');
      if (!op.readOnly && !cfg.allowWrites)
        notRun(test.info(), `exhausting ${op.id} changes state with every call; set ALLOW_PRODUCTION_WRITES=1`);
      const r = refusedOf(await exhaust(session, op), `after the limit of ${op.id} is exceeded, further requests fail`);
      expect(r).toBeErrorBody('the 429 body is JSON with errors[] of {field: string or null, message: string}');
      expect(r).toHaveRateLimitHeaders({ nowMs: await targetNow(session), windowMs: session.target.windowMs });
      expect(
        intOf(r, 'remaining'),
        `Broken fact: X-RateLimit-Remaining is 0 on a 429\nReceived: ${shown(r, 'remaining')}; ${evidenceOf(r)}`,
      ).toBe(0);
    });
  }

  test('should refuse calls until the reset and accept the first call after it', async ({ session }) => {
    const op = opNamed('deals.search');
    label(test.info(), op, env, 'reset');
    const fact = 'further requests fail until the refresh period ends';
    const r = refusedOf(await exhaust(session, op), `after the limit is exceeded, ${fact}`);
    const again = await session.call(op, env, { allow429: true });
    expect(again.status, `Broken fact: ${fact}\nExpected: 429 right after the first 429\nReceived: ${evidenceOf(again)}`).toBe(429);
    const reset = mustInt(r, 'reset', 'X-RateLimit-Reset is when the counter resets');
    const control = session.target.control;
    // The mock's frozen clock is the reference there; a live target's is ours.
    const nowMs = await targetNow(session);
    const waitMs = Math.max(0, (advertisedResetMs(reset, nowMs) as number) - nowMs);
    const cap = session.target.windowMs * 2 + 2000;
    expect(waitMs, `X-RateLimit-Reset must name a time within ${cap} ms; ${evidenceOf(r)}`).toBeLessThanOrEqual(cap);
    if (control) await control('POST', '/clock', { advanceMs: waitMs + 300 });
    else {
      test.setTimeout(waitMs + 60_000);
      await new Promise((res) => setTimeout(res, waitMs + 300));
    }
    const after = await session.call(op, env, { allow429: true });
    expect(
      after.status,
      `Broken fact: requests fail only until the refresh period ends\nExpected: 2xx 300 ms after the advertised reset\nReceived: ${evidenceOf(after)}`,
    ).toBeLessThan(300);
  });

  test('should send the rate-limit headers on 4xx answers', async ({ session }) => {
    const op = opNamed('catalog.search');
    label(test.info(), op, env, 'headers-4xx');
    const notFound = await session.send({
      method: 'GET',
      path: `${session.pathOf(op, env)}/no-such-resource-for-certification`,
      token: await session.token('reseller', env),
    });
    expect(notFound.status).toBeGreaterThanOrEqual(400);
    expect(notFound).toHaveRateLimitHeaders({ nowMs: await targetNow(session), windowMs: session.target.windowMs });
  });
});

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
  type EnvironmentName,
  type Operation,
} from '../catalogue';
import { evidenceOf, type ApiResponse } from '../clients/http';
import { test, expect, harnessConfig, label, notRun, selectedOperations, type Session } from './support/test';
import { blocked } from './support/outcomes';
import { countingOrder, headerInt, resetAtMs, startsNewWindow } from './support/rate-limit-sequence';
import { MAX_CONCURRENCY, describePace, neededMs, spendBucket, type Spent } from './support/exhaustion-pacing';
import { recordFinding } from './support/finding-recorder';
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
const intOf = headerInt;

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

interface Exhaustion {
  first: ApiResponse;
  /** Remaining advertised by the first answer. */
  remainingAtFirst: number;
  allowedAfterFirst: number;
  /** Calls refused for their token that the target counted (their Remaining says so), and those without a Remaining. */
  countedRefusals: number;
  unknownRefusals: number;
  refused: ApiResponse | undefined;
  sent: number;
  /** Every answer of the exhaustion in the order the target counted them, the 429s last. */
  seq: ApiResponse[];
}

const COUNT_FACT = 'X-RateLimit-Remaining is the number of requests the app can still send';

/** Time kept before the test's timeout: an exhaustion still sending then ends blocked, never by the timeout. */
const TIMEOUT_MARGIN_MS = 10_000;
/** When the running test's exhaustion must stop sending (epoch ms; set before each test). */
let exhaustionDeadlineMs = Infinity;

/** A Reset in whole seconds names the end of its window within a second, either way. */
const RESET_PRECISION_MS = 1_000;

/** Time surely left to the advertised reset of `first`: unbounded on the mock's frozen clock or without an integer Reset. */
function timeLeftOf(session: Session, first: ApiResponse): () => number {
  const resetAt = session.target.control ? null : advertisedResetMs(intOf(first, 'reset'), first.receivedAtMs);
  return resetAt === null ? () => Infinity : () => resetAt - RESET_PRECISION_MS - Date.now();
}

/** One call of the exhaustion and, before its answer, any answer that refused its token (the call is then repeated). */
async function callKeepingRefusals(session: Session, op: Operation): Promise<ApiResponse[]> {
  const answers: ApiResponse[] = [];
  const res = await session.call(op, env, { allow429: true, onTokenRefused: (r) => answers.push(r) });
  return [...answers, res];
}

/** Ends the check blocked: the bucket could not be spent within one window, with the arithmetic. */
function notSpentInOneWindow(op: Operation, pace: string, why: string): never {
  blocked(test.info(), `the bucket of ${op.id} (${env}) could not be spent within one window: ${pace}; ${why}`);
}

/** An attempt to spend the bucket that an answer of a new window ended. */
interface Attempt {
  first: ApiResponse;
  spent: Spent;
}

/** Waits `ms` of real time. */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Before starting over after a window rolled over mid-way: when the calls left cannot be spent in what
 * is left of the current window at the pace the first attempt showed, waits for a fresh window once
 * (when one window, measured between the two Resets, is long enough and the test has the time), else
 * ends the check blocked with the arithmetic. Resolves true when it waited (the caller calls again).
 */
async function beforeStartingOver(op: Operation, first: ApiResponse, previous: Attempt, waited: boolean): Promise<boolean> {
  const calls = (intOf(first, 'remaining') as number) + 1;
  const leftMs = (resetAtMs(first) ?? Infinity) - RESET_PRECISION_MS - Date.now();
  const needMs = neededMs(calls, previous.spent);
  if (needMs <= leftMs) return false;
  // One window: from the previous attempt's reset to the next one.
  const [from, to] = [resetAtMs(previous.first), resetAtMs(first)];
  const windowMs = from === undefined || to === undefined ? undefined : to - from;
  const pace = `first attempt ${describePace(previous.spent.calls, previous.spent)}, until a new window began`;
  const waitMs = leftMs + 2 * RESET_PRECISION_MS;
  if (!waited && windowMs !== undefined && needMs <= windowMs - RESET_PRECISION_MS && Date.now() + waitMs + needMs < exhaustionDeadlineMs) {
    await sleep(waitMs);
    return true;
  }
  notSpentInOneWindow(
    op,
    pace,
    `at that pace the ${calls} calls left need ${needMs} ms, more than the ${Math.round(leftMs)} ms left${waited ? ' of a fresh window' : ` (one window: ${windowMs ?? 'unknown'} ms)`}`,
  );
}

/**
 * Spends the bucket until the first 429: at most Remaining(first) + 2 calls after the first, sent at the
 * pace the window needs (contracts/support/exhaustion-pacing.ts). A 429 is returned whatever its body (the body is
 * another check). When an answer counts in a new window, starts over once (in a fresh window when the
 * rest of the current one is too short); a second time, or when the test's time runs out, the check ends
 * blocked with the arithmetic.
 */
async function exhaust(session: Session, op: Operation, previous?: Attempt, waited = false): Promise<Exhaustion> {
  const first = await session.call(op, env);
  expect(first.status, `the first call of the exhaustion must succeed; ${evidenceOf(first)}`).toBeLessThan(300);
  const r0 = mustInt(first, 'remaining', COUNT_FACT);
  if (previous && !session.target.control && (await beforeStartingOver(op, first, previous, waited)))
    return exhaust(session, op, previous, true);
  const timeLeftMs = timeLeftOf(session, first);
  const leftAtStart = timeLeftMs();
  const spent = await spendBucket(() => callKeepingRefusals(session, op), {
    first,
    maxCalls: r0 + 2,
    timeLeftMs,
    deadlineMs: exhaustionDeadlineMs,
  });
  const pace = `${describePace(spent.calls, spent, leftAtStart)}; ${spent.pastFirst429} call(s) sent past the first 429 (at most ${MAX_CONCURRENCY - 1})`;
  writeObserved(test.info(), { pace });
  if (spent.stop === 'new-window' && !previous) return exhaust(session, op, { first, spent });
  if (spent.stop === 'new-window') notSpentInOneWindow(op, pace, 'an answer counted in a new window again after starting over');
  if (spent.stop === 'deadline') notSpentInOneWindow(op, pace, `the test's time ran out (${TIMEOUT_MARGIN_MS} ms kept before its timeout)`);
  const all = [first, ...spent.answers];
  const order = countingOrder(all);
  return {
    first,
    remainingAtFirst: r0,
    allowedAfterFirst: spent.answers.filter((r) => r.status >= 200 && r.status < 300).length,
    countedRefusals: order.countedRefusals,
    unknownRefusals: order.unknownRefusals,
    refused: spent.answers.find((r) => r.status === 429),
    sent: spent.calls + 1,
    seq: [...order.windows.flat(), ...all.filter((r) => r.status === 429)],
  };
}

/**
 * The accepted calls the target advertised after the first: its Remaining, less the refused calls it
 * counted (their own Remaining says so); a refused call without a Remaining may have counted or not.
 */
function expectAllowedAsAdvertised(ex: Exhaustion, fact: string): void {
  const most = ex.remainingAtFirst - ex.countedRefusals;
  const least = most - ex.unknownRefusals;
  const refusals = ex.countedRefusals + ex.unknownRefusals;
  const why = refusals
    ? ` (${ex.countedRefusals} call(s) refused for their token and counted by the target, ${ex.unknownRefusals} without a Remaining to tell)`
    : '';
  const expected = least === most ? `exactly ${most}` : `${least} to ${most}`;
  const received = ex.allowedAfterFirst;
  expect(
    received >= least && received <= most,
    `Broken fact: ${fact} (Remaining ${ex.remainingAtFirst} after the first call, ${shown(ex.first, 'limit')})\nExpected: ${expected} more calls allowed${why}\nReceived: ${received}`,
  ).toBe(true);
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
    const timeout = test.info().timeout;
    exhaustionDeadlineMs = timeout > 0 ? Date.now() + timeout - TIMEOUT_MARGIN_MS : Infinity;
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
    if (startsNewWindow(before, after)) return;
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
    if (startsNewWindow(before, after)) return;
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
    expectAllowedAsAdvertised(ex, 'X-RateLimit-Limit is the limit enforced');
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
    expectAllowedAsAdvertised(ex, fact);
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

/**
 * The header invariants over a few calls in a row, in every environment and family: they cost no
 * exhaustion, so they run without PROBE_LIMITS (four calls of a read-only search each).
 */
test.describe('rate-limit headers per environment and family', { tag: ['@rate-limit-headers'] }, () => {
  for (const family of cfg.families) {
    for (const environment of cfg.environments) {
      test(`should decrease X-RateLimit-Remaining by exactly 1 per call and keep Reset and Limit stable within a window (${family}, ${environment})`, async ({
        session,
      }) => {
        const op = selectedOperations(cfg).find((o) => o.family === family && o.method === 'GET' && o.pathParams.length === 0);
        if (!op) notRun(test.info(), `no selected ${family} GET operation without path parameters to call in a row`);
        label(test.info(), op, environment, 'remaining-step');
        const seq: ApiResponse[] = [];
        for (let i = 0; i < 4; i++) seq.push(await session.call(op, environment));
        expect(seq).toKeepRateLimitHeaderInvariants();
      });
    }
  }
});

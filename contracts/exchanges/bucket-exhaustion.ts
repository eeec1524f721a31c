/**
 * The exhaustion of a rate-limit bucket for the rate-limit checks: spends the bucket until the first 429
 * at the pace its window needs (exhaustion-pacing.ts), within the window it is counted in or ends the
 * check blocked with the arithmetic, and reads what it spent (the calls allowed, the first 429). An
 * absent or non-integer header never satisfies a comparison.
 */
import { test, type TestInfo } from '@playwright/test';
import { RATE_LIMIT_HEADERS, RESET_PRECISION_MS, advertisedResetMs, limitFor, type EnvironmentName, type Operation } from '../../catalogue';
import { evidenceOf, type ApiResponse } from '../../clients/http';
import { expect } from '../judge/matchers';
import { blocked } from '../outcomes/outcomes';
import { countingOrder, rateLimitValue, resetAtMs } from '../judge/rate-limit-sequence';
import { MAX_CONCURRENCY, describePace, neededMs, spendBucket, type Spent } from './exhaustion-pacing';
import { writeObserved } from '../record/annotations';
import type { Session } from '../session/session';
import type { CallOptions } from '../session/call-options';
import { freezeMockClock, releaseMockClock } from '../session/frozen-clock';
import { keepExhaustion, keptExhaustion } from './spent-buckets';
import { RUN_DIR_ENV, growRunBudget } from '../plan/run-budget';
import { judging } from '../record/fact-verdicts';

const NAMES = RATE_LIMIT_HEADERS;
type HeaderKey = keyof typeof NAMES;

/** "X-RateLimit-Remaining absent" or `X-RateLimit-Remaining "abc"`: what a failure says instead of NaN. */
export function shown(res: ApiResponse, h: HeaderKey): string {
  const raw = res.headers[NAMES[h].toLowerCase()];
  return raw === undefined ? `${NAMES[h]} absent` : `${NAMES[h]} "${raw}"`;
}

/** The integer value of a header the check depends on; an absent or unparsable header fails the check. */
export function mustInt(res: ApiResponse, h: HeaderKey, fact: string): number {
  const v = rateLimitValue(res, h);
  if (v === null) {
    throw new Error(`Broken fact: ${fact}\nExpected: ${NAMES[h]} as an integer\nReceived: ${shown(res, h)}; ${evidenceOf(res)}`);
  }
  return v;
}

export interface Exhaustion {
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

/** Sets when the running test's exhaustion must stop sending: TIMEOUT_MARGIN_MS before its timeout. */
function setExhaustionDeadline(info: TestInfo): void {
  const timeout = info.timeout;
  exhaustionDeadlineMs = timeout > 0 ? Date.now() + timeout - TIMEOUT_MARGIN_MS : Infinity;
}

/** A test type whose tests have the session: the suite's `test`, or one extended from it. */
interface SessionTests {
  beforeEach(hook: (args: { session: Session }) => Promise<void>): void;
  afterEach(hook: (args: { session: Session }) => Promise<void>): void;
}

/**
 * The hooks of the checks that spend buckets, for the describe block that calls it: each test gets its
 * exhaustion deadline and the embedded mock's clock held still for its length, then released (frozen-clock.ts).
 */
export function spendingBuckets(tests: SessionTests): void {
  tests.beforeEach(async ({ session }) => {
    setExhaustionDeadline(test.info());
    await freezeMockClock(session);
  });
  tests.afterEach(async ({ session }) => releaseMockClock(session));
}

/** Time surely left to the advertised reset of `first`: unbounded on the mock's frozen clock or without an integer Reset. */
function timeLeftOf(session: Session, first: ApiResponse): () => number {
  const resetAt = session.target.control ? null : advertisedResetMs(rateLimitValue(first, 'reset'), first.receivedAtMs);
  return resetAt === null ? () => Infinity : () => resetAt - RESET_PRECISION_MS - Date.now();
}

/** One call of the exhaustion and, before its answer, any answer that refused its token (the call is then repeated). */
async function callKeepingRefusals(session: Session, op: Operation, env: EnvironmentName, o: CallOptions): Promise<ApiResponse[]> {
  const answers: ApiResponse[] = [];
  const res = await session.call(op, env, { ...o, allow429: true, onTokenRefused: (r) => answers.push(r) });
  return [...answers, res];
}

/** Ends the check blocked: the bucket could not be spent within one window, with the arithmetic. */
function notSpentInOneWindow(op: Operation, env: EnvironmentName, pace: string, why: string): never {
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
async function beforeStartingOver(
  op: Operation,
  env: EnvironmentName,
  first: ApiResponse,
  previous: Attempt,
  waited: boolean,
): Promise<boolean> {
  const calls = (rateLimitValue(first, 'remaining') as number) + 1;
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
    env,
    pace,
    `at that pace the ${calls} calls left need ${needMs} ms, more than the ${Math.round(leftMs)} ms left${waited ? ' of a fresh window' : ` (one window: ${windowMs ?? 'unknown'} ms)`}`,
  );
}

/**
 * What spending an operation's bucket sends on a conforming target (its request plan): the first call, the
 * calls its limit leaves and the 429, and the calls in flight past the first 429.
 */
export function exhaustionRequests(op: Operation): number {
  return limitFor(op) + 1 + MAX_CONCURRENCY;
}

/**
 * Spends the bucket until the first 429 (every call with the options `o`, the same valid request): at most Remaining(first) + 2 calls after the first, sent at the
 * pace the window needs (contracts/exchanges/exhaustion-pacing.ts). A 429 is returned whatever its body (the body is
 * another check). When an answer counts in a new window, starts over once (in a fresh window when the
 * rest of the current one is too short); a second time, or when the test's time runs out, the check ends
 * blocked with the arithmetic. On a deployment, a bucket another check of the run spent with the default request
 * and whose 429 still holds is judged as it was spent, not spent again (spent-buckets.ts).
 */
export async function exhaust(session: Session, op: Operation, env: EnvironmentName, o: CallOptions = {}): Promise<Exhaustion> {
  // The embedded mock's windows are the harness's to end: there each check spends anew.
  const shared = !session.target.control && Object.keys(o).length === 0;
  const kept = shared ? keptExhaustion<Exhaustion>(session.target.baseUrl, op.id, env) : undefined;
  if (kept) {
    const until = kept.ex.refused ? new Date(resetAtMs(kept.ex.refused) ?? 0).toISOString() : 'its reset';
    writeObserved(test.info(), { pace: `judged on the bucket spent by "${kept.spentBy}" (refused until ${until}), not spent again` });
    return kept.ex;
  }
  const ex = await spendAnew(session, op, env, o);
  if (shared) keepExhaustion(session.target.baseUrl, op.id, env, ex, test.info().title);
  return ex;
}

/** Spends the bucket (exhaust's contract); `previous`: the attempt a new window ended, `waited`: a fresh window was waited for. */
async function spendAnew(
  session: Session,
  op: Operation,
  env: EnvironmentName,
  o: CallOptions,
  previous?: Attempt,
  waited = false,
): Promise<Exhaustion> {
  const first = await session.call(op, env, o);
  expect(first.status, `the first call of the exhaustion must succeed; ${evidenceOf(first)}`).toBeLessThan(300);
  const r0 = mustInt(first, 'remaining', COUNT_FACT);
  // The plan counted the documented limit: a bucket that advertises more adds its difference to a planned budget.
  if (!previous) growRunBudget(process.env[RUN_DIR_ENV], r0 + 1 - limitFor(op));
  if (previous && !session.target.control && (await beforeStartingOver(op, env, first, previous, waited)))
    return spendAnew(session, op, env, o, previous, true);
  const timeLeftMs = timeLeftOf(session, first);
  const leftAtStart = timeLeftMs();
  const spent = await spendBucket(() => callKeepingRefusals(session, op, env, o), {
    first,
    maxCalls: r0 + 2,
    timeLeftMs,
    deadlineMs: exhaustionDeadlineMs,
  });
  const pace = `${describePace(spent.calls, spent, leftAtStart)}; ${spent.pastFirst429} call(s) sent past the first 429 (at most ${MAX_CONCURRENCY - 1})`;
  writeObserved(test.info(), { pace });
  if (spent.stop === 'new-window' && !previous) return spendAnew(session, op, env, o, { first, spent });
  if (spent.stop === 'new-window') notSpentInOneWindow(op, env, pace, 'an answer counted in a new window again after starting over');
  if (spent.stop === 'deadline')
    notSpentInOneWindow(op, env, pace, `the test's time ran out (${TIMEOUT_MARGIN_MS} ms kept before its timeout)`);
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
export function expectAllowedAsAdvertised(ex: Exhaustion, fact: string): void {
  const most = ex.remainingAtFirst - ex.countedRefusals;
  const least = most - ex.unknownRefusals;
  const refusals = ex.countedRefusals + ex.unknownRefusals;
  const why = refusals
    ? ` (${ex.countedRefusals} call(s) refused for their token and counted by the target, ${ex.unknownRefusals} without a Remaining to tell)`
    : '';
  const expected = least === most ? `exactly ${most}` : `${least} to ${most}`;
  const received = ex.allowedAfterFirst;
  // Soft: the 429 that came after is still judged (its body, its headers).
  expect
    .soft(
      received >= least && received <= most,
      `Broken fact: ${fact} (Remaining ${ex.remainingAtFirst} after the first call, ${shown(ex.first, 'limit')})\nExpected: ${expected} more calls allowed${why}\nReceived: ${received}`,
    )
    .toBe(true);
}

/** Now on the target's clock: the mock's (frozen in these checks) when it has a control API, else ours. */
export async function targetNow(session: Session): Promise<number> {
  const control = session.target.control;
  return control ? ((await control('GET', '/config')) as { nowMs: number }).nowMs : Date.now();
}

/** The first 429 of an exhaustion; fails the check when none came. */
export function refusedOf(ex: Exhaustion, fact: string): ApiResponse {
  if (ex.refused) return ex.refused;
  throw new Error(
    `Broken fact: ${fact}\nExpected: a 429 within ${ex.remainingAtFirst + 2} calls after Remaining ${ex.remainingAtFirst}\nReceived: ${ex.allowedAfterFirst} calls allowed; last: ${evidenceOf(ex.first)}`,
  );
}

/** The documented 429 at `where` (the operation and environment): a JSON error body, the rate-limit headers, Remaining 0. */
export async function judgeRefusal(session: Session, refused: ApiResponse, where: string): Promise<void> {
  await judging('429.error-body', () => {
    expect.soft(refused).toBeJsonResponse();
    expect.soft(refused).toBeErrorBody(`the 429 body is JSON with errors[] of {field: string or null, message: string} (${where})`);
  });
  const nowMs = await targetNow(session);
  await judging('429.headers', () => {
    expect.soft(refused).toHaveRateLimitHeaders({ nowMs, windowMs: session.target.windowMs });
    const fact = `X-RateLimit-Remaining is 0 on a 429 (${where})`;
    expect.soft(mustInt(refused, 'remaining', fact), `Broken fact: ${fact}\nReceived: ${evidenceOf(refused)}`).toBe(0);
  });
}

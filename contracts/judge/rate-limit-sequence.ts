/**
 * The rate-limit headers over a sequence of answers of one bucket (one operation, one app, one
 * environment): Remaining one less per call the target counted, Reset stable and Limit constant within a
 * window. Pure functions over answers, shared by the exhaustion and the header checks.
 *
 * Answers sent at once may arrive in any order, so the count-down is read in the order the target counted
 * them (by their Remaining, highest first), and a rise is judged only between two calls one of which was
 * answered before the other was sent. A new window (Reset later, Remaining up) starts the count again.
 */
import { RATE_LIMIT_HEADERS, advertisedResetMs, detectResetUnit, intHeader } from '../../catalogue/rules';
import type { ApiResponse } from '../../clients/http';

type HeaderKey = keyof typeof RATE_LIMIT_HEADERS;

/** An answer's rate-limit header as an integer, or null when it is absent or not an integer (never NaN): intHeader's rule. */
export function rateLimitValue(res: ApiResponse, h: HeaderKey): number | null {
  return intHeader(res.headers[RATE_LIMIT_HEADERS[h].toLowerCase()]);
}

const accepted = (r: ApiResponse): boolean => r.status >= 200 && r.status < 300;
/** A call refused for its token (the client repeats it with a new one): its Remaining says whether the target counted it. */
const tokenRefused = (r: ApiResponse): boolean => r.status === 401;

/**
 * How far two readings of the same reset may lie apart: none for an epoch second; a second when Reset
 * counts the seconds left (rounded by the target at its own instant).
 */
function resetToleranceMs(reset: number): number {
  return detectResetUnit(reset) === 'seconds' ? 1_000 : 0;
}

/** The advertised reset of an answer as epoch ms (the one reset-unit rule), or undefined without an integer Reset. */
export function resetAtMs(res: ApiResponse): number | undefined {
  const reset = rateLimitValue(res, 'reset');
  return reset === null ? undefined : (advertisedResetMs(reset, res.receivedAtMs ?? res.sentAtMs ?? 0) ?? undefined);
}

/**
 * `cur` counts in a later window than `prev`: its Reset is later and its Remaining not lower (a fixed window rolled
 * over, or a bucket refilled). Not lower, rather than higher: when `prev` was the first call of its window, the first
 * call of the next window reads the same Remaining; within one window a counted call lowers it.
 */
export function startsNewWindow(prev: ApiResponse, cur: ApiResponse): boolean {
  const a = resetAtMs(prev);
  const b = resetAtMs(cur);
  const ra = rateLimitValue(prev, 'remaining');
  const rb = rateLimitValue(cur, 'remaining');
  if (a === undefined || b === undefined || ra === null || rb === null) return false;
  return b - a > resetToleranceMs(rateLimitValue(cur, 'reset') as number) && rb >= ra;
}

/** Answers of one window: split where Reset moves, in the order they were answered. */
function windows(seq: readonly ApiResponse[]): ApiResponse[][] {
  const byArrival = [...seq].sort((x, y) => (x.receivedAtMs ?? 0) - (y.receivedAtMs ?? 0));
  const out: ApiResponse[][] = [];
  const key = (r: ApiResponse) => r.headers[RATE_LIMIT_HEADERS.reset.toLowerCase()] ?? '';
  const byKey = new Map<string, ApiResponse[]>();
  for (const r of byArrival) {
    const k = key(r);
    let w = byKey.get(k);
    if (!w) {
      w = [];
      byKey.set(k, w);
      out.push(w);
    }
    w.push(r);
  }
  return out;
}

export interface CountingOrder {
  /** Per window: the accepted answers and the refused-token answers the target counted, highest Remaining first. */
  windows: ApiResponse[][];
  /** Refused-token answers whose Remaining no accepted answer of their window shows: the target counted them. */
  countedRefusals: number;
  /** Refused-token answers without an integer Remaining: whether the target counted them is unknown. */
  unknownRefusals: number;
}

/**
 * The answers in the order the target counted them. A refused-token answer joins the count when its
 * Remaining is one no accepted answer of its window has (the target counted the refused call and said so);
 * with the Remaining of an accepted answer it was not counted; without one, nobody can tell.
 */
export function countingOrder(seq: readonly ApiResponse[]): CountingOrder {
  let countedRefusals = 0;
  let unknownRefusals = 0;
  const ordered = windows(seq.filter((r) => accepted(r) || tokenRefused(r))).map((w) => {
    const shown = new Set(w.filter(accepted).map((r) => rateLimitValue(r, 'remaining')));
    const counted = w.filter((r) => {
      if (accepted(r)) return true;
      const remaining = rateLimitValue(r, 'remaining');
      if (remaining === null) unknownRefusals += 1;
      else if (!shown.has(remaining)) countedRefusals += 1;
      return remaining !== null && !shown.has(remaining);
    });
    // Stable: answers with the same Remaining stay in the order they came.
    return counted.sort((x, y) => (rateLimitValue(y, 'remaining') ?? -1) - (rateLimitValue(x, 'remaining') ?? -1));
  });
  return { windows: ordered.filter((w) => w.length > 0), countedRefusals, unknownRefusals };
}

/** What is wrong between two answers the target counted one after the other, or null. */
function stepProblem(a: ApiResponse, b: ApiResponse): string | null {
  const ra = rateLimitValue(a, 'remaining') as number;
  const rb = rateLimitValue(b, 'remaining') as number;
  if (ra === 0)
    return `IM-CorrelationID ${a.correlationId} answered Remaining 0, then IM-CorrelationID ${b.correlationId} answered ${b.status}`;
  if (rb === ra - 1) return null;
  const how = ra > rb ? `lowered by ${ra - rb}` : ra === rb ? 'unchanged' : `raised by ${rb - ra}`;
  return `Remaining ${ra} then ${rb}: ${how} between IM-CorrelationID ${a.correlationId} and IM-CorrelationID ${b.correlationId}`;
}

/**
 * A call sent after another was answered was counted after it: its Remaining must be lower. Answers of
 * calls in flight together are not compared (either may have been counted first).
 */
function riseProblem(window: readonly ApiResponse[]): string | null {
  const calls = window.filter(accepted);
  const byArrival = [...calls].sort((x, y) => (x.receivedAtMs ?? 0) - (y.receivedAtMs ?? 0));
  for (const b of [...calls].sort((x, y) => (x.sentAtMs ?? 0) - (y.sentAtMs ?? 0))) {
    let lowest: ApiResponse | undefined;
    for (const a of byArrival) {
      if ((a.receivedAtMs ?? Infinity) >= (b.sentAtMs ?? -Infinity)) break;
      if (!lowest || (rateLimitValue(a, 'remaining') as number) < (rateLimitValue(lowest, 'remaining') as number)) lowest = a;
    }
    if (lowest && (rateLimitValue(b, 'remaining') as number) >= (rateLimitValue(lowest, 'remaining') as number))
      return stepProblem(lowest, b);
  }
  return null;
}

/**
 * The first break of the Remaining count-down over a bucket's answers (an exhaustion, sent one by one
 * or several at once), naming the calls by IM-CorrelationID; null when it holds. Catches a Remaining
 * that skips, freezes or rises, and a call accepted after Remaining 0.
 */
export function remainingSequenceProblem(seq: readonly ApiResponse[]): string | null {
  const missing = seq.find((r) => accepted(r) && rateLimitValue(r, 'remaining') === null);
  if (missing) return `IM-CorrelationID ${missing.correlationId} answered ${missing.status} without an integer X-RateLimit-Remaining`;
  for (const w of countingOrder(seq).windows) {
    for (let i = 1; i < w.length; i++) {
      const p = stepProblem(w[i - 1] as ApiResponse, w[i] as ApiResponse);
      if (p) return p;
    }
    const rise = riseProblem(w);
    if (rise) return rise;
  }
  return null;
}

/** The integer header of every answer, or the problem with the first answer that lacks it. */
function everyInt(seq: readonly ApiResponse[], h: HeaderKey): string | null {
  const bad = seq.find((r) => rateLimitValue(r, h) === null);
  if (!bad) return null;
  const raw = bad.headers[RATE_LIMIT_HEADERS[h].toLowerCase()];
  return `IM-CorrelationID ${bad.correlationId} answered ${bad.status} with ${RATE_LIMIT_HEADERS[h]} ${raw === undefined ? 'absent' : `"${raw}"`}`;
}

/** Within a window Reset names one time: the readings of two answers in a row agree (an epoch second exactly, seconds left within a second). */
function resetProblem(seq: readonly ApiResponse[]): string | null {
  for (let i = 1; i < seq.length; i++) {
    const a = seq[i - 1] as ApiResponse;
    const b = seq[i] as ApiResponse;
    if (startsNewWindow(a, b)) continue;
    const drift = Math.abs((resetAtMs(b) as number) - (resetAtMs(a) as number));
    if (drift > resetToleranceMs(rateLimitValue(b, 'reset') as number)) {
      return `X-RateLimit-Reset ${rateLimitValue(a, 'reset')} then ${rateLimitValue(b, 'reset')} (${drift} ms apart) with no new window between IM-CorrelationID ${a.correlationId} and IM-CorrelationID ${b.correlationId}`;
    }
  }
  return null;
}

/** X-RateLimit-Limit is the endpoint's limit: the same on every answer. */
function limitProblem(seq: readonly ApiResponse[]): string | null {
  const first = seq[0];
  const other = seq.find((r) => first && rateLimitValue(r, 'limit') !== rateLimitValue(first, 'limit'));
  return first && other
    ? `X-RateLimit-Limit ${rateLimitValue(first, 'limit')} (IM-CorrelationID ${first.correlationId}) then ${rateLimitValue(other, 'limit')} (IM-CorrelationID ${other.correlationId})`
    : null;
}

/** The facts the rate-limit headers of one bucket's accepted answers keep, each with the problem that breaks it. */
export const HEADER_INVARIANTS = {
  remaining: 'X-RateLimit-Remaining is the number of requests the app can still send: one less per call',
  reset: 'X-RateLimit-Reset is when the counter resets: the same time within a window',
  limit: 'X-RateLimit-Limit is the limit of the endpoint: the same on every answer',
} as const;

/**
 * The first broken header invariant over accepted answers of one bucket, sent one after the other
 * (oldest first), as [fact, problem]; null when all hold. An absent or non-integer header breaks its fact.
 */
export function headerInvariantProblem(seq: readonly ApiResponse[]): [string, string] | null {
  const calls = seq.filter(accepted);
  const checks: [string, () => string | null][] = [
    [HEADER_INVARIANTS.limit, () => everyInt(calls, 'limit') ?? limitProblem(calls)],
    [HEADER_INVARIANTS.remaining, () => everyInt(calls, 'remaining') ?? remainingSequenceProblem(calls)],
    [HEADER_INVARIANTS.reset, () => everyInt(calls, 'reset') ?? resetProblem(calls)],
  ];
  for (const [fact, problem] of checks) {
    const p = problem();
    if (p) return [fact, p];
  }
  return null;
}

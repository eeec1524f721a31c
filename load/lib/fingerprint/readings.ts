/** From the experiments' readings to the named algorithm, burst, rate and window. */
import type { ExhaustionReading } from './experiments/exhaustion';
import type { RefillRate } from './experiments/refill-rate';
import type { ReopenedBucket } from './experiments/reopening-settle';
import type { RefusedCallReading } from './experiments/refused-call';
import type { SplitReading } from './experiments/split';
import type { Speedup } from './experiments/refill-jump';
import type { Algorithm, Claim, LabObservation } from './types';

/**
 * What the experiments read, one record per measurement: the coordinator fills it, the functions below read it.
 * Grouped by the experiment that writes each field; a field stays null until that experiment ran.
 */
export interface Readings {
  // Exhaustion and reopening.
  exhaustion: ExhaustionReading | null;
  /** The advertised reopening moved after refused calls (they count); null when not known. */
  reopeningMoved: boolean | null;
  /** The drain after a rest that followed a partial reopening (a full bucket), and when the rest began. */
  restedDrain: ReopenedBucket['rested'];

  // Refill sampling: what shape the refill has.
  /** A window (its empty drains then a full bucket) or a continuous refill; null before the sampling decided. */
  refillShape: RefillShape | null;
  /** What the sampling alone proved of a window (from the drains' sends and answers), ms. */
  samplingBracket: { lo: number; hi: number } | null;

  // A window: window refine.
  window: { windowMs: number; precise: boolean; errorMs: number } | null;

  // A continuous refill: its rate, its burst, and a sliding counter's first window.
  /** Calls per ms: the drains' rate between empty buckets, raised by the first-window rate. */
  rate: number | null;
  rateSpan: RefillRate['span'] | null;
  /** Calls per ms the sampling drains got through between empty buckets (never raised). */
  drainsRate: number | null;
  /** The refill waited this long after the bucket emptied (a sliding counter); null: no pause read. */
  pausedMs: number | null;
  /** Calls a full bucket holds: the volley's count, or the exhaustion's count less its refill. */
  bucketBurst: number | null;
  /** The exhaustion's count less its refill, kept when a volley counted the bucket again (the two must agree). */
  exhaustionLessRefill: number | null;
  /** Calls per ms in the first window after a full one (a weighted sliding counter). */
  firstWindowRate: number | null;
  /** A rested sliding counter's burst (the first-window rate). */
  restedBurst: number | null;
  /** The refill sped up between two drains, the window after timed faster still (a weighted counter's boundary); null: not so. */
  refillJump: Speedup | null;

  /**
   * Calls came back within a cycle after the volley emptied a full bucket, as a token bucket gives them (a sliding
   * log or a weighted counter gives none so soon); false too when far more came back than a bucket at the drains'
   * rate gives (a weighted counter's aligned boundary came); null: not read.
   */
  refillAfterBurst: boolean | null;

  // Split, then whether refused calls count.
  split: SplitReading | null;
  refusedCallTest: RefusedCallReading | null;
  /** Whether refused calls count, known without the refused-call test (a window, or a log that explains every call); null: not known so. */
  refusedCountKnown: boolean | null;

  /** Readings that stalled twice, in words. */
  stalls: string[];
  /** Named as the read operations' limiter (a write whose own readings agree): their algorithm; null: not so. */
  likeReads: Algorithm | null;
}

/** The refill the sampling saw: a window (nothing back, then a full bucket) or a continuous one. */
export type RefillShape = 'window' | 'continuous';

export const noReadings = (): Readings => ({
  exhaustion: null,
  reopeningMoved: null,
  restedDrain: null,
  refillShape: null,
  samplingBracket: null,
  window: null,
  rate: null,
  rateSpan: null,
  drainsRate: null,
  pausedMs: null,
  bucketBurst: null,
  exhaustionLessRefill: null,
  firstWindowRate: null,
  restedBurst: null,
  refillJump: null,
  refillAfterBurst: null,
  split: null,
  refusedCallTest: null,
  refusedCountKnown: null,
  stalls: [],
  likeReads: null,
});

const SECOND = 1000;

export function algorithmOf(r: Readings): Algorithm {
  const split = r.split;
  // A refill that waits for an aligned window, or speeds up at one, is a sliding counter, whatever a split would show.
  if (waitsOrSpeedsUp(r)) return 'sliding-window';
  // A bucket's refill right after a full bucket spent at once: no log nor counter gives it; and none back then,
  // from a rest of two periods, is a sliding window's (a log's, or a weighted counter's before its next boundary).
  if (r.refillShape === 'continuous' && !split && r.refillAfterBurst !== null)
    return r.refillAfterBurst ? 'token-bucket' : 'sliding-window';
  if (r.refillShape === null || !split) return 'unknown';
  // A token bucket is full again too, give or take the rate estimate'split error on large buckets.
  // A window'split split drain stops one call past the first half: that many back is a full bucket again.
  const windowLike = r.refillShape === 'window';
  const fullAgain = windowLike
    ? split.drained >= Math.min(split.burst, split.firstHalf + 1)
    : split.drained >= split.burst - Math.floor(split.burst / 10);
  const halfBack = split.drained <= split.burst - Math.max(1, split.secondHalf / 2);
  if (windowLike) {
    if (fullAgain) return 'fixed-window';
    if (halfBack) return 'sliding-window';
    return 'unknown';
  }
  // A refill that waits for an aligned window is a sliding counter, whatever the split shows.
  if (halfBack || r.pausedMs !== null) return 'sliding-window';
  // Its first window refilling well above what the drains read: the drains leave a weighted counter short.
  if (!fullAgain && r.firstWindowRate !== null && r.drainsRate !== null && r.firstWindowRate > COUNTER_OVER_DRAINS * r.drainsRate)
    return 'sliding-window';
  if (fullAgain) return 'token-bucket';
  return 'unknown';
}

/** A continuous refill that waited for an aligned window, or sped up at one: a sliding counter's. */
const waitsOrSpeedsUp = (r: Readings): boolean => r.refillShape === 'continuous' && (r.pausedMs !== null || r.refillJump !== null);

/** A first window refilling this many times faster than the drains read: a weighted counter, which they leave short. */
export const COUNTER_OVER_DRAINS = 1.2;

export function burstOf(r: Readings, algorithm: Algorithm): number | null {
  const observed = r.exhaustion?.burst ?? null;
  if (observed === null) return null;
  // A sliding counter does not refill within its first window: only a token bucket's count is corrected.
  if (algorithm === 'token-bucket' && r.bucketBurst !== null) return r.bucketBurst;
  if (algorithm === 'sliding-window' && r.refillShape !== 'window') {
    // A sliding counter's exhaustion may straddle its aligned windows and pass more than a full bucket.
    const advertised = r.exhaustion?.firstHints?.limit ?? null;
    if (advertised !== null && advertised <= observed) return advertised;
    if (r.restedBurst !== null) return Math.min(r.restedBurst, observed);
  }
  return observed;
}

/**
 * Calls per ms; with refused calls counting, each sampling drain's closing refusal consumed a bucket's call too. A
 * weighted counter's drains get back the window before's count, refused calls too where they count (more than its
 * burst): then only its first window's timing stands.
 */
export function rateOf(r: Readings, refusedCount: boolean | null, algorithm: Algorithm): number | null {
  if (algorithm === 'sliding-window' && r.refillShape === 'continuous') return refusedCount ? (r.firstWindowRate ?? r.rate) : r.rate;
  if (refusedCount && r.rateSpan) {
    const { allowed, elapsedMs, refusals } = r.rateSpan;
    return (allowed + refusals) / elapsedMs;
  }
  return r.rate;
}

/**
 * Calls per second a continuous refill surely reached: its count between empty buckets less the one call a
 * partly refilled bucket at either end may add (15 calls in 3.5 s read 4.25/s of a bucket refilling 4/s).
 */
export function refillFloorPerSecond(r: Readings, refusedCount: boolean | null): number | null {
  if (!r.rateSpan || !(r.rateSpan.elapsedMs > 0)) return null;
  const { allowed, elapsedMs, refusals } = r.rateSpan;
  const calls = allowed + (refusedCount ? refusals : 0) - 1;
  return calls > 0 ? (calls / elapsedMs) * 1000 : null;
}

/**
 * The floor a bucket's pacing keeps to (refillFloorPerSecond): its refusals raise it only where the target's own
 * Reset said refused calls count (the reopening moved after them). A stall can make the refused-call test read them
 * as counting: real k6 beside two CPU-bound processes read a bucket of 30/s, refused calls not counting, at 38.7/s
 * with them, and paced a call every 28 ms after its burst.
 */
export function pacingFloorPerSecond(r: Readings, refusedCount: boolean | null): number | null {
  return refillFloorPerSecond(r, refusedCount === true && r.reopeningMoved === true);
}

export function windowOf(r: Readings, algorithm: Algorithm, burst: number | null, rate: number | null): number | null {
  const measured = r.window?.windowMs ?? null;
  if (algorithm === 'token-bucket' || algorithm === 'unknown') return r.refillShape === 'window' ? measured : null;
  if (r.refillShape === 'window') return measured;
  // A sliding counter measured as a continuous refill: the window is burst / rate.
  return burst !== null && rate ? Math.round(burst / rate) : null;
}

export function refusedCountOf(r: Readings, verdict: string | null): boolean | null {
  if (r.reopeningMoved) return true;
  if (r.refusedCountKnown !== null) return r.refusedCountKnown;
  const cycles = r.refusedCallTest;
  if (cycles && cycles.extraRefused >= 2 && cycles.counted !== null) return cycles.counted;
  if (verdict?.includes('refused calls appear to count')) return true;
  return null;
}

/** Whether the advertised Reset moved between the exhaustion's allowed calls (by a second or more). */
export function resetMovesOf(r: Readings, observations: LabObservation[]): boolean | null {
  const d = r.exhaustion?.drain;
  if (!d) return null;
  const values = observations
    .slice(0, d.allowed)
    .map((o) => o.hints.resetAtMs)
    .filter((v): v is number => v !== null);
  if (values.length < 2) return null;
  return Math.max(...values) - Math.min(...values) >= SECOND;
}

/** What a measurement says (`verdict`: it stopped without a result, so it names no algorithm). */
export function claimOf(r: Readings, verdict: string | null): Claim {
  const named = r.likeReads ?? algorithmOf(r);
  const algorithm = verdict === null ? named : 'unknown';
  const refusedCallsCount = refusedCountOf(r, verdict);
  const burst = burstOf(r, named);
  const measured = rateOf(r, refusedCallsCount, named);
  const windowMs = windowOf(r, algorithm, burst, measured);
  const rate = measured ?? (burst !== null && windowMs !== null && algorithm !== 'unknown' ? burst / windowMs : null);
  return { algorithm, burst, rate, windowMs: windowMs === null ? null : Math.round(windowMs), refusedCallsCount };
}

/**
 * Two measurements that each failed the consistency checks: the most cautious of what they read. The
 * algorithm if both named the same, the smaller burst, the longer window, and the lowest rate observed (the
 * readings', what the sampling drains got through, and the most the refusals allow: `ceiling` of a burst).
 */
export function cautiousClaim(claims: Claim[], readings: Readings[], ceiling: (burst: number) => number | null = () => null): Claim {
  const nums = (xs: (number | null)[]) => xs.filter((x): x is number => x !== null && Number.isFinite(x) && x > 0);
  const algorithms = [...new Set(claims.map((c) => c.algorithm))];
  const bursts = nums(claims.map((c) => c.burst));
  // Nor above what the refusals allow a limiter of the smallest burst read (refusalCeiling).
  const least = bursts.length ? Math.min(...bursts) : null;
  const rates = nums([...claims.map((c) => c.rate), ...readings.map((r) => r.drainsRate), least === null ? null : ceiling(least)]);
  const windows = nums(claims.map((c) => c.windowMs));
  return {
    algorithm: algorithms.length === 1 ? (algorithms[0] as Algorithm) : 'unknown',
    burst: bursts.length ? Math.min(...bursts) : null,
    rate: rates.length ? Math.min(...rates) : null,
    windowMs: windows.length ? Math.max(...windows) : null,
    refusedCallsCount: claims.some((c) => c.refusedCallsCount) ? true : (claims[claims.length - 1]?.refusedCallsCount ?? null),
  };
}

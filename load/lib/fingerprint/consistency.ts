/**
 * Consistency before a verdict: the readings are checked against what the experiments can resolve and
 * against each other, and the limiter they describe must explain every refusal the probe drew. A reading
 * that fails is measured again once (fingerprinter.ts); failing again, the result is uncertain.
 *
 * - A window shorter than a few poll gaps cannot have been resolved by polls that far apart.
 * - A refined window outside what the refill sampling proved (its last empty drain and next full bucket):
 *   two measurements of the same quantity disagree.
 * - A continuous refill's rate far above or below what the sampling drains got through between empty
 *   buckets; a weighted sliding counter's only below (its drains get back the count of the aligned window before,
 *   which a burst straddling a boundary leaves at a few calls).
 * - A refusal the limiter read cannot give: fewer calls allowed just before it than a burst (within its
 *   window, or less what it refilled meanwhile). A stalled drain whose answers came late moves a window or
 *   a rate this way.
 * - A window's split refused some of the calls it spent from a full bucket (a sliding log whose refused
 *   calls count, read as a window: the refine's refused polls were still in it).
 * - A weighted sliding counter refuses by its own count, and its count falls no faster than its rate: after a
 *   full bucket it lets calls back within a window, one at a time (counter-checks.ts). A sliding log read as a
 *   counter refuses for longer and gives its bucket back in clumps as its calls leave it.
 * - A token bucket cannot pass more than one call more than it refilled since a refusal, nor (where refused
 *   calls do not count) refuse a call once it refilled one more than it passed since (bucketContradictions), nor
 *   pass more than its burst in less time than one call's refill (burstExceeded).
 * - A bucket's burst counted by a volley far from the exhaustion's count less its refill.
 * - Refused calls that moved the advertised reopening (they count), which the refused-call test found free.
 * - A window known only within a bracket wider than a tenth of it (polls held up twice).
 * - A timing-sensitive experiment that stalled twice.
 */
import { allowedOf, perSecond, type Lab } from './lab';
import type { Readings } from './readings';
import type { Claim, LabObservation } from './types';
import { counterUnexplained } from './counter-checks';

/** A window read this much too short still explains what it did (the readings' own error). */
const RATE_SLACK = 1.05;
/** Poll gaps a window must span at least. */
const MIN_WINDOW_GAPS = 4;
/** A window known within more than this share of itself (the pacing keeps 5 % in hand). */
const MAX_WINDOW_ERROR = 0.05;
/** The sustained rate against the sampling's throughput: at most this many times, at least its inverse / 1.3. */
const MAX_RATE_OVER_SAMPLING = 1.6;
const MIN_RATE_UNDER_SAMPLING = 1 / 1.3;

/** What disagreed in one measurement, in words (the checks listed above); empty when the readings hold together. */
export function inconsistencies(lab: Lab, readings: Readings, c: Claim): string[] {
  const out = [...readings.stalls];
  // The target's own Reset said refused calls count: a test that found them free read something else.
  if (readings.reopeningMoved === true && readings.refusedCallTest?.counted === false)
    out.push('the advertised reopening moved after refused calls (they count), and the refused-call test found they do not');
  if (c.algorithm === 'unknown' || c.burst === null || c.rate === null) return out;
  const windowLike = c.algorithm === 'fixed-window' || (c.algorithm === 'sliding-window' && readings.refillShape === 'window');
  if (windowLike && c.windowMs !== null) out.push(...windowProblems(lab, readings, c.windowMs));
  // A window's rate is its burst over its window, which the bracket above checks; a continuous refill's is
  // what the drains got through, give or take a weighted counter's low reading.
  const fromExhaustion = readings.exhaustionLessRefill;
  if (c.algorithm === 'token-bucket' && fromExhaustion !== null && Math.abs(c.burst - fromExhaustion) > Math.max(2, fromExhaustion / 10))
    out.push(`burst ${c.burst} from a volley against ${fromExhaustion} from the exhaustion less its refill`);
  out.push(...drainsRateProblems(readings, c, windowLike));
  out.push(...refillProblems(lab.observations, c, windowLike));
  const bad = unexplainedRefusals(lab.observations, c, windowLike);
  if (bad.length > strayRefusals(lab, c, windowLike))
    out.push(
      `${bad.length} refusals a limiter of burst ${c.burst} at ${perSecond(c.rate)}${c.windowMs !== null ? ` (window ${c.windowMs} ms)` : ''} does not give, the first at +${Math.round((bad[0] as number) - (lab.observations[0]?.tMs ?? 0))} ms`,
    );
  return out;
}

/** A continuous refill's rate against what the drains got through between empty buckets. */
function drainsRateProblems(readings: Readings, c: Claim, windowLike: boolean): string[] {
  const drainsRate = readings.drainsRate;
  if (drainsRate === null || drainsRate <= 0) return [];
  const ratio = (c.rate as number) / drainsRate;
  // A weighted counter's drains get back the aligned window before's count per window, a full bucket's at most:
  // they read it low, down to nothing; its whole timeline is checked (counterClumps, counterUnexplained).
  const counter = c.algorithm === 'sliding-window' && !windowLike;
  if ((counter || ratio <= MAX_RATE_OVER_SAMPLING) && ratio >= MIN_RATE_UNDER_SAMPLING) return [];
  return [
    `sustained ${perSecond(c.rate as number)} against ${perSecond(drainsRate)} the refill sampling got through between empty buckets`,
  ];
}

/** Refusals a claim may leave unexplained: of a counter one, since stalls only widen the spans its count is taken over. */
function strayRefusals(lab: Lab, c: Claim, windowLike: boolean): number {
  return c.algorithm === 'sliding-window' && !windowLike ? 1 : Math.max(1, lab.observations.length / 200);
}

/** A window's length against what the polls can resolve and what the sampling proved, and its split's refusals. */
function windowProblems(lab: Lab, readings: Readings, windowMs: number): string[] {
  const out: string[] = [];
  if (windowMs < MIN_WINDOW_GAPS * lab.fineMs)
    out.push(`window ${windowMs} ms is shorter than ${MIN_WINDOW_GAPS} poll gaps of ${lab.fineMs} ms: the polls cannot resolve it`);
  const err = readings.window?.errorMs ?? 0;
  if (err > Math.max(lab.fineMs, MAX_WINDOW_ERROR * windowMs))
    out.push(`window ${windowMs} ms known only within ±${Math.round(err)} ms (a stalled poll)`);
  const bracket = readings.samplingBracket;
  const slack = 2 * lab.fineMs;
  if (bracket && (windowMs < bracket.lo - slack || windowMs > bracket.hi + slack))
    out.push(`window ${windowMs} ms outside the ${Math.round(bracket.lo)}..${Math.round(bracket.hi)} ms the refill sampling proved`);
  const split = readings.split;
  if (split && split.halvesRefused > 0)
    out.push(
      `the split refused ${split.halvesRefused} of the ${split.firstHalf + split.secondHalf} calls it spent from a full window (refused calls that count keep a sliding log full)`,
    );
  return out;
}

/** What a continuous refill's claim does not explain: a token bucket's, or a weighted counter's. */
function refillProblems(obs: readonly LabObservation[], c: Claim, windowLike: boolean): string[] {
  if (c.algorithm === 'token-bucket') return bucketProblems(obs, c, c.burst as number, c.rate as number);
  return c.algorithm === 'sliding-window' && !windowLike ? counterClumps(obs, c) : [];
}

/**
 * Calls a weighted sliding counter at the claimed rate does not give back: its count is continuous across its
 * aligned boundaries and falls no faster than burst / window, so after a refusal no more than one call more than
 * the rate gives back can pass (as a bucket's, bucketContradictions). A sliding log read as a counter gives a
 * whole bucket back at once when its calls leave it.
 */
function counterClumps(obs: readonly LabObservation[], c: Claim): string[] {
  const { allowed } = bucketContradictions(obs, c);
  if (allowed.length <= Math.max(1, obs.length / 200)) return [];
  const firstMs = obs[0]?.tMs ?? 0;
  return [
    `${allowed.length} calls allowed faster than a weighted counter at ${perSecond(c.rate as number)} gives them back after a refusal, the first at +${Math.round((allowed[0] as number) - firstMs)} ms`,
  ];
}

/**
 * Calls a token bucket of `burst` at `rate` does not decide so, or no single refill rate explains (bucketContradictions),
 * or more calls than it holds allowed at once (burstExceeded).
 */
function bucketProblems(obs: readonly LabObservation[], c: Claim, burst: number, rate: number): string[] {
  const firstMs = obs[0]?.tMs ?? 0;
  const over = burstExceeded(obs, burst, rate);
  if (over)
    return [
      `${burst + 1} calls allowed within ${Math.round(over.spanMs)} ms at +${Math.round(over.atMs - firstMs)} ms: more than a bucket of ${burst} holds, refilling at ${perSecond(rate)}`,
    ];
  const { allowed, refused, least, most } = bucketContradictions(obs, c);
  const n = allowed.length + refused.length;
  if (n > obs.length / 200)
    return [
      `${n} calls a bucket of ${burst} at ${perSecond(rate)} does not decide so after an empty bucket (${allowed.length} allowed, ${refused.length} refused), the first at +${Math.round(Math.min(...allowed, ...refused) - firstMs)} ms`,
    ];
  if (least && most && least.rate > BUCKET_RATE_GAP * most.rate)
    return [
      `no refill rate explains a bucket of ${burst}: the calls allowed at +${Math.round(least.atMs - firstMs)} ms need ${perSecond(least.rate)}, the refusal at +${Math.round(most.atMs - firstMs)} ms allows ${perSecond(most.rate)} at most`,
    ];
  return [];
}

/**
 * Refusals the claim cannot explain (their answer times). Each call was decided between its send and its
 * answer, so counts and spans are taken as leniently as those allow: a refusal is explained when some span
 * before it held a burst of allowed calls (less a tenth and one, and less what a continuous refill gave back in it).
 * A window allows its burst within one window; a bucket within any span; a weighted counter by its own count
 * (counterUnexplained).
 */
export function unexplainedRefusals(obs: readonly LabObservation[], c: Claim, windowLike: boolean): number[] {
  const burst = c.burst as number;
  const rate = c.rate as number;
  // A tenth of the burst and one call of slack, and a tenth of the rate: the readings' own errors.
  const need = burst - Math.max(1, Math.ceil(burst / 10)) - 1;
  // Where refused calls count, they consume quota too.
  const allowed = c.refusedCallsCount ? [...obs] : obs.filter(allowedOf);
  if (c.algorithm === 'sliding-window' && !windowLike) return counterUnexplained(obs, allowed, need, RATE_SLACK * (burst / rate));
  const span = windowLike ? (c.windowMs as number) * RATE_SLACK : Infinity;
  const refill = windowLike ? 0 : 0.9 * rate;
  const bad: number[] = [];
  for (const o of obs) {
    if (allowedOf(o)) continue;
    // Allowed calls that may have been decided before this refusal, latest first.
    const before = allowed.filter((a) => a.sentMs <= o.tMs && a !== o).sort((x, y) => y.tMs - x.tMs);
    let explained = false;
    for (let k = 0; k < before.length && !explained; k++) {
      const a = before[k] as LabObservation;
      // The span from the earliest this call was decided to the latest the refusal was.
      const elapsed = Math.max(0, o.sentMs - a.tMs);
      if (elapsed > span) break;
      explained = k + 1 >= need + refill * elapsed;
    }
    if (!explained) bad.push(o.tMs);
  }
  return bad;
}

/** A bucket's rate read this much too low, or too high, still explains what it did (the readings' own error). */
const BUCKET_RATE_HIGH = 1.2;
const BUCKET_RATE_LOW = 0.8;
/** The least rate a bucket's allowed calls need over the most its refusals allow: at most this (clock and timing). */
const BUCKET_RATE_GAP = 1.1;

export interface BucketContradictions {
  /** Answer times of allowed calls the claimed bucket does not give (more than it refilled since a refusal). */
  allowed: number[];
  /** Answer times of refusals it does not give (it refilled a call more than it passed since a refusal). */
  refused: number[];
  /** Calls per ms any bucket needs at least to pass what it passed after a refusal, and the answer time that needs it. */
  least: { rate: number; atMs: number } | null;
  /** Calls per ms any bucket of the claimed burst refills at most to refuse what it refused (refused calls not counting). */
  most: { rate: number; atMs: number } | null;
}

/**
 * Burst + 1 allowed calls, from the first one's send to the latest answer among them, in less time than a bucket
 * refilling a fifth faster than `rate` takes to refill one call: a bucket of `burst` cannot pass them (it holds no
 * more than `burst` when the first is decided). The first such span, or null. A stall that lengthened the exhaustion
 * and the volley reads a call of refill into both, and a burst one call short; a drain from a rested bucket shows it.
 */
export function burstExceeded(obs: readonly LabObservation[], burst: number, rate: number): { atMs: number; spanMs: number } | null {
  const allowed = obs.filter(allowedOf);
  for (let i = 0; i + burst < allowed.length; i++) {
    let lastMs = 0;
    for (let j = i; j <= i + burst; j++) lastMs = Math.max(lastMs, (allowed[j] as LabObservation).tMs);
    const spanMs = lastMs - (allowed[i] as LabObservation).sentMs;
    if (BUCKET_RATE_HIGH * rate * spanMs < 1) return { atMs: lastMs, spanMs };
  }
  return null;
}

/**
 * Calls a token bucket cannot have decided so, each measured from a refusal, which says the bucket held less
 * than a call: from it on at most one call more than it refilled can pass, whether refused calls count or not;
 * where they do not count it held no less than nothing then, so a call refused after it had refilled a call more
 * than the calls allowed since took is unexplained too. Counts and spans are taken as leniently as the calls'
 * sends and answers allow. Against the claimed rate (a fifth off either way: `allowed`, `refused`), and against
 * any rate: the least the allowed calls need and the most the refusals allow (`least`, `most`).
 * A sliding log whose refused calls count, read as a bucket, passes several calls at once after a silence,
 * and refuses a call long after its last refusal.
 */
export function bucketContradictions(obs: readonly LabObservation[], c: Claim): BucketContradictions {
  const burst = c.burst as number;
  const rate = c.rate as number;
  const tooMany = new Set<LabObservation>();
  const refusedWrongly = new Set<LabObservation>();
  let least: BucketContradictions['least'] = null;
  let most: BucketContradictions['most'] = null;
  obs.forEach((x, i) => {
    if (allowedOf(x)) return;
    // Allowed calls sent before the refusal came back that may have been decided after it (a volley's).
    const overlapping = obs.filter((a) => allowedOf(a) && a.tMs > x.sentMs && a.sentMs < x.tMs).length;
    let passed = 0;
    for (let j = i + 1; j < obs.length; j++) {
      const y = obs[j] as LabObservation;
      // Only calls sent after the refusal came back were surely decided after it.
      if (y.sentMs < x.tMs) continue;
      if (allowedOf(y)) {
        passed += 1;
        const spanMs = y.tMs - x.sentMs;
        if (passed > 1 + BUCKET_RATE_HIGH * rate * spanMs) tooMany.add(y);
        if (passed > 1 && spanMs > 0 && (least === null || (passed - 1) / spanMs > least.rate))
          least = { rate: (passed - 1) / spanMs, atMs: y.tMs };
      } else if (c.refusedCallsCount === false) {
        // Allowed calls that may have been decided between the two refusals: those sent with this one count too.
        let taken = overlapping + passed;
        for (let k = j + 1; k < obs.length && (obs[k] as LabObservation).sentMs < y.tMs; k++)
          if (allowedOf(obs[k] as LabObservation)) taken += 1;
        const spanMs = y.sentMs - x.tMs;
        if (Math.min(burst, BUCKET_RATE_LOW * rate * spanMs) - taken >= 1) refusedWrongly.add(y);
        // Refused: it had refilled fewer than 1 + taken calls (a bucket of burst holds no more than burst).
        if (taken + 1 <= burst && spanMs > 0 && (most === null || (taken + 1) / spanMs < most.rate))
          most = { rate: (taken + 1) / spanMs, atMs: y.tMs };
      }
    }
  });
  const times = (set: Set<LabObservation>): number[] => obs.filter((o) => set.has(o)).map((o) => o.tMs);
  return { allowed: times(tooMany), refused: times(refusedWrongly), least, most };
}

/**
 * The windows (ms, `lo` < W ≤ `hi`) for which a sliding log of `burst` calls whose refused calls count too explains
 * every call: each call is allowed when fewer than `burst` calls, allowed or refused, came in the window before it.
 * Taken in the order they were sent, each call's `burst`-th predecessor must have left the window if it was allowed
 * and may still be in it if it was refused, as the sends and answers allow. Null when no window explains them.
 */
export function countedLogFit(obs: readonly LabObservation[], burst: number): { lo: number; hi: number } | null {
  let lo = 0;
  let hi = Infinity;
  for (let i = 0; i < obs.length; i++) {
    const o = obs[i] as LabObservation;
    const before = obs[i - burst];
    if (!allowedOf(o)) {
      // Refused with fewer than a full log of calls before it: no such log.
      if (!before) return null;
      lo = Math.max(lo, o.sentMs - before.tMs);
    } else if (before) hi = Math.min(hi, o.tMs - before.sentMs);
  }
  return lo > 0 && lo < hi && Number.isFinite(hi) ? { lo, hi } : null;
}

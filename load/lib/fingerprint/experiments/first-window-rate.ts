/**
 * First-window rate (a weighted sliding counter): drains read a weighted counter low, since each leaves the
 * current aligned window short of a full bucket, so the next window refills from less. Only the window right
 * after one that holds a full bucket refills at the true rate: its weight falls linearly from a full bucket
 * to none, so one call passes every window / burst.
 *
 * Plan: rest until both aligned windows are empty, burst, then time the calls that pass in the next window
 * with short drains (one fine gap apart), up to one less than a full bucket (all of them inside that window).
 * A burst that passes more than a full bucket straddled an aligned boundary: again a third of a window later
 * (at most three times). The span runs from the earliest the first call can have come back to the latest the
 * last one can have: never faster than the truth, slower by about one gap (20 ms in ~2 s: 1 %). A stalled poll
 * between them (a gap of several fine gaps) marks the reading stalled.
 * Reading: the burst of a rested counter, the rate from the first crossing to the last, and the pause before
 * the first call came back (a token bucket refills at once, a counter not before its next aligned boundary).
 */
import { drain, perSecond, type Lab, type Experiment } from '../lab';

export interface FirstWindowPlan {
  emptyAtMs: number;
  periodMs: number;
  /** The exhaustion's count and the advertised limit: a burst above either straddled a boundary. */
  burstObserved: number;
  advertisedLimit: number | null;
  /** The drains' rate, calls per ms: a pause is only read when longer than two of its calls. */
  drainsRate: number | null;
  /** The sampling already read a pause: not read again. */
  pauseKnown: boolean;
  /** Calls a rested burst just passed, emptied at `emptyAtMs` (no rest nor burst of its own then). */
  rested?: number;
  /** Calls came back since that rested burst (a drain emptied the counter again at `emptyAtMs`): its boundary passed. */
  boundaryPassed?: boolean;
}

export interface FirstWindowReading {
  /** Calls a rested burst passed (null: the bucket did not empty). */
  restedBurst: number | null;
  /** Calls per ms from the first crossing to the last; null when too few came back. */
  rate: number | null;
  /** No call back for this long after the rested burst emptied the bucket, timed within a fine gap; null: none read. */
  pausedMs: number | null;
  /** A poll between the first crossing and the last stalled: the rate is not to be trusted. */
  stalled: boolean;
}

export function* firstWindowRate(lab: Lab, p: FirstWindowPlan): Experiment<FirstWindowReading> {
  const expected = Math.min(p.burstObserved, p.advertisedLimit ?? Infinity);
  let emptyAtMs = p.emptyAtMs;
  for (let attempt = 1; ; attempt++) {
    const burst =
      attempt === 1 && p.rested !== undefined
        ? { allowed: p.rested, refusedMs: emptyAtMs }
        : yield* drain(lab, emptyAtMs + 2.1 * p.periodMs, 'first window', lab.drainCap());
    if (burst.refusedMs === null) {
      lab.note(`first window: the bucket did not empty after ${burst.allowed} calls`);
      return { restedBurst: null, rate: null, pausedMs: null, stalled: false };
    }
    if (burst.allowed > expected && attempt < 3) {
      // The burst straddled an aligned boundary: the next window starts from less than a full bucket.
      lab.note(`first window: a rested burst of ${burst.allowed} > ${expected} straddled a boundary; again, a third of a window later`);
      emptyAtMs = burst.refusedMs + p.periodMs / 3;
      continue;
    }
    const target = Math.max(2, Math.min(burst.allowed, expected) - 1);
    if (target >= COARSE_DRAINS_FROM) return yield* coarseDrains(lab, p, burst.allowed, burst.refusedMs, target);
    return yield* fineCrossings(lab, p, burst.allowed, burst.refusedMs, target);
  }
}

/**
 * A small counter: short drains a fine gap apart from the rested burst's refusal, each crossing (one call back)
 * timed within a fine gap, until `target` calls came back or 2.2 periods after the burst emptied the counter.
 */
function* fineCrossings(lab: Lab, p: FirstWindowPlan, rested: number, emptiedMs: number, target: number): Experiment<FirstWindowReading> {
  const deadline = emptiedMs + 2.2 * p.periodMs;
  let passed = 0;
  // Each crossing of a threshold (one call back) lies between the send of the refusal before it and the
  // answer of the call that passed. The rate is timed from the earliest the first crossing can have come to
  // the latest the last one can have: never faster than the truth, slower by about one gap (1 % in ~2 s).
  let startMs: number | null = null;
  let endMs = 0;
  let pausedMs: number | null = null;
  let lastRefused = { sentMs: emptiedMs, tMs: emptiedMs };
  let widestGapMs = 0;
  let crossingsFrom = lab.observations.length;
  let at = emptiedMs + lab.fineMs;
  for (;;) {
    const d = yield* drain(lab, at, 'first window', target - passed);
    if (d.allowed > 0) {
      const gapMs = d.firstMs - lastRefused.tMs;
      if (startMs === null) {
        pausedMs = pauseOf(lab, p, emptiedMs, (lastRefused.tMs + d.firstMs) / 2, gapMs);
        // From the refused poll before it: a stall there moves the start of the span.
        crossingsFrom = Math.max(0, lab.observations.length - d.allowed - (d.refusedMs === null ? 0 : 1) - 1);
      }
      widestGapMs = Math.max(widestGapMs, gapMs, d.firstMs - d.firstSentMs);
      startMs ??= lastRefused.sentMs;
      endMs = d.firstMs;
      passed += d.allowed;
    }
    if (d.refusedMs !== null)
      lastRefused = { sentMs: lab.observations[lab.observations.length - 1]?.sentMs ?? d.refusedMs, tMs: d.refusedMs };
    if (passed >= target || lab.lastMs + lab.fineMs > deadline) break;
    at = lab.lastMs + lab.fineMs;
  }
  // passed - 1 thresholds were crossed between the first crossing and the last one.
  if (startMs === null || passed < 2 || endMs <= startMs) {
    lab.note(`first window: ${passed} calls passed after a rested burst of ${rested}; the drains' rate stays`);
    return { restedBurst: rested, rate: null, pausedMs, stalled: false };
  }
  const rate = (passed - 1) / (endMs - startMs);
  // A stalled poll leaves several crossings at one time: the span holds, the count within it does not.
  widestGapMs = Math.max(widestGapMs, lab.worstDelaySince(crossingsFrom));
  const stalled = widestGapMs > STALLED_GAPS * lab.fineMs;
  lab.note(
    `first window: after a rested burst of ${rested}, ${passed} calls passed in ${Math.round(endMs - startMs)} ms from the boundary = ${perSecond(rate)} (the drains read ${perSecond(p.drainsRate ?? 0)})` +
      (stalled ? `; a call came back ${Math.round(widestGapMs)} ms after the previous refusal: stalled` : ''),
  );
  return { restedBurst: rested, rate, pausedMs, stalled };
}

/** From this many calls a window, a few drains inside it time the rate within a few % (and cost a bucket, not a poll every fine gap). */
export const COARSE_DRAINS_FROM = 40;

/**
 * A large counter: coarse polls (a fortieth of the period, a tenth after a rested burst) for the first call back
 * after the rested burst (an aligned boundary passed), a drain there, and the rate timed from it (timedInWindow); no
 * polls when calls came back already.
 */
function* coarseDrains(lab: Lab, p: FirstWindowPlan, rested: number, emptiedMs: number, target: number): Experiment<FirstWindowReading> {
  // A rested burst that already named a counter (no call back where a bucket gives some) needs no pause read: its
  // polls only find the boundary the rate is timed from.
  const gap = Math.max(lab.fineMs, p.periodMs / (p.rested === undefined ? 40 : 10));
  // Its boundary already passed: the window after it is timed from the drain that emptied the counter since.
  if (p.boundaryPassed) return yield* timedInWindow(lab, p, { rested, emptiedMs, pausedMs: null, gapMs: gap });
  const deadline = emptiedMs + 2.2 * p.periodMs;
  let lastRefused = { sentMs: emptiedMs, tMs: emptiedMs };
  let first = yield* drain(lab, emptiedMs + gap, 'first window', target);
  while (first.allowed === 0 && first.refusedMs !== null && lab.lastMs + gap <= deadline) {
    lastRefused = { sentMs: first.firstSentMs, tMs: first.refusedMs };
    first = yield* drain(lab, lab.lastMs + gap, 'first window', target);
  }
  const pausedMs =
    first.allowed > 0 ? pauseOf(lab, p, emptiedMs, (lastRefused.tMs + first.firstMs) / 2, first.firstMs - lastRefused.tMs, gap) : null;
  if (first.allowed === 0 || first.refusedMs === null) {
    lab.note(`first window: ${first.allowed} calls came back after a rested burst of ${rested}; the drains' rate stays`);
    return { restedBurst: rested, rate: null, pausedMs, stalled: false };
  }
  return yield* timedInWindow(lab, p, { rested, emptiedMs: first.refusedMs, pausedMs, gapMs: gap });
}

/** Where a window after a full one is timed from, and what came before it (the notes' words). */
export interface WindowTiming {
  rested: number | null;
  emptiedMs: number;
  pausedMs: number | null;
  gapMs: number;
  /** What emptied the counter before the window, in words (default: a rested burst of `rested`). */
  after?: string;
  /** The drains' rate reads this window's own (its samples): the first drain waits for all the calls back at once. */
  rateKnown?: boolean;
  /** No drain after this (the window's end), if sooner than 55 % of the period. */
  stopMs?: number;
}

/**
 * A large counter's window after a full one, its aligned boundary passed: from the drain that emptied it at
 * `emptiedMs` (its refusal the latest observation), the calls that come back until about 20 did (callsBack), at most
 * 55 % of the period later, inside that window (the drains read a counter's period long, never short, by up to
 * half). The rate: those calls less one over the span from that refusal's send to the last allowed answer, never
 * faster than the truth.
 */
export function* timedInWindow(
  lab: Lab,
  p: Pick<FirstWindowPlan, 'periodMs' | 'drainsRate'>,
  at: WindowTiming,
): Experiment<FirstWindowReading> {
  const { rested, pausedMs } = at;
  const from = lab.observations.length - 1;
  const refusalSentMs = lab.observations[from]?.sentMs ?? at.emptiedMs;
  const stopMs = Math.min(at.stopMs ?? Infinity, at.emptiedMs + 0.55 * p.periodMs);
  const back = yield* callsBack(lab, {
    emptyMs: at.emptiedMs,
    stopMs,
    drainsRate: p.drainsRate,
    gapMs: at.gapMs,
    rateKnown: !!at.rateKnown,
  });
  const spanMs = back.lastAllowedMs - refusalSentMs;
  if (back.calls < 2 || spanMs <= 0) {
    lab.note(`first window: ${back.calls} calls came back ${Math.round(spanMs)} ms after the first; the drains' rate stays`);
    return { restedBurst: rested, rate: null, pausedMs, stalled: false };
  }
  const rate = (back.calls - 1) / spanMs;
  const heldMs = lab.worstDelaySince(from);
  const stalled = heldMs > STALLED_GAPS * lab.fineMs;
  lab.note(
    `first window: after ${at.after ?? `a rested burst of ${rested}`}, ${back.calls} calls came back in ${Math.round(spanMs)} ms (${back.drains} drain${back.drains === 1 ? '' : 's'}) inside the next aligned window = ${perSecond(rate)} (the drains read ${perSecond(p.drainsRate ?? 0)})` +
      (stalled ? `; a call was held up ${Math.round(heldMs)} ms: stalled` : ''),
  );
  return { restedBurst: rested, rate, pausedMs, stalled };
}

/**
 * The calls that come back after a drain emptied the counter at `emptyMs`, until about 20 did (±1 of them is 5 %):
 * a drain once half of them came back at the drains' rate (which reads a counter low, down to nothing when a burst
 * straddled a boundary), or all of them when the drains read this window's own rate (`rateKnown`: one drain, one
 * refusal), then at the rate read so far; none after `stopMs`, inside the aligned window.
 */
function* callsBack(
  lab: Lab,
  w: { emptyMs: number; stopMs: number; drainsRate: number | null; gapMs: number; rateKnown: boolean },
): Experiment<{ calls: number; drains: number; lastAllowedMs: number }> {
  const { emptyMs, stopMs, drainsRate, gapMs } = w;
  let calls = 0;
  let drains = 0;
  let lastAllowedMs = emptyMs;
  const first = w.rateKnown ? CALLS_BACK + 1 : CALLS_BACK / 2;
  let at = Math.min(stopMs, drainsRate ? emptyMs + first / drainsRate : stopMs);
  for (;;) {
    const d = yield* drain(lab, at, 'first window', lab.drainCap());
    drains += 1;
    calls += d.allowed;
    if (d.allowed > 0) lastAllowedMs = lab.observations[lab.observations.length - (d.refusedMs === null ? 1 : 2)]?.tMs ?? d.firstMs;
    if (d.refusedMs === null || calls >= CALLS_BACK || lab.lastMs >= stopMs) return { calls, drains, lastAllowedMs };
    const soFar = calls / Math.max(1, lab.lastMs - emptyMs);
    at = Math.min(stopMs, lab.lastMs + (calls > 0 ? (CALLS_BACK - calls) / soFar : gapMs));
  }
}

/** Calls back that time a large counter's rate: ±1 of them is 5 %, never fast. */
const CALLS_BACK = 20;

/** A gap between two polls wider than this many fine gaps: a call or its answer stalled. */
export const STALLED_GAPS = 4;

/**
 * A token bucket gives a call back one interval after it empties; a sliding counter none before its next
 * aligned boundary. Only a crossing timed within a fine gap counts: a stalled poll leaves it anywhere.
 */
function pauseOf(lab: Lab, p: FirstWindowPlan, emptiedMs: number, crossedMs: number, gapMs: number, pollMs = lab.fineMs): number | null {
  const rate = p.drainsRate;
  if (p.pauseKnown || !rate || gapMs > 2 * pollMs || crossedMs - emptiedMs <= 2 / rate) return null;
  const pausedMs = crossedMs - emptiedMs;
  lab.note(
    `first window: no call back for ${Math.round(pausedMs)} ms after a rested burst emptied the bucket (a token bucket refills at once)`,
  );
  return pausedMs;
}

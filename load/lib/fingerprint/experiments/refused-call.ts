/**
 * Refused calls (a continuous refill): do refused calls consume quota? From an empty bucket, the same short
 * cycle twice: wait for about eight calls to refill and drain them (control); then a few extra calls at once
 * while the bucket is empty, the same wait and a drain (test). Fewer calls allowed after the test cycle means
 * refused calls count.
 *
 * A window needs no such test: the refill sampling's empty drains were refused calls inside the window, and the
 * full bucket still came back on time (a sliding log counting them would never have reopened; a fixed window
 * forgets them at its end).
 *
 * Plan: 2 × (8 + 1) + 5 calls over two short waits (fewer for a bucket of fewer than nine), from the empty bucket the split left.
 * Reading: the calls allowed after each cycle and the extra calls refused; null when a drain did not empty.
 */
import { drain, spend, type Lab, type Experiment } from '../lab';
import type { Drain } from '../types';

export interface RefusedCallReading {
  control: number;
  test: number;
  extraRefused: number;
  /** A call was held up long enough to move what a cycle found (over a tenth of the wait): ms, else null. */
  stalledMs: number | null;
  /** Calls the measured rate refills in a cycle's wait (a loaded client's control drain gets more: its calls take time). */
  expected: number;
}

export interface RefusedCallPlan {
  /** When the bucket was last emptied. */
  emptyAtMs: number;
  /** The measured refill rate, calls per ms. */
  rate: number;
  burst: number;
  /** Calls a cycle waits for (default: eight, fewer for a bucket of fewer than nine). */
  refilled?: number;
}

/** Calls refilled between two drains of a cycle: ±1 each, so five extra calls stand out. */
const REFILLED = 8;

/** The wait of a cycle, ms: `refilled` calls of the refill, else about eight (fewer for a small bucket). */
export const cycleWaitMs = (p: Pick<RefusedCallPlan, 'rate' | 'burst' | 'refilled'>): number =>
  (p.refilled ?? Math.min(REFILLED, Math.max(2, p.burst - 1))) / p.rate;

/** The control cycle alone: the calls back one cycle's wait after the bucket emptied. */
export function* controlCycle(lab: Lab, p: RefusedCallPlan): Experiment<Drain> {
  return yield* drain(lab, p.emptyAtMs + cycleWaitMs(p), 'refused calls', lab.drainCap());
}

/** `control`: the control cycle, when it already ran from `p.emptyAtMs`. */
export function* refusedCalls(lab: Lab, p: RefusedCallPlan, control?: Drain): Experiment<RefusedCallReading | null> {
  const from = control ? lab.observations.length - control.allowed - (control.refusedMs === null ? 0 : 1) : lab.observations.length;
  const waitMs = cycleWaitMs(p);
  const k = 5;
  control ??= yield* controlCycle(lab, p);
  if (control.refusedMs === null) return null;
  const extra = yield* spend(lab, control.refusedMs, 'refused calls', k);
  const test = yield* drain(lab, control.refusedMs + waitMs, 'refused calls', lab.drainCap());
  if (test.refusedMs === null) return null;
  const delayMs = lab.worstDelaySince(from);
  const stalledMs = delayMs > Math.max(2 * lab.fineMs, waitMs / 10) ? delayMs : null;
  const testAllowed = test.allowed + extra.allowed;
  lab.note(
    `refused calls: ${control.allowed} allowed ${Math.round(waitMs)} ms after an empty bucket, ${testAllowed} after ${extra.refused} refused calls and the same wait` +
      (stalledMs === null ? '' : `; a call was held up ${Math.round(stalledMs)} ms: stalled`),
  );
  return { control: control.allowed, test: testAllowed, extraRefused: extra.refused, stalledMs, expected: Math.round(waitMs * p.rate) };
}

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

export interface RefusedCallReading {
  control: number;
  test: number;
  extraRefused: number;
  /** A call was held up long enough to move what a cycle found (over a tenth of the wait): ms, else null. */
  stalledMs: number | null;
}

export interface RefusedCallPlan {
  /** When the bucket was last emptied. */
  emptyAtMs: number;
  /** The measured refill rate, calls per ms. */
  rate: number;
  burst: number;
}

/** Calls refilled between two drains of a cycle: ±1 each, so five extra calls stand out. */
const REFILLED = 8;

export function* refusedCalls(lab: Lab, p: RefusedCallPlan): Experiment<RefusedCallReading | null> {
  const from = lab.observations.length;
  const waitMs = Math.min(REFILLED, Math.max(2, p.burst - 1)) / p.rate;
  const k = 5;
  const control = yield* drain(lab, p.emptyAtMs + waitMs, 'refused calls', lab.drainCap());
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
  return { control: control.allowed, test: testAllowed, extraRefused: extra.refused, stalledMs };
}

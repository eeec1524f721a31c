/**
 * Refused calls: do refused calls consume quota? The same cycle twice from a rested bucket (empty it, drain
 * again one period later), the second with a few extra calls while the bucket is empty: fewer calls allowed
 * afterwards means refused calls count.
 *
 * Plan: the extra calls right away (continuous refill) or mid-window (still inside a sliding window at the
 * second drain); each cycle rests two periods first (that clears a sliding counter's weighted window), a
 * fixed window one. The test cycle starts a whole number of periods after the control cycle: a sliding
 * counter refills by the phase of its aligned windows, and at the same phase the two cycles compare.
 * Reading: the calls allowed after each cycle and the extra calls refused; null when the cycles could not
 * compare.
 */
import { Stop, drain, spend, type Bench, type Experiment } from './bench';

export interface RefusedCallReading {
  control: number;
  test: number;
  extraRefused: number;
  /** A call was held up long enough to move what a cycle found (over 5 % of the period): ms, else null. */
  stalledMs: number | null;
}

export interface RefusedCallPlan {
  /** When the bucket was last emptied. */
  emptyAtMs: number;
  periodMs: number;
  burst: number;
  continuous: boolean;
  /** The split showed a sliding window. */
  sliding: boolean;
}

export function* refusedCalls(b: Bench, p: RefusedCallPlan): Experiment<RefusedCallReading | null> {
  const B = p.burst;
  const from = b.observations.length;
  const rest = (p.continuous || p.sliding ? 2.1 : 1.1) * p.periodMs;
  const extraAt = p.continuous ? 0 : 0.6 * p.periodMs;
  const k = Math.max(2, Math.min(5, Math.floor(B / 2)));
  const controlAt = p.emptyAtMs + rest;
  const control = yield* refusedCycle(b, controlAt, 0, p, extraAt);
  if (!control) return null;
  // Nothing at all after a quiet cycle: every algorithm that ignores refused calls gives some back.
  const expected = p.continuous ? 0.6 * B : B;
  if (control.allowed === 0)
    throw new Stop(
      `refused calls: a quiet cycle gave ${control.allowed} calls where the model gives ${Math.round(expected)}: refused calls appear to count`,
    );
  if (!p.continuous && control.allowed < B - 1) {
    // A window gives a full bucket back after a quiet cycle; less is a limiter the window model does not
    // hold for (a sliding counter whose sampling looked like a window): two cycles would not compare.
    b.note(`refused calls: not tested (a quiet cycle gave ${control.allowed} calls back where a window gives ${B})`);
    return null;
  }
  const testAt = controlAt + Math.ceil((b.lastMs + rest - controlAt) / p.periodMs) * p.periodMs;
  const test = yield* refusedCycle(b, testAt, k, p, extraAt);
  if (!test) return null;
  const delayMs = b.worstDelaySince(from);
  const stalledMs = delayMs > Math.max(2 * b.fineMs, p.periodMs / 20) ? delayMs : null;
  b.note(
    `refused calls: ${control.allowed} allowed after a quiet cycle, ${test.allowed} after one with ${test.refused} refused calls` +
      (stalledMs === null ? '' : `; a call was held up ${Math.round(stalledMs)} ms: stalled`),
  );
  return { control: control.allowed, test: test.allowed, extraRefused: test.refused, stalledMs };
}

/** Empties the bucket at `at`, adds `extras` calls while it is empty, drains again: the calls allowed after it. */
function* refusedCycle(
  b: Bench,
  at: number,
  extras: number,
  p: RefusedCallPlan,
  extraAt: number,
): Experiment<{ allowed: number; refused: number } | null> {
  const first = yield* drain(b, at, 'refused calls', 2 * b.cfg.burstCap);
  if (first.refusedMs === null) return null;
  const t = first.refusedMs;
  const spent = extras > 0 ? yield* spend(b, t + extraAt, 'refused calls', extras) : { allowed: 0, refused: 0 };
  const d = yield* drain(b, t + (p.continuous ? 0.6 : 1.5) * p.periodMs, 'refused calls', 2 * b.cfg.burstCap);
  if (d.refusedMs === null) return null;
  return { allowed: d.allowed + spent.allowed, refused: spent.refused };
}

/**
 * Split: half the burst at the start of a full bucket, the other half half a period later, then a drain one
 * period (plus a margin) after the start. A fixed window is full again; a sliding window gives back only
 * the first half (the second is still inside it); a token bucket is full again (it refilled the whole time).
 *
 * Plan: from a bucket full at `startMs` with `spent` calls already made from it (the refine's allowed call),
 * or after a rest at `restAt` (one call first, to see the bucket is full).
 * Reading: the calls the final drain got back, against the halves and the full bucket.
 */
import { allowedOf, call, drain, spend, type Lab, type Experiment } from '../lab';
import type { Drain } from '../types';

export interface SplitReading {
  /** Calls the final drain got back. */
  drained: number;
  /** Calls spent at the start, and half a period later. */
  firstHalf: number;
  secondHalf: number;
  /** A full bucket. */
  burst: number;
  /** The final drain: the bucket is empty at its refusal. */
  drain: Drain;
  /** A call was held up long enough to move what the drain finds (over 5 % of the period): ms, else null. */
  stalledMs: number | null;
  /** Calls of the two halves refused (a full bucket gives them all). */
  halvesRefused: number;
}

export interface SplitPlan {
  start: { startMs: number } | { restAt: number };
  periodMs: number;
  burst: number;
  marginMs: number;
  /**
   * A window: the final drain stops one call past the first half (more than half back is a fixed window, the
   * first half a sliding one); a bucket drains to the end.
   */
  window: boolean;
}

/** Null when the bucket was not full at the start, or is too small to split. */
export function* split(lab: Lab, p: SplitPlan): Experiment<SplitReading | null> {
  const from = lab.observations.length;
  let startMs: number;
  if ('restAt' in p.start) {
    const o = yield* call(lab, p.start.restAt, 'split');
    if (!allowedOf(o)) {
      lab.note('split: the bucket was not full at the start of the split test');
      return null;
    }
    startMs = o.tMs;
  } else startMs = p.start.startMs;
  const burst = p.burst;
  if (burst < 2) return null;
  const firstHalf = Math.floor(burst / 2);
  const secondHalf = burst - firstHalf;
  // One call already made from the full bucket.
  const first = firstHalf > 1 ? yield* spend(lab, startMs, 'split', firstHalf - 1) : { refused: 0 };
  const second = yield* spend(lab, startMs + p.periodMs / 2, 'split', secondHalf);
  const halvesRefused = first.refused + second.refused;
  const after = p.periodMs + p.marginMs;
  const d = yield* drain(lab, startMs + after, 'split', p.window ? Math.min(burst, firstHalf + 1) : lab.drainCap());
  const delayMs = lab.worstDelaySince(from);
  const stalledMs = delayMs > Math.max(2 * lab.fineMs, p.periodMs / 20) ? delayMs : null;
  lab.note(
    `split: ${firstHalf} calls at 0, ${secondHalf} at +${Math.round(p.periodMs / 2)} ms${halvesRefused ? ` (${halvesRefused} refused)` : ''}, then ${d.allowed}${d.refusedMs === null ? ' (enough)' : ''} allowed at +${Math.round(after)} ms (a full bucket is ${burst})` +
      (stalledMs === null ? '' : `; a call was held up ${Math.round(stalledMs)} ms: stalled`),
  );
  return { drained: d.allowed, firstHalf, secondHalf, burst, drain: d, stalledMs, halvesRefused };
}

/** Only the first half came back: the second is still inside a sliding window. */
export function splitSaysSliding(s: SplitReading | null): boolean {
  return s !== null && s.drained <= s.burst - Math.max(1, s.secondHalf / 2);
}

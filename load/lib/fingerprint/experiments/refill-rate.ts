/** The rate of a continuous refill read from the refill sampling's drains, and any pause before it started. */
import { perSecond, type Lab } from '../lab';
import type { SamplingReading } from './refill-sampling';

export interface RefillRate {
  /** Calls per ms. */
  rate: number;
  /** The span it was measured on (the refusal ending each drain is counted when refused calls count). */
  span: { allowed: number; elapsedMs: number; refusals: number };
  /** How long the refill waited after the bucket emptied (a sliding counter's aligned window), ms; null: none. */
  pausedMs: number | null;
}

/**
 * The rate of a continuous refill: both ends of the measured span are an empty bucket, so allowed calls /
 * elapsed is the refill rate (±1 call). Leading empty drains are a pause before the refill starts (a sliding
 * counter's current aligned window): measured from the last of them. `windowPauseMs`: the empty drains of an
 * earlier window-like sampling (a stall cannot empty a drain, only fill it).
 */
export function refillRate(lab: Lab, sampling: SamplingReading, windowPauseMs: number | null): RefillRate | null {
  const { samples } = sampling;
  const lead = samples.findIndex((x) => x.drain.allowed > 0);
  // After a pause timed at once: from the first drain with calls back, whose span is partly the pause.
  const first = sampling.firstWindow?.index ?? lead;
  const measured = first === -1 ? [] : samples.slice(first);
  const start = (first > 0 ? samples[first - 1]?.drain.refusedMs : sampling.from.refusedMs) as number;
  const last = measured[measured.length - 1]?.drain;
  const allowed = measured.reduce((a, x) => a + x.drain.allowed, 0);
  if (!last || last.refusedMs === null || last.refusedMs <= start || allowed === 0) {
    lab.note('no refill seen between drains');
    return null;
  }
  const rate = allowed / (last.refusedMs - start);
  let pausedMs: number | null = null;
  // A token bucket refills from the moment it empties; the last empty drain bounds the pause from below.
  const lastEmpty = lead > 0 ? (samples[lead - 1]?.drain.firstMs ?? start) : start;
  const emptied = sampling.from.refusedMs as number;
  if (sampling.firstWindow) {
    pausedMs = sampling.firstWindow.pausedMs;
    lab.note(`the refill paused for ${Math.round(pausedMs)} ms after a full bucket emptied (a token bucket refills at once)`);
  } else if (lastEmpty - emptied > 2 / rate) {
    pausedMs = lastEmpty - emptied;
    lab.note(`the refill paused for ${Math.round(pausedMs)} ms after the bucket emptied (a token bucket refills at once)`);
  } else if (windowPauseMs !== null && windowPauseMs > 2 / rate) {
    pausedMs = windowPauseMs;
    lab.note(`the refill paused for ${Math.round(pausedMs)} ms in the window-like sampling (a token bucket refills at once)`);
  }
  lab.note(`continuous refill: ${allowed} calls in ${last.refusedMs - start} ms = ${perSecond(rate)} between empty buckets`);
  return { rate, span: { allowed, elapsedMs: last.refusedMs - start, refusals: measured.length }, pausedMs };
}

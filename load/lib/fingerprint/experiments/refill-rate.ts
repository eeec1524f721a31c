/** The rate of a continuous refill read from the refill sampling's drains, and any pause before it started. */
import { allowedOf, perSecond, type Lab } from '../lab';
import type { SamplingReading } from './refill-sampling';

export interface RefillRate {
  /** Calls per ms. */
  rate: number;
  /** The span it was measured on (the refusal ending each drain is counted when refused calls count). */
  span: { allowed: number; elapsedMs: number; refusals: number };
  /** How long the refill waited after the bucket emptied (a sliding counter's aligned window), ms; null: none. */
  pausedMs: number | null;
  /**
   * The samples came in the window after the exhaustion's full one, the reopening having shown a pause before them
   * (hiddenPause): their rate (calls per ms, never faster than the truth) and the earliest that window can end; null: not so.
   */
  afterPause: { rate: number; windowEndMs: number } | null;
}

/**
 * The rate of a continuous refill: both ends of the measured span are an empty bucket, so allowed calls /
 * elapsed is the refill rate (±1 call). Leading empty drains are a pause before the refill starts (a sliding
 * counter's current aligned window): measured from the last of them. `windowPauseMs`: the empty drains of an
 * earlier window-like sampling (a stall cannot empty a drain, only fill it). A reopening short of the refill the
 * samples give is a pause it hid (`hiddenPause`, the exhaustion's `burst` bounding the window after it).
 */
export function refillRate(lab: Lab, sampling: SamplingReading, windowPauseMs: number | null, burst: number): RefillRate | null {
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
  const { pausedMs, afterPause } = refillPause(
    lab,
    sampling,
    { rate, lead, windowPauseMs },
    { allowed, startMs: start, endMs: last.refusedMs },
    burst,
  );
  lab.note(`continuous refill: ${allowed} calls in ${last.refusedMs - start} ms = ${perSecond(rate)} between empty buckets`);
  return { rate, span: { allowed, elapsedMs: last.refusedMs - start, refusals: measured.length }, pausedMs, afterPause };
}

/**
 * How long the refill waited after the bucket emptied: the pause the sampling timed at once, its leading empty
 * drains (a token bucket refills from the moment it empties: the last of them bounds the pause from below), an
 * earlier window-like sampling's, or one the reopening hid; none else.
 */
function refillPause(
  lab: Lab,
  sampling: SamplingReading,
  at: { rate: number; lead: number; windowPauseMs: number | null },
  span: { allowed: number; startMs: number; endMs: number },
  burst: number,
): Pick<RefillRate, 'pausedMs' | 'afterPause'> {
  const { rate, lead, windowPauseMs } = at;
  const { samples } = sampling;
  const lastEmpty = lead > 0 ? (samples[lead - 1]?.drain.firstMs ?? span.startMs) : span.startMs;
  const emptied = sampling.from.refusedMs as number;
  if (sampling.firstWindow) {
    const pausedMs = sampling.firstWindow.pausedMs;
    lab.note(`the refill paused for ${Math.round(pausedMs)} ms after a full bucket emptied (a token bucket refills at once)`);
    return { pausedMs, afterPause: null };
  }
  if (lastEmpty - emptied > 2 / rate) {
    const pausedMs = lastEmpty - emptied;
    lab.note(`the refill paused for ${Math.round(pausedMs)} ms after the bucket emptied (a token bucket refills at once)`);
    return { pausedMs, afterPause: null };
  }
  if (windowPauseMs !== null && windowPauseMs > 2 / rate) {
    lab.note(`the refill paused for ${Math.round(windowPauseMs)} ms in the window-like sampling (a token bucket refills at once)`);
    return { pausedMs: windowPauseMs, afterPause: null };
  }
  const hidden = lead === 0 ? hiddenPause(lab, sampling, span, burst) : null;
  return { pausedMs: hidden?.pausedMs ?? null, afterPause: hidden && { rate: hidden.rate, windowEndMs: hidden.windowEndMs } };
}

/** A reopening that got back this many calls fewer than the samples' rate gives, beyond its refusals' debt and one call: a pause. */
const HIDDEN_PAUSE_CALLS = 1.5;

/**
 * A pause the reopening hid (a weighted counter whose aligned boundary came after the exhaustion): the reopening, a
 * partial bucket with no drain since the exhaustion's refusal, got fewer calls back than the samples' rate gives
 * from that refusal on. Taken leniently to a bucket: the samples' rate never faster than the truth (one call less
 * over their span), the reopening's span from the refusal answered to its first call sent, and each refused call
 * since a call of debt (where refused calls count): a bucket falls short by one call more than its refusals at most.
 * The samples then came in the window after the exhaustion's full one (`burst` calls), whose rate is the true one, when
 * they ended within the shortest window they allow (one call more over their span). Null: no such pause, or not so timed.
 */
function hiddenPause(
  lab: Lab,
  sampling: SamplingReading,
  span: { allowed: number; startMs: number; endMs: number },
  burst: number,
): { pausedMs: number; rate: number; windowEndMs: number } | null {
  const emptiedMs = sampling.refilledFromMs;
  if (emptiedMs === null || span.allowed < 2) return null;
  const { from } = sampling;
  const spanMs = span.endMs - span.startMs;
  const floor = (span.allowed - 1) / spanMs;
  const refusals = lab.observations.filter((o) => !allowedOf(o) && o.tMs >= emptiedMs && o.tMs < from.firstMs).length;
  const shortBy = floor * (from.firstSentMs - emptiedMs) - from.allowed;
  const shortestWindowMs = burst / ((span.allowed + 1) / spanMs);
  if (shortBy <= refusals + HIDDEN_PAUSE_CALLS || span.endMs - emptiedMs >= shortestWindowMs) return null;
  const pausedMs = (shortBy - refusals - 1) / floor;
  lab.note(
    `the reopening got ${from.allowed} calls back where the refill that followed gives ${Math.floor(shortBy + from.allowed)} since the exhaustion's refusal (${refusals} refused since): the refill paused for ${Math.round(pausedMs)} ms at least (a token bucket refills at once), and the samples came in the window after the full bucket = ${perSecond(floor)}`,
  );
  return { pausedMs, rate: floor, windowEndMs: emptiedMs + shortestWindowMs };
}

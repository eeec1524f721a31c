/**
 * Exhaustion: calls back to back from a full bucket until the first refusal → the burst (as observed:
 * a bucket that refills while the calls run passes more, see burst-volley.ts).
 *
 * Plan: at most `burstCap` calls; a bucket refilling during the drain may pass more, so on to twice the cap,
 * then one volley of `burstCap` calls at once (calls one after another may not outrun a fast refill).
 * Reading: the calls allowed, the drain's timing, the refusal that ended it and the first call's hints.
 */
import type { RateLimitHints } from '../../rate-limit-hints';
import { Stop, allowedOf, drain, volley, type Lab, type Experiment } from '../lab';
import type { Drain, LabObservation } from '../types';

export interface ExhaustionReading {
  drain: Drain;
  /** Calls allowed before the first refusal. */
  burst: number;
  refusal: LabObservation;
  firstHints: RateLimitHints | null;
}

/** `startAt`: when the first call is due (epoch ms; 0: at once). */
export function* exhaustion(lab: Lab, startAt = 0): Experiment<ExhaustionReading> {
  let d = yield* drain(lab, startAt, 'exhaustion', lab.cfg.burstCap);
  if (d.refusedMs === null) d = yield* drain(lab, lab.lastMs, 'exhaustion', lab.drainCap(), d);
  if (d.refusedMs === null) {
    // Calls one after another may not outrun a fast refill (75/s against a call every 8 ms): a volley does.
    const answers = yield* volley(lab, lab.lastMs, 'exhaustion', lab.cfg.burstCap);
    d.allowed += answers.filter(allowedOf).length;
    const refused = answers.filter((o) => !allowedOf(o));
    if (refused.length) {
      d.refusedMs = (refused[0] as LabObservation).tMs;
      lab.note(`exhaustion: calls one after another did not empty the bucket; a volley of ${answers.length} did`);
    }
  }
  if (d.refusedMs === null) throw new Stop(`no 429 after ${d.allowed} calls: the limit is above ${d.allowed} or there is none`);
  lab.note(`exhaustion: ${d.allowed} calls allowed, then 429`);
  lab.observedBurst = d.allowed;
  return {
    drain: d,
    burst: d.allowed,
    refusal: lab.observations[lab.observations.length - 1] as LabObservation,
    firstHints: lab.observations[0]?.hints ?? null,
  };
}

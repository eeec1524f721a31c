/**
 * Refill sampling: drains (calls until refused) spaced to measure the refill rather than the first
 * reopening. Zeros then a full bucket = a window; steady counts = a continuous refill.
 *
 * Plan: from the settled reopening (reopening-settle.ts), the gap is chosen so a continuous refill brings ~3 calls per drain and widens while drains come back
 * (nearly) empty; it stops once 20 to 40 calls came back (see `steady`), or at 20 drains.
 * A full bucket, empty drains longer than two calls of the refill, then calls back is a weighted sliding
 * counter's next aligned window, which refills at the true rate: it is timed there and then, polls keeping
 * the counter empty (first-window-after-pause.ts), and the sampling ends. So does a drain that got calls back over
 * twice as fast as the drains before it (a counter's boundary after an exhaustion that straddled one): the window
 * after it is timed there (refill-jump.ts).
 * Reading: window-like (with the drains that show it: a full bucket, the last empty drain, the next full
 * bucket) or a continuous refill (its rate between empty buckets, and any pause before it started).
 */
import { Stop, drain, type Lab, type Experiment } from '../lab';
import { firstWindowAfterPause, type PauseEnd } from './first-window-after-pause';
import { merged, oneMore, partialPause, pauseOf } from './pause-ends';
import { timedIfSpedUp, type RefillJump } from './refill-jump';
import type { Drain } from '../types';

/** One drain of the refill sampling and the gap waited before it. */
export interface RefillSample {
  gapMs: number;
  drain: Drain;
}

/** The drains that show a window: a full bucket (ref), the last empty drain, the next full bucket. */
export interface WindowRef {
  ref: Drain;
  before: Drain;
  boundary: Drain;
}

export interface SamplingPlan {
  /** The drain the sampling follows (the reopening's, or the split's when sampled again). */
  from: Drain;
  burst: number;
  gapMs: number;
  maxGapMs: number;
  /** False once a window-like reading was dropped for a continuous refill: not again. */
  windowAllowed: boolean;
  /** `from` came back after a pause that followed a full bucket (the reopening after the exhaustion). */
  pause?: PauseEnd | null;
  /** `from` is a partial bucket refilled since an empty one, answered at this ms, with no drain between (reopening-settle.ts). */
  refilledFromMs?: number | null;
}

export interface SamplingReading {
  from: Drain;
  samples: RefillSample[];
  windowRef: WindowRef | null;
  /** The gap the last drain used (a later sampling starts from it). */
  gapMs: number;
  /**
   * A full bucket, a pause, then calls back (a weighted sliding counter): the window after the full one timed
   * at once by the samples from `index` on, at `rate` (calls per ms, never faster than the truth); null: not so.
   */
  firstWindow: { index: number; rate: number; restedBurst: number; pausedMs: number } | null;
  /** As the plan's: `from` refilled since an empty bucket answered at this ms, with no drain between; null: not so. */
  refilledFromMs: number | null;
  /** The refill sped up between the last two samples (an aligned boundary), and the window after it timed; null: not so. */
  jump: RefillJump | null;
}

/**
 * The last empty drain, when drain `d` got one call back after a full bucket and only empty drains (the first
 * call of an aligned window's, or of a bucket's refill); undefined otherwise.
 */
function emptyBeforeOneCall(d: Drain, samples: RefillSample[], p: SamplingPlan): Drain | undefined {
  const lastEmpty = samples[samples.length - 1]?.drain;
  const oneAfterEmpty = d.allowed === 1 && p.from.allowed >= p.burst && samples.every((s) => s.drain.allowed === 0);
  return oneAfterEmpty ? lastEmpty : undefined;
}

/** The pause after a full bucket that the samples show, `d` the last: after the reopening's pause, else one of their own. */
function pauseSoFar(samples: RefillSample[], p: SamplingPlan, d: Drain): PauseEnd | null {
  return samples.length === 1 && p.pause ? stillAfter(p.pause, d) : pauseEnd(samples, p);
}

export function* sampleRefill(lab: Lab, p: SamplingPlan): Experiment<SamplingReading> {
  const samples: RefillSample[] = [];
  let gap = p.gapMs;
  let from = p.from.refusedMs as number;
  for (;;) {
    const used = gap;
    let d = yield* drain(lab, from + used, 'refill sampling', lab.drainCap());
    if (d.refusedMs === null) throw new Stop(`a refill drain did not empty after ${d.allowed} calls`);
    let counter: PauseEnd | null = null;
    const lastEmpty = emptyBeforeOneCall(d, samples, p);
    if (lastEmpty) {
      // The first call of an aligned window's, or of a bucket's refill: one drain more, soon, tells; read with it as one drain.
      const more = yield* oneMore(lab, p.from, lastEmpty, d);
      d = more.merged;
      counter = partialPause(p.from, lastEmpty, samples.length, more, p.burst);
    }
    samples.push({ gapMs: used, drain: d });
    // Too little refill per drain to measure: widen the gap (a window keeps showing empty drains); a large bucket
    // to three calls a drain or more, so its refusals are not half of what the sampling costs.
    if (d.allowed < (p.burst >= 40 ? 3 : 2)) gap = Math.min(gap * 1.6, p.maxGapMs);
    const windowRef = p.windowAllowed ? findWindow([p.from, ...samples.map((s) => s.drain)], p.burst) : null;
    const pause = windowRef ? null : (counter ?? pauseSoFar(samples, p, d));
    const timedAtOnce = pause ? yield* afterPause(lab, p, samples, gap, pause) : null;
    if (timedAtOnce) return timedAtOnce;
    const jump = windowRef || pause ? null : yield* timedIfSpedUp(lab, drainsOf(samples), p, gap);
    if (jump || windowRef || steady(samples, p.burst) || samples.length >= 20) return ended(lab, p, samples, gap, { windowRef, jump });
    from = (samples[samples.length - 1] as RefillSample).drain.refusedMs ?? lab.lastMs;
  }
}

const drainsOf = (samples: RefillSample[]): Drain[] => samples.map((s) => s.drain);

/**
 * After a pause that followed a full bucket: the window after it timed at once (the sampling ends), else its polls
 * added to the samples as one drain (they drained the refill all the same) and null.
 */
function* afterPause(
  lab: Lab,
  p: SamplingPlan,
  samples: RefillSample[],
  gapMs: number,
  pause: PauseEnd,
): Experiment<SamplingReading | null> {
  lab.note(`refill sampling: ${samples.map((s) => s.drain.allowed).join(', ')} calls per drain: a pause after a full bucket`);
  const index = samples.length;
  const polled = yield* firstWindowAfterPause(lab, pause);
  if (polled.rate !== null) {
    for (const x of polled.drains) samples.push({ gapMs: 0, drain: x });
    return timed(p, samples, gapMs, index, polled.rate, pause);
  }
  const all = merged(polled.drains);
  if (all) samples.push({ gapMs: 0, drain: all });
  return null;
}

/** The sampling's reading when it ends without a pause timed at once: a window, a speed-up timed, or a steady refill. */
function ended(
  lab: Lab,
  p: SamplingPlan,
  samples: RefillSample[],
  gapMs: number,
  shape: Pick<SamplingReading, 'windowRef' | 'jump'>,
): SamplingReading {
  if (!shape.jump) lab.note(`refill sampling: ${samples.map((s) => s.drain.allowed).join(', ')} calls per drain`);
  return { from: p.from, samples, gapMs, firstWindow: null, refilledFromMs: p.refilledFromMs ?? null, ...shape };
}

/**
 * The sampling's first drain with calls back after empty ones, the drain it follows a full bucket, and the
 * empty ones longer than two of its calls (a token bucket refills within one call: its empty drains never are).
 */
function pauseEnd(samples: RefillSample[], p: SamplingPlan): PauseEnd | null {
  const back = samples[samples.length - 1]?.drain;
  const lastEmpty = samples[samples.length - 2]?.drain;
  if (!back || !lastEmpty || p.from.allowed < p.burst || samples.slice(0, -1).some((s) => s.drain.allowed > 0)) return null;
  return pauseOf(p.from, lastEmpty, back, p.burst, 2);
}

/**
 * After the reopening's pause, the sampling's first drain: timed from it when it got calls back before the
 * window after the full bucket can have ended. That window refills from the partial bucket's last call at
 * most the rest of a full bucket (the window at least the pause's span), and the polls from there cover its
 * end (a drain past it would leave that window short of a full bucket, the next one refilling slower).
 */
function stillAfter(pause: PauseEnd, d: Drain): PauseEnd | null {
  const { full, lastEmpty, back, burst } = pause;
  const windowAtLeastMs = lastEmpty.firstSentMs - full.firstMs;
  // Its refusal, sent after its first answer, found the window's count full: the rest came back no sooner.
  const endsAfterMs = back.firstMs + ((burst - back.allowed) * windowAtLeastMs) / burst;
  return d.allowed > 0 && (d.refusedMs as number) < endsAfterMs ? { ...pause, start: d } : null;
}

export function timed(
  p: Pick<SamplingPlan, 'from'>,
  samples: RefillSample[],
  gapMs: number,
  index: number,
  rate: number,
  pause: PauseEnd,
): SamplingReading {
  const pausedMs = pause.lastEmpty.firstMs - (pause.full.refusedMs as number);
  return {
    from: p.from,
    samples,
    windowRef: null,
    gapMs,
    firstWindow: { index, rate, restedBurst: pause.full.allowed, pausedMs },
    refilledFromMs: null,
    jump: null,
  };
}

/** A window: a full bucket drained, only empty drains, then a full bucket again. */
function findWindow(drains: Drain[], burst: number): WindowRef | null {
  const full = Math.max(2, Math.ceil(0.7 * burst));
  for (let i = 2; i < drains.length; i++) {
    if ((drains[i] as Drain).allowed < full || (drains[i - 1] as Drain).allowed !== 0) continue;
    let j = i - 1;
    while (j > 0 && (drains[j] as Drain).allowed === 0) j--;
    if ((drains[j] as Drain).allowed >= full || (j === 0 && (drains[0] as Drain).allowed >= 1))
      return { ref: drains[j] as Drain, before: drains[i - 1] as Drain, boundary: drains[i] as Drain };
  }
  return null;
}

/**
 * Enough refill seen to call it continuous and time it: from the first drain that got any (empty ones before it
 * are a pause), three drains or more, most of them not empty, holding 20 to 40 calls (a rate within a few %:
 * ±1 call each end), or 1.5 buckets for a small one.
 */
function steady(samples: RefillSample[], burst: number): boolean {
  const counts = samples.map((s) => s.drain.allowed);
  const from = counts.findIndex((c) => c > 0);
  if (from === -1) return false;
  const refilling = counts.slice(from);
  const total = refilling.reduce((a, c) => a + c, 0);
  return (
    refilling.length >= 3 && total >= Math.max(15, Math.min(burst / 4, 40)) && refilling.filter((c) => c > 0).length >= refilling.length / 2
  );
}

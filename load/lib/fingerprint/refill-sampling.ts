/**
 * Refill sampling: drains (calls until refused) spaced to measure the refill rather than the first
 * reopening. Zeros then a full bucket = a window; steady counts = a continuous refill.
 *
 * Plan: a partial reopening (a sliding log freeing the slots of a slow exhaustion one by one) first rests
 * until all of them are free and drains again, so the drains after it start from a clustered full bucket.
 * The gap is chosen so a continuous refill brings ~3 calls per drain and widens while drains come back
 * (nearly) empty; it stops once 20 to 40 calls came back (see `steady`), or at 20 drains.
 * A full bucket, empty drains longer than two calls of the refill, then calls back is a weighted sliding
 * counter's next aligned window, which refills at the true rate: it is timed there and then, polls keeping
 * the counter empty (first-window-after-pause.ts), and the sampling ends.
 * Reading: window-like (with the drains that show it: a full bucket, the last empty drain, the next full
 * bucket) or a continuous refill (its rate between empty buckets, and any pause before it started).
 */
import { Stop, drain, perSecond, type Lab, type Experiment } from './lab';
import { firstWindowAfterPause, type PauseEnd } from './first-window-after-pause';
import type { Drain } from './types';

export interface Sample {
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
}

export interface SamplingReading {
  from: Drain;
  samples: Sample[];
  windowRef: WindowRef | null;
  /** The gap the last drain used (a later sampling starts from it). */
  gapMs: number;
  /**
   * A full bucket, a pause, then calls back (a weighted sliding counter): the window after the full one timed
   * at once by the samples from `index` on, at `rate` (calls per ms, never faster than the truth); null: not so.
   */
  firstWindow: { index: number; rate: number; restedBurst: number; pausedMs: number } | null;
}

export interface ReopenedBucket {
  /** The drain the sampling follows. */
  drain: Drain;
  /** After a partial reopening: the drain after a rest (a full bucket), and when the rest began. */
  rested: { drain: Drain; fromMs: number } | null;
  gapMs: number;
  maxGapMs: number;
  /**
   * The exhaustion's full bucket, refused polls for longer than four calls of the refill that followed, then a
   * partial bucket: a weighted sliding counter's window after the full one (a token bucket's refill comes
   * within one call, within a few when its refused calls left a debt). Null: not so, or rested since.
   */
  pause: PauseEnd | null;
  /** A partial reopening after a pause, timed at once in the window after the full bucket (no sampling needed). */
  timed: SamplingReading | null;
}

/** From the reopening's drain: rests after a partial reopening, and plans the sampling's gaps. */
export function* settleReopening(lab: Lab, reopened: Drain, exhaust: Drain, burst: number): Experiment<ReopenedBucket> {
  // The drain the sampling follows, and how long its bucket took to come back after the previous refusal.
  let followed = reopened;
  let refillMs = followed.firstMs - (exhaust.refusedMs as number);
  let rested: ReopenedBucket['rested'] = null;
  const poll = lab.observations[lab.observations.length - followed.allowed - (followed.refusedMs === null ? 1 : 2)];
  const lastEmpty = poll && { firstMs: poll.tMs, firstSentMs: poll.sentMs, allowed: 0, refusedMs: poll.tMs, refusedFirst: true };
  // Timed from the reopening only when no rest follows it (below half a bucket: a rest leaves the pause behind;
  // a drain that did not empty is no pause's end either).
  const pause =
    lastEmpty && followed.allowed >= burst / 2 && followed.allowed < burst ? pauseOf(exhaust, lastEmpty, followed, burst, 4) : null;
  let restFromMs = followed.refusedMs;
  if (followed.allowed < burst / 2 && followed.refusedMs !== null) {
    // Few calls back after a long pause: a weighted sliding counter reopened early in the window after its full
    // one. Timed there at once; anything else (a sliding log's slow exhaustion, a bucket) rests as below.
    const counter = yield* partialReopeningPause(lab, exhaust, lastEmpty, followed, burst);
    if (counter) {
      lab.note(`partial reopening (${followed.allowed} calls) after a pause: timed in the window after the full bucket`);
      const afterPause = yield* firstWindowAfterPause(lab, counter);
      if (afterPause.rate !== null) return timedAtOnce(lab, followed, counter, afterPause.drains, afterPause.rate);
      restFromMs = lab.lastMs;
    }
    const spread = exhaust.refusedMs === null ? 0 : exhaust.refusedMs - exhaust.firstMs;
    lab.note(`partial reopening (${followed.allowed} calls): resting ${Math.round(refillMs + 2 * spread)} ms for a full bucket`);
    const again = yield* drain(lab, (restFromMs as number) + refillMs + 2 * spread, 'reopening', lab.drainCap());
    rested = { drain: again, fromMs: restFromMs as number };
    refillMs = again.firstMs - (restFromMs as number);
    followed = again;
  }
  const reopenedRate = followed.allowed / Math.max(refillMs, 1);
  // `refillMs` may overstate the refill time by the hint's rounding (up to 1 s): start short, widen while drains come back empty.
  const gapMs = Math.max(lab.fineMs, Math.min(3 / reopenedRate, refillMs / 8));
  const maxGapMs = Math.max(gapMs, Math.max(refillMs, burst / reopenedRate) / 2);
  lab.note(`reopening drain: ${followed.allowed} calls; sampling every ${Math.round(gapMs)} ms`);
  if (followed.refusedMs === null) throw new Stop(`the bucket did not empty after ${followed.allowed} calls on reopening`);
  return { drain: followed, rested, gapMs, maxGapMs, pause, timed: null };
}

/**
 * A partial reopening after a pause: a weighted sliding counter's pause end when the exhaustion was quick and
 * the reopening refused polls first (one drain more then tells); else null.
 */
function* partialReopeningPause(
  lab: Lab,
  exhaust: Drain,
  lastEmpty: Drain | undefined,
  reopened: Drain,
  burst: number,
): Experiment<PauseEnd | null> {
  // The reopening's refused polls: the calls between the exhaustion's refusal and the reopening's first.
  const refusedPolls = lab.observations.filter((o) => o.tMs > (exhaust.refusedMs as number) && o.tMs < reopened.firstMs).length;
  // A slow exhaustion (a busy machine) leaves a sliding log's calls one by one: a drain among them would take
  // them back into the log. Only a quick one next to the pause is a counter's to time.
  const spreadMs = (exhaust.refusedMs as number) - exhaust.firstSentMs;
  const quick = lastEmpty !== undefined && 4 * spreadMs < lastEmpty.firstSentMs - (exhaust.refusedMs as number);
  if (!lastEmpty || refusedPolls < 1 || !quick) return null;
  return partialPause(exhaust, lastEmpty, refusedPolls, yield* oneMore(lab, exhaust, lastEmpty, reopened), burst);
}

/** A partial reopening timed at once in the window after the full bucket: the sampling is done. */
function timedAtOnce(lab: Lab, reopened: Drain, counter: PauseEnd, drains: Drain[], rate: number): ReopenedBucket {
  const samples = drains.map((x) => ({ gapMs: 0, drain: x }));
  return {
    drain: reopened,
    rested: null,
    gapMs: lab.fineMs,
    maxGapMs: lab.fineMs,
    pause: counter,
    timed: timed({ from: counter.back }, samples, lab.fineMs, 0, rate, counter),
  };
}

/**
 * After a partial reopening: one drain more, as long after it as the reopening's last poll gap (at most half of
 * what the pause proves a window holds, so inside the window the reopening found), read with the reopening as
 * one drain from its first call; its own calls timed from the reopening's refusal sent (a bucket's rate no
 * slower than one call less over that span).
 */
function* oneMore(lab: Lab, full: Drain, lastEmpty: Drain, back: Drain): Experiment<{ merged: Drain; calls: number; spanMs: number }> {
  const fromSentMs = lab.observations[lab.observations.length - 1]?.sentMs ?? (back.refusedMs as number);
  const waitMs = Math.min((back.refusedMs as number) - lastEmpty.firstSentMs, (lastEmpty.firstSentMs - full.firstMs) / 2);
  const more = yield* drain(lab, (back.refusedMs as number) + Math.max(lab.fineMs, waitMs), 'reopening', lab.drainCap());
  if (more.refusedMs === null) return { merged: back, calls: 0, spanMs: 0 };
  return { merged: merged([back, more]) as Drain, calls: more.allowed, spanMs: more.refusedMs - fromSentMs };
}

/**
 * A full bucket, then no call back for longer than two calls of the refill that followed, and one more for each
 * of the k refused polls in the pause (where refused calls count, each pushes a bucket's refill one call later).
 * Timed never longer than it can have been: the pause from the full bucket's refusal answered to the last empty
 * poll sent; a call of the refill either all n calls back since that poll was sent over their span (n at least
 * 4 + 2k), or the drain after the reopening (one call less than it got over its span, three calls or more).
 * A token bucket cannot show it: its pause is under k + 1 calls, and its n calls back (less its debt) took at
 * least n - 1 of them from when it emptied. (A sliding log's slow exhaustion can: its calls come back in clumps,
 * which the timing refuses.)
 */
function partialPause(
  full: Drain,
  lastEmpty: Drain,
  refusedPolls: number,
  more: { merged: Drain; calls: number; spanMs: number },
  burst: number,
): PauseEnd | null {
  const back = more.merged;
  if (full.refusedMs === null || back.allowed < 3 || back.refusedMs === null || full.allowed < burst) return null;
  const pausedMs = lastEmpty.firstSentMs - full.refusedMs;
  const perCallMs = Math.min(
    back.allowed >= 4 + 2 * refusedPolls ? (back.refusedMs - lastEmpty.firstSentMs) / back.allowed : Infinity,
    more.calls >= 3 ? more.spanMs / (more.calls - 1) : Infinity,
  );
  return pausedMs > (2 + refusedPolls) * perCallMs ? { full, lastEmpty, back, burst } : null;
}

/**
 * The last empty drain, when drain `d` got one call back after a full bucket and only empty drains (the first
 * call of an aligned window's, or of a bucket's refill); undefined otherwise.
 */
function emptyBeforeOneCall(d: Drain, samples: Sample[], p: SamplingPlan): Drain | undefined {
  const lastEmpty = samples[samples.length - 1]?.drain;
  const oneAfterEmpty = d.allowed === 1 && p.from.allowed >= p.burst && samples.every((s) => s.drain.allowed === 0);
  return oneAfterEmpty ? lastEmpty : undefined;
}

/** The pause after a full bucket that the samples show, `d` the last: after the reopening's pause, else one of their own. */
function pauseSoFar(samples: Sample[], p: SamplingPlan, d: Drain): PauseEnd | null {
  return samples.length === 1 && p.pause ? stillAfter(p.pause, d) : pauseEnd(samples, p);
}

export function* sampleRefill(lab: Lab, p: SamplingPlan): Experiment<SamplingReading> {
  const samples: Sample[] = [];
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
    // Too little refill per drain to measure: widen the gap (a window keeps showing empty drains).
    if (d.allowed <= 1) gap = Math.min(gap * 1.6, p.maxGapMs);
    const windowRef = p.windowAllowed ? findWindow([p.from, ...samples.map((s) => s.drain)], p.burst) : null;
    const pause = windowRef ? null : (counter ?? pauseSoFar(samples, p, d));
    if (pause) {
      lab.note(`refill sampling: ${samples.map((s) => s.drain.allowed).join(', ')} calls per drain: a pause after a full bucket`);
      const index = samples.length;
      const afterPause = yield* firstWindowAfterPause(lab, pause);
      if (afterPause.rate !== null) {
        for (const x of afterPause.drains) samples.push({ gapMs: 0, drain: x });
        return timed(p, samples, gap, index, afterPause.rate, pause);
      }
      // Not timed there: its polls drained the refill all the same, and count in it as one drain.
      const all = merged(afterPause.drains);
      if (all) samples.push({ gapMs: 0, drain: all });
    }
    if (windowRef || steady(samples, p.burst) || samples.length >= 20) {
      lab.note(`refill sampling: ${samples.map((s) => s.drain.allowed).join(', ')} calls per drain`);
      return { from: p.from, samples, windowRef, gapMs: gap, firstWindow: null };
    }
    from = (samples[samples.length - 1] as Sample).drain.refusedMs ?? lab.lastMs;
  }
}

/** Drains one after another read as one: from the first's first call to the last's refusal, their calls summed. */
function merged(drains: Drain[]): Drain | null {
  const first = drains[0];
  const last = drains[drains.length - 1];
  if (!first || !last) return null;
  return { ...first, allowed: drains.reduce((a, d) => a + d.allowed, 0), refusedMs: last.refusedMs };
}

/**
 * The sampling's first drain with calls back after empty ones, the drain it follows a full bucket, and the
 * empty ones longer than two of its calls (a token bucket refills within one call: its empty drains never are).
 */
function pauseEnd(samples: Sample[], p: SamplingPlan): PauseEnd | null {
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

/** A full bucket, an empty drain, then one with calls back, the pause longer than `calls` calls of its refill. */
function pauseOf(full: Drain, lastEmpty: Drain, back: Drain, burst: number, calls: number): PauseEnd | null {
  if (full.refusedMs === null || back.allowed < 2 || back.refusedMs === null) return null;
  const pausedMs = lastEmpty.firstMs - full.refusedMs;
  const perCallMs = (back.refusedMs - (lastEmpty.refusedMs as number)) / back.allowed;
  return pausedMs > calls * perCallMs ? { full, lastEmpty, back, burst } : null;
}

function timed(
  p: Pick<SamplingPlan, 'from'>,
  samples: Sample[],
  gapMs: number,
  index: number,
  rate: number,
  pause: PauseEnd,
): SamplingReading {
  const pausedMs = pause.lastEmpty.firstMs - (pause.full.refusedMs as number);
  return { from: p.from, samples, windowRef: null, gapMs, firstWindow: { index, rate, restedBurst: pause.full.allowed, pausedMs } };
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
function steady(samples: Sample[], burst: number): boolean {
  const counts = samples.map((s) => s.drain.allowed);
  const from = counts.findIndex((c) => c > 0);
  if (from === -1) return false;
  const refilling = counts.slice(from);
  const total = refilling.reduce((a, c) => a + c, 0);
  return (
    refilling.length >= 3 &&
    total >= Math.max(15, Math.min(1.5 * burst, 40)) &&
    refilling.filter((c) => c > 0).length >= refilling.length / 2
  );
}

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

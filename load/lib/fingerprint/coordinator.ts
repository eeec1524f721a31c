/**
 * The coordinator: runs the experiments in order, each answering one question, and skips those an earlier
 * one already answered. Their readings go into one record the result is read from (readings.ts).
 *
 * exhaustion → reopening → refill sampling → window refine (a window) or burst volley (a continuous refill)
 * → split → refused calls, or first-window rate (a continuous refill the split or a pause says is a
 * weighted sliding counter; not needed when the sampling timed the window after a pause that followed a full
 * bucket; with no volley or split when the rest after a partial reopening, or the later drains, refilled
 * well faster than the drains before them, which a refill of one rate never does: the drains kept on time the
 * window after the step, no rest needed). A split that gets some calls back but fewer than a window
 * gives sends a window-like sampling back to refill sampling once, as a continuous refill.
 */
import { Stop, drain, margin, type Bench, type Experiment } from './bench';
import type { Drain } from './types';
import { burstVolley, refillCorrectedBurst } from './burst-volley';
import { exhaustion, type ExhaustionReading } from './exhaustion';
import { firstWindowRate } from './first-window-rate';
import { refillRate, sampleRefill, settleReopening, type RefillRate, type SamplingReading } from './refill-sampling';
import { refusedCalls } from './refused-call';
import { resetMovesOf, type Readings } from './readings';
import { reopening } from './reopening';
import { split, splitSaysSliding, type SplitPlan, type SplitReading } from './split';
import { refineWindow, samplingBracket } from './window-refine';

/** `startAt`: when the exhaustion may start (a measurement taken again starts after a rest). */
export function* coordinate(b: Bench, r: Readings, startAt = 0): Experiment<void> {
  const ex = yield* exhaustion(b, startAt);
  r.exhaustion = ex;
  const ro = yield* reopening(b, ex.refusal, ex.burst, resetMovesOf(r, b.observations) === true);
  r.movedHint = ro.movedHint;
  if (!ro.drain) throw new Stop(ro.verdict as string);
  const settled = yield* settleReopening(b, ro.drain, ex.drain, ex.burst);
  r.rested = settled.rested;
  const plan = { burst: ex.burst, maxGapMs: settled.maxGapMs };
  let sampling = yield* sampleRefill(b, {
    ...plan,
    from: settled.drain,
    gapMs: settled.gapMs,
    windowAllowed: true,
    pause: settled.pause,
  });
  let windowPauseMs: number | null = null;
  for (;;) {
    r.windowLike = sampling.windowRef !== null;
    let s: SplitReading | null;
    let periodMs: number;
    if (sampling.windowRef) {
      const { lo, hi } = samplingBracket(b, sampling.windowRef);
      const { ref, before, boundary } = sampling.windowRef;
      r.samplingBracket = { lo: before.firstSentMs - ref.firstMs, hi: boundary.firstMs - ref.firstSentMs };
      r.window = { windowMs: hi, precise: false, errorMs: (hi - lo) / 2 };
      if (r.movedHint)
        throw new Stop(
          `refused calls count (the advertised reopening moved after refused calls): stopped before the window refine and split tests, which need refused calls; window ${lo}..${hi} ms`,
        );
      const w = yield* refineWindow(b, sampling.windowRef, ex.burst);
      r.window = w;
      periodMs = w.splitStart.periodMs;
      s = yield* steadySplit(b, r, {
        start: w.splitStart,
        periodMs,
        burst: ex.burst,
        marginMs: margin(b, periodMs, true, ex.burst),
        window: true,
      });
    } else {
      const rate = refillRate(b, sampling, windowPauseMs);
      if (!rate) return;
      r.rate = rate.rate;
      r.drainsRate = rate.rate;
      r.rateSpan = rate.span;
      r.pausedMs = rate.pausedMs;
      const corrected = refillCorrectedBurst(b, ex.drain, rate.rate, ex.firstHints, r.rested);
      r.burstRefilled = corrected;
      if (corrected !== ex.burst) b.note(`a full bucket holds ${corrected} calls: the exhaustion's ${ex.burst} include its refill`);
      const restMs = (fullMs: number): number => fullMs * 1.1 + margin(b, fullMs, false, ex.burst);
      const last = sampling.samples[sampling.samples.length - 1]?.drain.refusedMs as number;
      const faster = r.pausedMs === null ? fasterPart(b, r.rested, sampling, rate) : null;
      if (faster) {
        // A token bucket refills at one rate; a weighted sliding counter at the previous aligned window's count
        // per window, low while that window held only part of a bucket (the partial reopening's).
        b.note(`${faster.what}: a sliding counter refills by the phase of its aligned windows`);
        r.fasterRate = faster.rate;
        // Those drains too ran between empty buckets: the faster is what the drains got through.
        r.drainsRate = faster.rate;
        const timed = yield* drainsAfterStep(b, sampling, ex.burst, faster.rate);
        // Not timed by the drains: after a rest from the last of them.
        if (timed === null) return yield* counterRate(b, r, ex, b.lastMs, ex.burst / faster.rate);
        r.firstWindowRate = timed;
        if (timed > r.rate) r.rate = timed;
        return;
      }
      if (r.pausedMs !== null) {
        // A refill that waits for an aligned window is a weighted sliding counter: its rate is read in its first window.
        b.note('burst volley and split: not needed (the refill waited for an aligned window: a sliding counter)');
        const fw = sampling.firstWindow;
        if (!fw) return yield* counterRate(b, r, ex, last, ex.burst / rate.rate);
        // The sampling timed the window after the full bucket: a first window already, with no rest. Its
        // drains' count over their span may be one call fast: the timing never is.
        r.firstWindowRate = fw.rate;
        r.restedBurst = fw.restedBurst;
        r.rate = fw.rate;
        return;
      }
      const lastAllowedMs = b.observations[Math.max(0, ex.drain.allowed - 1)]?.tMs ?? ex.drain.firstMs;
      const refilled = rate.rate * (lastAllowedMs - ex.drain.firstMs);
      if (refilled < 0.5) {
        b.note(
          `burst volley: not needed (${Math.round(lastAllowedMs - ex.drain.firstMs)} ms of exhaustion refilled ${refilled.toFixed(2)} calls)`,
        );
      } else {
        r.burstRefilled = yield* burstVolley(b, last, rate.rate, ex.burst, corrected, restMs, ex.firstHints?.limit ?? null);
        r.burstFromExhaustion = corrected;
      }
      periodMs = r.burstRefilled / rate.rate;
      const start = { restAt: b.lastMs + restMs(periodMs) };
      s = yield* steadySplit(b, r, {
        start,
        periodMs,
        burst: r.burstRefilled,
        marginMs: margin(b, periodMs, false, ex.burst),
        window: false,
      });
    }
    if (!s) return;
    r.split = s;
    if (s.drain.refusedMs === null) return r.windowLike ? notCountedInWindow(b, r) : undefined;
    const d = s.drain;
    if (r.windowLike && d.allowed > 0 && d.allowed < s.h1 - 1 && windowPauseMs === null) {
      // Some calls back, but fewer than a window gives: a continuous refill whose sampling looked like a window
      // (a sliding counter drained late in its aligned window looks full). Measured again as one; a limiter
      // whose refused calls count gives nothing back at all.
      const { ref, before } = sampling.windowRef as NonNullable<typeof sampling.windowRef>;
      windowPauseMs = before.firstMs - (ref.refusedMs ?? ref.firstMs);
      b.note(`split: ${d.allowed} calls back where a window gives ${s.h1}: sampled again as a continuous refill`);
      r.window = null;
      r.split = null;
      r.windowLike = null;
      r.samplingBracket = null;
      sampling = yield* sampleRefill(b, { ...plan, from: d, gapMs: sampling.gapMs, windowAllowed: false });
      continue;
    }
    if (r.windowLike && d.allowed < s.h1 - 1)
      throw new Stop(
        `split: ${d.allowed} calls allowed one window after the start although ${s.h1} calls had left any window by then: the window model does not hold; refused calls appear to count`,
      );
    if (!r.windowLike && (d.allowed < s.burst - 1 || r.pausedMs !== null)) {
      // A weighted sliding counter: its refill depends on where the calls fall in its aligned windows, so two
      // cycles are not comparable. Without a pause in the sampling (a stall hid it, or the bucket emptied just
      // before an aligned boundary) the split alone does not name it: the first window tells.
      b.note('refused calls: not tested (a sliding counter refills by the phase of its aligned windows)');
      return yield* counterRate(b, r, ex, d.refusedMs as number, periodMs);
    }
    if (r.windowLike && splitSaysSliding(s) && d.allowed !== s.h1) {
      // A sliding log gives back exactly the calls that left its window; a sliding counter read as a window
      // gives back by the phase of its aligned windows, so two cycles are not comparable.
      b.note(
        `refused calls: not tested (the split gave ${d.allowed} back where a sliding log gives ${s.h1}: a sliding counter refills by the phase of its aligned windows)`,
      );
      return;
    }
    if (r.windowLike) return notCountedInWindow(b, r);
    const refusedPlan = { emptyAtMs: d.refusedMs as number, rate: r.rate as number, burst: s.burst };
    r.refused = yield* refusedCalls(b, refusedPlan);
    if (r.refused && r.refused.stalledMs !== null) {
      b.note('refused calls: measured again');
      const first = r.refused.stalledMs;
      r.refused = yield* refusedCalls(b, { ...refusedPlan, emptyAtMs: b.lastMs });
      if (r.refused && r.refused.stalledMs !== null) {
        r.stalls.push(`the refused-call test stalled twice (calls held up ${Math.round(first)} and ${Math.round(r.refused.stalledMs)} ms)`);
        r.refused = null;
      }
    }
    return;
  }
}

/** A part of the refill faster than another by this factor: not one rate. */
const RATE_STEP = 1.3;
/** Calls each part must hold (±1 call each end: within 20 %). */
const STEP_CALLS = 10;

/**
 * A part of a continuous refill well faster than another (a token bucket refills at one rate): the rest after a
 * partial reopening against the drains after it, or the sampling's later drains against its earlier ones. The
 * faster part's rate is one call less over its span, never faster than the truth; the slower part's counts
 * each drain's closing refusal as a call too (refused calls that count refill it). Null: one rate, or a call
 * was held up (its answer moves the end of a part).
 */
function fasterPart(
  b: Bench,
  rested: Readings['rested'],
  sampling: SamplingReading,
  rate: RefillRate,
): { rate: number; what: string } | null {
  const { allowed, refusals, elapsedMs } = rate.span;
  const drainsAtMost = (allowed + refusals) / elapsedMs;
  const restRate = rested?.drain.refusedMs != null ? (rested.drain.allowed - 1) / (rested.drain.refusedMs - rested.emptySentMs) : 0;
  if (rested && rested.drain.allowed > STEP_CALLS && allowed + refusals >= STEP_CALLS && restRate > RATE_STEP * drainsAtMost)
    return {
      rate: restRate,
      what: `the rest refilled at least ${perSecond(restRate)}, the drains after it ${perSecond(drainsAtMost)} at most`,
    };
  const drains = refilling(sampling);
  if (!drains || b.worstDelaySince(drains.from(b)) > STALLED_GAPS * b.fineMs) return null;
  const step = stepOf(drains.drains, drains.startMs);
  return step && { rate: step.rate, what: step.what };
}

/** The sampling's drains from the first with calls back, and the refusal before them. */
function refilling(s: SamplingReading): { drains: Drain[]; startMs: number; from: (b: Bench) => number } | null {
  const lead = s.samples.findIndex((x) => x.drain.allowed > 0);
  if (lead === -1) return null;
  const startMs = (lead > 0 ? s.samples[lead - 1]?.drain.refusedMs : s.from.refusedMs) as number;
  return {
    drains: s.samples.slice(lead).map((x) => x.drain),
    startMs,
    from: (b) =>
      Math.max(
        0,
        b.observations.findIndex((o) => o.sentMs >= startMs),
      ),
  };
}

interface Step {
  /** Calls per ms the later drains refilled at least. */
  rate: number;
  /** How many calls they got. */
  calls: number;
  what: string;
}

/** Later drains (from an empty bucket to an empty bucket) well faster than the earlier ones; the fastest such. */
function stepOf(drains: Drain[], startMs: number): Step | null {
  const endMs = drains[drains.length - 1]?.refusedMs as number;
  let best: Step | null = null;
  for (let i = 1; i < drains.length - 1; i++) {
    const early = drains.slice(0, i);
    const splitMs = early[early.length - 1]?.refusedMs as number;
    const earlyCalls = early.reduce((a, d) => a + d.allowed + 1, 0);
    const calls = drains.slice(i).reduce((a, d) => a + d.allowed, 0);
    if (earlyCalls < STEP_CALLS || calls < STEP_CALLS) continue;
    const earlyAtMost = earlyCalls / (splitMs - startMs);
    const rate = (calls - 1) / (endMs - splitMs);
    if (rate > RATE_STEP * earlyAtMost && (!best || rate > best.rate))
      best = {
        rate,
        calls,
        what: `the last ${drains.length - i} drains refilled at least ${perSecond(rate)}, the ${i} before them ${perSecond(earlyAtMost)} at most`,
      };
  }
  return best;
}

const perSecond = (x: number): string => `${(x * 1000).toFixed(2)}/s`;

/**
 * A weighted counter drained steadily refills from the window after its first full one at about the true rate
 * (the calls that came back after the last drain before that window's boundary short of it): the drains go on
 * until a step up holds most of a bucket, its rate then the first window's, never faster than the truth. Null:
 * no such step within a window and a half, or a call was held up.
 */
function* drainsAfterStep(b: Bench, s: SamplingReading, burst: number, atLeast: number): Experiment<number | null> {
  const r = refilling(s);
  if (!r) return null;
  const { drains, startMs } = r;
  const deadline = b.lastMs + (1.5 * burst) / atLeast;
  // Drains a fortieth of a window apart: one past the window's end leaves the next one short by that little.
  const gapMs = Math.max(b.fineMs, Math.min(s.gapMs, burst / atLeast / 40));
  let step = stepOf(drains, startMs);
  while (!(step && step.calls >= STEP_SHARE * burst) && b.lastMs + gapMs <= deadline && drains.length < MAX_DRAINS) {
    const d = yield* drain(b, b.lastMs + gapMs, 'first window', b.drainCap());
    if (d.refusedMs === null) return null;
    drains.push(d);
    step = stepOf(drains, startMs);
  }
  if (!step || step.calls < STEP_SHARE * burst || b.worstDelaySince(r.from(b)) > STALLED_GAPS * b.fineMs) {
    b.note(`first window from the drains: no step up to most of a bucket; timed after a rest`);
    return null;
  }
  b.note(`first window from the drains: ${step.what} (the window after a full one: no rest needed)`);
  return step.rate;
}

/** The share of a bucket the step up must hold (one call less over it: within 2 % at 60 calls a bucket). */
const STEP_SHARE = 0.8;
/** Most drains the first window from the drains may take. */
const MAX_DRAINS = 200;

/** A call held up longer than this many fine gaps: the drains' ends may have moved. */
const STALLED_GAPS = 4;

/** A weighted sliding counter: its rate in the first window after a full one, once more when that stalled. */
function* counterRate(b: Bench, r: Readings, ex: ExhaustionReading, emptyAtMs: number, periodMs: number): Experiment<void> {
  const plan = {
    emptyAtMs,
    periodMs,
    burstObserved: ex.burst,
    advertisedLimit: ex.firstHints?.limit ?? null,
    drainsRate: r.rate,
    pauseKnown: r.pausedMs !== null,
  };
  let fw = yield* firstWindowRate(b, plan);
  if (fw.stalled) {
    b.note('first window: measured again');
    const again = yield* firstWindowRate(b, { ...plan, emptyAtMs: b.lastMs, pauseKnown: plan.pauseKnown || fw.pausedMs !== null });
    if (again.stalled) {
      r.stalls.push('the first-window rate stalled twice');
      // Both are timed never faster than the truth: the higher is the nearer.
      if ((fw.rate ?? 0) > (again.rate ?? 0)) again.rate = fw.rate;
    }
    fw = { ...again, pausedMs: again.pausedMs ?? fw.pausedMs };
  }
  if (fw.restedBurst !== null) r.restedBurst = fw.restedBurst;
  r.firstWindowRate = fw.rate;
  if (fw.pausedMs !== null) r.pausedMs = fw.pausedMs;
  // Never below what the drains already got through.
  if (fw.rate !== null && (r.rate === null || fw.rate > r.rate)) r.rate = fw.rate;
}

/** A window: the sampling's empty drains were refused calls inside it, and the full bucket came back on time. */
function notCountedInWindow(b: Bench, r: Readings): void {
  b.note('refused calls: not counted (the refill sampling was refused inside the window, and the next full bucket came on time)');
  r.refusedCount = false;
}

/** The split, once more from a rested bucket when a held-up call moved what it found. */
function* steadySplit(b: Bench, r: Readings, p: SplitPlan): Experiment<SplitReading | null> {
  const first = yield* split(b, p);
  if (first === null || first.stalledMs === null) return first;
  b.note('split: measured again after a rest');
  const again = yield* split(b, { ...p, start: { restAt: b.lastMs + 2.1 * p.periodMs } });
  if (again !== null && again.stalledMs !== null)
    r.stalls.push(`the split stalled twice (calls held up ${Math.round(first.stalledMs)} and ${Math.round(again.stalledMs)} ms)`);
  return again;
}

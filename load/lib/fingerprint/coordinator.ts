/**
 * The coordinator: runs the experiments in order, each answering one question, and skips those an earlier
 * one already answered. Their readings go into one record the result is read from (readings.ts).
 *
 * Phases: exhaustion → reopen (reopening, a rest after a partial one) → refill sampling, then by the refill's
 * shape:
 * - a window (`windowRefill`): window refine → split → whether refused calls count, read from the sampling;
 * - a continuous refill (`continuousRefill`): its rate → its bucket (`countBucket`: burst volley) → split →
 *   refused-call test, or first-window rate (`counterRate`) for a weighted sliding counter, which the split or
 *   a pause shows (not needed when the sampling timed the window after a pause that followed a full bucket).
 * A window's split that gets some calls back but fewer than a window gives sends it back to refill sampling
 * once, as a continuous refill.
 */
import { Stop, allowedOf, margin, type Lab, type Experiment } from './lab';
import { burstVolley, refillCorrectedBurst } from './experiments/burst-volley';
import { exhaustion, type ExhaustionReading } from './experiments/exhaustion';
import { firstWindowRate } from './experiments/first-window-rate';
import { refillRate } from './experiments/refill-rate';
import { sampleRefill, type SamplingReading, type WindowRef } from './experiments/refill-sampling';
import { settleReopening, type ReopenedBucket } from './experiments/reopening-settle';
import { controlCycle, cycleWaitMs, refusedCalls, type RefusedCallPlan } from './experiments/refused-call';
import { resetMovesOf, type Readings } from './readings';
import { reopening, type ReopeningReading } from './experiments/reopening';
import { splitAtReopening, type EarlyReopening } from './experiments/split-at-reopening';
import { pauseOf } from './experiments/pause-ends';
import { split, splitSaysSliding, type SplitPlan, type SplitReading } from './experiments/split';
import type { Drain } from './types';
import { refineWindow, samplingBracket } from './experiments/window-refine';

/** `startAt`: when the exhaustion may start (a measurement taken again starts after a rest). */
export function* coordinate(lab: Lab, readings: Readings, startAt = 0): Experiment<void> {
  const exhausted = yield* exhaustion(lab, startAt);
  readings.exhaustion = exhausted;
  const reopened = yield* reopenOnce(lab, readings, exhausted);
  if (reopened.full) return yield* windowAtReopening(lab, readings, exhausted, reopened.full);
  const settled = yield* settle(lab, readings, exhausted, reopened.drain as Drain);
  const plan = { burst: exhausted.burst, maxGapMs: settled.maxGapMs };
  let sampling =
    settled.timed ??
    (yield* sampleRefill(lab, {
      ...plan,
      from: settled.drain,
      gapMs: settled.gapMs,
      windowAllowed: true,
      pause: settled.pause,
    }));
  let windowPauseMs: number | null = null;
  if (sampling.windowRef) {
    const windowRef = sampling.windowRef;
    const fewBack = yield* windowRefill(lab, readings, exhausted, windowRef);
    if (fewBack === null) return;
    // Some calls back, but fewer than a window gives: a continuous refill whose sampling looked like a window
    // (a sliding counter drained late in its aligned window looks full). Measured again as one; a limiter
    // whose refused calls count gives nothing back at all.
    windowPauseMs = windowRef.before.firstMs - (windowRef.ref.refusedMs ?? windowRef.ref.firstMs);
    readings.window = null;
    readings.split = null;
    readings.refillShape = null;
    readings.samplingBracket = null;
    sampling = yield* sampleRefill(lab, { ...plan, from: fewBack, gapMs: sampling.gapMs, windowAllowed: false });
  }
  yield* continuousRefill(lab, readings, exhausted, sampling, windowPauseMs);
}

/** The reopening: its drain, or the full bucket it did not drain. */
function* reopenOnce(lab: Lab, readings: Readings, exhausted: ExhaustionReading): Experiment<ReopeningReading> {
  const refillMoves = resetMovesOf(readings, lab.observations) === true;
  const spreadMs = (exhausted.drain.refusedMs ?? exhausted.drain.firstMs) - exhausted.drain.firstSentMs;
  const reopened = yield* reopening(lab, exhausted.refusal, exhausted.burst, refillMoves, { spreadMs });
  readings.reopeningMoved = reopened.reopeningMoved;
  if (!reopened.drain && !reopened.full) throw new Stop(reopened.verdict as string);
  return reopened;
}

/** A rest after a partial reopening: the drain the sampling follows and its gaps. */
function* settle(lab: Lab, readings: Readings, exhausted: ExhaustionReading, reopened: Drain): Experiment<ReopenedBucket> {
  const settled = yield* settleReopening(lab, reopened, exhausted.drain, exhausted.burst);
  readings.restedDrain = settled.rested;
  return settled;
}

/**
 * A full bucket back at once at the advertised reset: a window, split from there (split-at-reopening.ts), once
 * more after a rest the ordinary way when a held-up call moved what it found. Calls back before the next
 * advertised reset's last second are a continuous refill after a pause (a weighted counter): sampled as one.
 */
function* windowAtReopening(
  lab: Lab,
  readings: Readings,
  exhausted: ExhaustionReading,
  start: NonNullable<ReopeningReading['full']>,
): Experiment<void> {
  if (readings.reopeningMoved) throw new Stop('refused calls count (the advertised reopening moved after refused calls)');
  const burst = exhausted.burst;
  const r = yield* splitAtReopening(lab, start.allowed, burst, start.settleMs);
  if (r.kind === 'early') return yield* sampledAfterPause(lab, readings, exhausted, r);
  readings.refillShape = 'window';
  readings.samplingBracket = r.bracket;
  readings.window = r.window;
  let splitReading: SplitReading | null = r.split;
  if (r.split.stalledMs !== null) {
    lab.note('split: measured again after a rest');
    const periodMs = r.bracket.hi;
    splitReading = yield* split(lab, {
      start: { restAt: lab.lastMs + 2.1 * periodMs },
      periodMs,
      burst,
      marginMs: margin(lab, periodMs, true, burst),
      window: true,
    });
    if (splitReading?.stalledMs !== null && splitReading?.stalledMs !== undefined)
      readings.stalls.push(
        `the split stalled twice (calls held up ${Math.round(r.split.stalledMs)} and ${Math.round(splitReading.stalledMs)} ms)`,
      );
  }
  if (!splitReading) return;
  const fewBack = afterWindowSplit(lab, readings, splitReading);
  if (fewBack === null) return;
  readings.window = null;
  readings.split = null;
  readings.refillShape = null;
  readings.samplingBracket = null;
  const gapMs = Math.max(lab.fineMs, r.window.windowMs / 20);
  const sampling = yield* sampleRefill(lab, { burst, maxGapMs: r.window.windowMs / 2, from: fewBack, gapMs, windowAllowed: false });
  yield* continuousRefill(lab, readings, exhausted, sampling, r.window.windowMs / 2);
}

/** Calls back early after the split's full bucket: a pause, then the refill sampled (and timed at once when it can be). */
function* sampledAfterPause(lab: Lab, readings: Readings, exhausted: ExhaustionReading, r: EarlyReopening): Experiment<void> {
  const burst = exhausted.burst;
  const pausedMs = r.lastEmpty.firstMs - (r.full.refusedMs as number);
  const pause = pauseOf(r.full, r.lastEmpty, r.back, burst, 2);
  const refillMs = Math.max(lab.fineMs, r.back.firstMs - (r.full.refusedMs as number));
  const gapMs = Math.max(lab.fineMs, Math.min((3 * refillMs) / burst, refillMs / 8));
  if (r.back.refusedMs === null) throw new Stop(`the bucket did not empty after ${r.back.allowed} calls on reopening`);
  const sampling = yield* sampleRefill(lab, { burst, maxGapMs: refillMs / 2, from: r.back, gapMs, windowAllowed: false, pause });
  yield* continuousRefill(lab, readings, exhausted, sampling, pausedMs);
}

/**
 * A window: refine its length, split it, and read whether refused calls count. Returns the split's final drain
 * when it got some calls back but fewer than a window gives (to be sampled again as a continuous refill); else null.
 */
function* windowRefill(lab: Lab, readings: Readings, exhausted: ExhaustionReading, windowRef: WindowRef): Experiment<Drain | null> {
  readings.refillShape = 'window';
  const { lo, hi } = samplingBracket(lab, windowRef);
  const { ref, before, boundary } = windowRef;
  readings.samplingBracket = { lo: before.firstSentMs - ref.firstMs, hi: boundary.firstMs - ref.firstSentMs };
  readings.window = { windowMs: hi, precise: false, errorMs: (hi - lo) / 2 };
  if (readings.reopeningMoved)
    throw new Stop(
      `refused calls count (the advertised reopening moved after refused calls): stopped before the window refine and split tests, which need refused calls; window ${lo}..${hi} ms`,
    );
  const refined = yield* refineWindow(lab, windowRef, exhausted.burst);
  readings.window = refined;
  const periodMs = refined.splitStart.periodMs;
  const splitReading = yield* steadySplit(lab, readings, {
    start: refined.splitStart,
    periodMs,
    burst: exhausted.burst,
    marginMs: margin(lab, periodMs, true, exhausted.burst),
    window: true,
  });
  if (!splitReading) return null;
  return afterWindowSplit(lab, readings, splitReading);
}

/**
 * What a window's split says of refused calls, and whether it got some calls back but fewer than a window gives:
 * that drain, to be sampled again as a continuous refill; else null.
 */
function afterWindowSplit(lab: Lab, readings: Readings, splitReading: SplitReading): Drain | null {
  readings.split = splitReading;
  const finalDrain = splitReading.drain;
  if (finalDrain.refusedMs === null) {
    notCountedInWindow(lab, readings);
    return null;
  }
  const { firstHalf } = splitReading;
  if (finalDrain.allowed > 0 && finalDrain.allowed < firstHalf - 1) {
    lab.note(`split: ${finalDrain.allowed} calls back where a window gives ${firstHalf}: sampled again as a continuous refill`);
    return finalDrain;
  }
  if (finalDrain.allowed < firstHalf - 1)
    throw new Stop(
      `split: ${finalDrain.allowed} calls allowed one window after the start although ${firstHalf} calls had left any window by then: the window model does not hold; refused calls appear to count`,
    );
  if (splitSaysSliding(splitReading) && finalDrain.allowed !== firstHalf) {
    // A sliding log gives back exactly the calls that left its window; a sliding counter read as a window
    // gives back by the phase of its aligned windows, so two cycles are not comparable.
    lab.note(
      `refused calls: not tested (the split gave ${finalDrain.allowed} back where a sliding log gives ${firstHalf}: a sliding counter refills by the phase of its aligned windows)`,
    );
    return null;
  }
  notCountedInWindow(lab, readings);
  return null;
}

/**
 * A continuous refill: its rate, its burst, then a split and whether refused calls count; a refill that waited
 * for an aligned window (a weighted sliding counter) is read in its first window instead.
 * `windowPauseMs`: the empty drains of an earlier window-like sampling.
 */
function* continuousRefill(
  lab: Lab,
  readings: Readings,
  exhausted: ExhaustionReading,
  sampling: SamplingReading,
  windowPauseMs: number | null,
): Experiment<void> {
  readings.refillShape = 'continuous';
  const rate = refillRate(lab, sampling, windowPauseMs);
  if (!rate) return;
  readings.rate = rate.rate;
  readings.drainsRate = rate.rate;
  readings.rateSpan = rate.span;
  readings.pausedMs = rate.pausedMs;
  const corrected = refillCorrectedBurst(lab, exhausted.drain, rate.rate, exhausted.firstHints, readings.restedDrain);
  readings.bucketBurst = corrected;
  if (corrected !== exhausted.burst)
    lab.note(`a full bucket holds ${corrected} calls: the exhaustion's ${exhausted.burst} include its refill`);
  const lastRefusedMs = sampling.samples[sampling.samples.length - 1]?.drain.refusedMs as number;
  if (readings.pausedMs !== null) {
    // A refill that waits for an aligned window is a weighted sliding counter: its rate is read in its first window.
    lab.note('burst volley and split: not needed (the refill waited for an aligned window: a sliding counter)');
    const timed = sampling.firstWindow;
    if (!timed) return yield* counterRate(lab, readings, exhausted, lastRefusedMs, exhausted.burst / rate.rate);
    // The sampling timed the window after the full bucket: a first window already, with no rest. Its
    // drains' count over their span may be one call fast: the timing never is.
    readings.firstWindowRate = timed.rate;
    readings.restedBurst = timed.restedBurst;
    readings.rate = timed.rate;
    return;
  }
  const restMs = (fullMs: number): number => fullMs * 1.1 + margin(lab, fullMs, false, exhausted.burst);
  readings.bucketBurst = yield* countBucket(lab, readings, exhausted, { lastRefusedMs, rate: rate.rate, corrected, restMs });
  const plan = { emptyAtMs: lab.lastMs, rate: rate.rate, burst: readings.bucketBurst, refilled: Math.min(8, Math.floor(readings.bucketBurst / 8)) };
  const control = yield* refillAfterVolley(lab, readings, plan);
  if (readings.refillAfterBurst) return yield* refusedCallTest(lab, readings, plan, control);
  const periodMs = readings.bucketBurst / rate.rate;
  const splitReading = yield* steadySplit(lab, readings, {
    start: { restAt: lab.lastMs + restMs(periodMs) },
    periodMs,
    burst: readings.bucketBurst,
    marginMs: margin(lab, periodMs, false, exhausted.burst),
    window: false,
  });
  if (!splitReading) return;
  readings.split = splitReading;
  const finalDrain = splitReading.drain;
  if (finalDrain.refusedMs === null) return;
  if (finalDrain.allowed < splitReading.burst - 1) {
    // A weighted sliding counter: its refill depends on where the calls fall in its aligned windows, so two
    // cycles are not comparable. Without a pause in the sampling (a stall hid it, or the bucket emptied just
    // before an aligned boundary) the split alone does not name it: the first window tells.
    lab.note('refused calls: not tested (a sliding counter refills by the phase of its aligned windows)');
    return yield* counterRate(lab, readings, exhausted, finalDrain.refusedMs, periodMs);
  }
  yield* refusedCallTest(lab, readings, { emptyAtMs: finalDrain.refusedMs, rate: readings.rate as number, burst: splitReading.burst });
}

/**
 * The refill right after the volley emptied a full bucket: a token bucket gives a call back every call of its
 * rate at once, a sliding log none before its window ends, a weighted counter none before its next aligned
 * boundary (one whose boundary came just after the exhaustion refills like a bucket through the whole sampling:
 * only a full bucket spent at another moment tells them apart). The cycle waits an eighth of a bucket at most, so
 * a counter's next boundary falls in it rarely, and gives its whole wait back only when it came at once: its wait
 * of calls back, less one, makes the split unneeded; fewer, and the split decides. A bucket too small for a wait
 * of four calls is split. Returns the cycle's drain (the refused-call test's control).
 */
function* refillAfterVolley(lab: Lab, readings: Readings, plan: RefusedCallPlan): Experiment<Drain | undefined> {
  const last = lab.observations[lab.observations.length - 1];
  if (!last || allowedOf(last) || (plan.refilled ?? 0) < 4) return undefined;
  const control = yield* controlCycle(lab, plan);
  const expected = Math.round(cycleWaitMs(plan) * plan.rate);
  const refilled = control.refusedMs !== null && control.allowed >= expected - 1;
  readings.refillAfterBurst = refilled;
  lab.note(
    refilled
      ? `refill after a full bucket: ${control.allowed} calls back ${Math.round(control.firstMs - plan.emptyAtMs)} ms after the volley emptied it, as a token bucket gives (a sliding log or a weighted counter gives none so soon): no split needed`
      : `refill after a full bucket: ${control.allowed} calls back where a token bucket gives ${expected}: split`,
  );
  return control;
}

/**
 * A continuous refill's full bucket, counted by a burst volley (the exhaustion's count less its refill agreeing);
 * the volley is the full bucket spent at once that the refill after it is read from.
 */
function* countBucket(
  lab: Lab,
  readings: Readings,
  exhausted: ExhaustionReading,
  p: { lastRefusedMs: number; rate: number; corrected: number; restMs: (fullMs: number) => number },
): Experiment<number> {
  const advertised = exhausted.firstHints?.limit ?? null;
  const counted = yield* burstVolley(lab, p.lastRefusedMs, p.rate, exhausted.burst, p.corrected, p.restMs, advertised);
  readings.exhaustionLessRefill = p.corrected;
  return counted;
}

/** Whether refused calls consume quota, measured once more when a held-up call moved what a cycle found. */
function* refusedCallTest(lab: Lab, readings: Readings, plan: RefusedCallPlan, control?: Drain): Experiment<void> {
  readings.refusedCallTest = yield* refusedCalls(lab, plan, control);
  const first = readings.refusedCallTest?.stalledMs ?? null;
  if (first === null) return;
  lab.note('refused calls: measured again');
  readings.refusedCallTest = yield* refusedCalls(lab, { ...plan, emptyAtMs: lab.lastMs });
  const again = readings.refusedCallTest?.stalledMs ?? null;
  if (again === null) return;
  readings.stalls.push(`the refused-call test stalled twice (calls held up ${Math.round(first)} and ${Math.round(again)} ms)`);
  readings.refusedCallTest = null;
}

/** A weighted sliding counter: its rate in the first window after a full one, once more when that stalled. */
function* counterRate(lab: Lab, readings: Readings, exhausted: ExhaustionReading, emptyAtMs: number, periodMs: number): Experiment<void> {
  const plan = {
    emptyAtMs,
    periodMs,
    burstObserved: exhausted.burst,
    advertisedLimit: exhausted.firstHints?.limit ?? null,
    drainsRate: readings.rate,
    pauseKnown: readings.pausedMs !== null,
  };
  let firstWindow = yield* firstWindowRate(lab, plan);
  if (firstWindow.stalled) {
    lab.note('first window: measured again');
    const again = yield* firstWindowRate(lab, {
      ...plan,
      emptyAtMs: lab.lastMs,
      pauseKnown: plan.pauseKnown || firstWindow.pausedMs !== null,
    });
    if (again.stalled) {
      readings.stalls.push('the first-window rate stalled twice');
      // Both are timed never faster than the truth: the higher is the nearer.
      if ((firstWindow.rate ?? 0) > (again.rate ?? 0)) again.rate = firstWindow.rate;
    }
    firstWindow = { ...again, pausedMs: again.pausedMs ?? firstWindow.pausedMs };
  }
  if (firstWindow.restedBurst !== null) readings.restedBurst = firstWindow.restedBurst;
  readings.firstWindowRate = firstWindow.rate;
  if (firstWindow.pausedMs !== null) readings.pausedMs = firstWindow.pausedMs;
  // Never below what the drains already got through.
  if (firstWindow.rate !== null && (readings.rate === null || firstWindow.rate > readings.rate)) readings.rate = firstWindow.rate;
}

/** A window: the sampling's empty drains were refused calls inside it, and the full bucket came back on time. */
function notCountedInWindow(lab: Lab, readings: Readings): void {
  lab.note('refused calls: not counted (the refill sampling was refused inside the window, and the next full bucket came on time)');
  readings.refusedCountKnown = false;
}

/** The split, once more from a rested bucket when a held-up call moved what it found. */
function* steadySplit(lab: Lab, readings: Readings, p: SplitPlan): Experiment<SplitReading | null> {
  const first = yield* split(lab, p);
  if (first === null || first.stalledMs === null) return first;
  lab.note('split: measured again after a rest');
  const again = yield* split(lab, { ...p, start: { restAt: lab.lastMs + 2.1 * p.periodMs } });
  if (again !== null && again.stalledMs !== null)
    readings.stalls.push(`the split stalled twice (calls held up ${Math.round(first.stalledMs)} and ${Math.round(again.stalledMs)} ms)`);
  return again;
}

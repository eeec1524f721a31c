/**
 * The coordinator: runs the experiments in order, each answering one question, and skips those an earlier
 * one already answered. Their readings go into one record the result is read from (readings.ts).
 *
 * Phases: exhaustion → reopening. A reopening on time at an advertised reset of a few seconds whose Remaining
 * said the bucket is back (`windowAtReopening`): a split from it, its window from the next reopening
 * (split-at-reopening.ts); calls back before that reset are a continuous refill after a pause. Otherwise: a rest
 * after a partial reopening → refill sampling, then by the refill's shape:
 * - a window (`windowRefill`): window refine → split → whether refused calls count, read from the sampling;
 * - a continuous refill (continuous-refill.ts): its rate → its bucket (burst volley) → the refill right after it
 *   (a token bucket's: no split), else a split → refused-call test, or first-window rate for a weighted sliding
 *   counter, which the split or a pause shows (not needed when the sampling timed the window after a pause that
 *   followed a full bucket).
 * A window's split that gets some calls back but fewer than a window gives sends it back to refill sampling
 * once, as a continuous refill.
 */
import { Stop, margin, type Lab, type Experiment } from './lab';
import { exhaustion, type ExhaustionReading } from './experiments/exhaustion';
import { sampleRefill, type WindowRef } from './experiments/refill-sampling';
import { settleReopening, type ReopenedBucket } from './experiments/reopening-settle';
import { resetMovesOf, type Readings } from './readings';
import { LONG_WINDOW_MS, reopening, type ReopeningReading } from './experiments/reopening';
import { splitAtReopening, type EarlyReopening } from './experiments/split-at-reopening';
import { pauseOf } from './experiments/pause-ends';
import { continuousRefill, steadySplit } from './continuous-refill';
import { split, splitSaysSliding, type SplitReading } from './experiments/split';
import type { Drain } from './types';
import { refineWindow, samplingBracket } from './experiments/window-refine';

/** `startAt`: when the exhaustion may start (a measurement taken again starts after a rest). */
export function* coordinate(lab: Lab, readings: Readings, startAt = 0): Experiment<void> {
  const exhausted = yield* exhaustion(lab, startAt);
  readings.exhaustion = exhausted;
  const reopened = yield* reopenOnce(lab, readings, exhausted);
  if (reopened.full) return yield* windowAtReopening(lab, readings, exhausted, reopened.full);
  const settled = yield* settle(lab, readings, exhausted, reopened);
  const plan = { burst: exhausted.burst, maxGapMs: settled.maxGapMs };
  let sampling =
    settled.timed ??
    (yield* sampleRefill(lab, {
      ...plan,
      from: settled.drain,
      gapMs: settled.gapMs,
      windowAllowed: true,
      pause: settled.pause,
      refilledFromMs: settled.refilledFromMs,
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
  const refillMoves = resetMovesOf(readings, lab.observations) === true && !oneRoundingSecond(lab, exhausted);
  const spreadMs = (exhausted.drain.refusedMs ?? exhausted.drain.firstMs) - exhausted.drain.firstSentMs;
  const reopened = yield* reopening(lab, exhausted.refusal, exhausted.burst, refillMoves, { spreadMs });
  readings.reopeningMoved = reopened.reopeningMoved;
  if (!reopened.drain && !reopened.full) throw new Stop(reopened.verdict as string);
  return reopened;
}

/**
 * The exhaustion's Reset moved by one of the seconds it is rounded to, no more than its calls took, toward a reset
 * some seconds off: a window's end crossing a second (a sliding log's moves with its newest call), not a refill (a
 * bucket's moves by its whole window as it empties).
 */
function oneRoundingSecond(lab: Lab, exhausted: ExhaustionReading): boolean {
  const calls = lab.observations.slice(0, exhausted.drain.allowed);
  const resets = calls.map((o) => o.hints.resetAtMs).filter((v): v is number => v !== null);
  const last = calls[calls.length - 1];
  if (!resets.length || !last) return false;
  const tookMs = last.tMs - exhausted.drain.firstSentMs;
  const far = (exhausted.refusal.hints.resetAtMs ?? 0) - exhausted.refusal.tMs >= LONG_WINDOW_MS;
  return far && Math.max(...resets) - Math.min(...resets) <= tookMs + 1000;
}

/** How many times the exhaustion's Reset moved: a bucket's moves step by step as it empties, a counter's once at its boundary. */
function steps(lab: Lab, exhausted: ExhaustionReading): number {
  const resets = lab.observations.slice(0, exhausted.drain.allowed).map((o) => o.hints.resetAtMs);
  return resets.filter((v, i) => i > 0 && v !== null && v !== resets[i - 1]).length;
}

/** A rest after a partial reopening: the drain the sampling follows and its gaps. */
function* settle(lab: Lab, readings: Readings, exhausted: ExhaustionReading, reopened: ReopeningReading): Experiment<ReopenedBucket> {
  const far = (exhausted.refusal.hints.resetAtMs ?? 0) - exhausted.refusal.tMs >= LONG_WINDOW_MS;
  const refilling =
    far && resetMovesOf(readings, lab.observations) === true && !oneRoundingSecond(lab, exhausted) && steps(lab, exhausted) >= 2;
  const settled = yield* settleReopening(lab, reopened.drain as Drain, exhausted.drain, exhausted.burst, reopened.early, refilling);
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

/** A window: the sampling's empty drains were refused calls inside it, and the full bucket came back on time. */
function notCountedInWindow(lab: Lab, readings: Readings): void {
  lab.note('refused calls: not counted (the refill sampling was refused inside the window, and the next full bucket came on time)');
  readings.refusedCountKnown = false;
}

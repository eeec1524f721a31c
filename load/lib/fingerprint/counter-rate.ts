/**
 * A weighted sliding counter's rate (continuous-refill.ts): read in the window after a full one, which refills at the
 * true rate (burst / window), where the drains read it low. That window is the one after the exhaustion's full bucket
 * when the refill waited for an aligned boundary, the one after a speed-up the sampling saw, or the first after a
 * rested burst (the volley's, or one of its own).
 */
import { perSecond, type Lab, type Experiment } from './lab';
import type { ExhaustionReading } from './experiments/exhaustion';
import { firstWindowRate, timedInWindow } from './experiments/first-window-rate';
import type { RefillRate } from './experiments/refill-rate';
import type { SamplingReading } from './experiments/refill-sampling';
import { COUNTER_OVER_DRAINS, type Readings } from './readings';
import type { Drain } from './types';

/**
 * A refill that waited for an aligned window: a weighted sliding counter, its rate read in its first window (timed
 * by the sampling, or after a pause the reopening hid, else after a rest).
 */
export function* pausedCounterRate(
  lab: Lab,
  readings: Readings,
  exhausted: ExhaustionReading,
  at: { sampling: SamplingReading; rate: RefillRate; lastRefusedMs: number },
): Experiment<void> {
  const { sampling, rate } = at;
  lab.note('burst volley and split: not needed (the refill waited for an aligned window: a sliding counter)');
  const afterPause = rate.afterPause;
  const timed = sampling.firstWindow ?? (afterPause && (yield* afterHiddenPause(lab, afterPause, exhausted.burst, readings.pausedMs)));
  if (!timed) return yield* counterRate(lab, readings, exhausted, at.lastRefusedMs, exhausted.burst / rate.rate);
  // The sampling timed the window after the full bucket: a first window already, with no rest. Its
  // drains' count over their span may be one call fast: the timing never is.
  readings.firstWindowRate = timed.rate;
  readings.restedBurst = timed.restedBurst;
  readings.rate = timed.rate;
}

/**
 * The samples after a pause the reopening hid came in the window after the exhaustion's full bucket (refill-rate.ts):
 * one drain more in it, once about 20 calls can have come back at their rate, times it with one refusal (a refused
 * call that counts takes a call from a drain's count). The rate: the higher of the two, each never faster than the truth.
 */
function* afterHiddenPause(
  lab: Lab,
  afterPause: NonNullable<RefillRate['afterPause']>,
  burst: number,
  pausedMs: number | null,
): Experiment<{ rate: number; restedBurst: number }> {
  const periodMs = burst / afterPause.rate;
  const timed = yield* timedInWindow(
    lab,
    { periodMs, drainsRate: afterPause.rate },
    {
      rested: burst,
      emptiedMs: lab.lastMs,
      pausedMs,
      gapMs: periodMs / 10,
      after: 'the samples in the window after the full bucket',
      rateKnown: true,
      stopMs: afterPause.windowEndMs,
    },
  );
  const rate = timed.stalled || timed.rate === null ? afterPause.rate : Math.max(afterPause.rate, timed.rate);
  return { rate, restedBurst: burst };
}

/**
 * The window after a speed-up timed at least this share of the drain that showed it (itself partly before the
 * boundary, so slower than the window after): a counter's window refills at one rate throughout.
 */
const JUMP_HELD = 0.9;

/**
 * The refill sped up between two drains and the window after was timed faster still than the drains before (over
 * COUNTER_OVER_DRAINS times), and no slower than the drain that showed it (JUMP_HELD): a weighted counter's aligned
 * boundary, named so with the window's rate; else (a stall, or a window that held less than the speed-up showed) the
 * sampling reads on as a continuous refill.
 */
export function counterAfterSpeedup(lab: Lab, readings: Readings, sampling: SamplingReading): boolean {
  const jump = sampling.jump;
  if (!jump) return false;
  if (jump.rate === null || jump.stalled || jump.rate <= COUNTER_OVER_DRAINS * jump.slow || jump.rate < JUMP_HELD * jump.fast) {
    const least = Math.max(COUNTER_OVER_DRAINS * jump.slow, JUMP_HELD * jump.fast);
    const timed = jump.rate === null ? 'not timed' : `timed at ${perSecond(jump.rate)}${jump.stalled ? ', stalled' : ''}`;
    lab.note(
      `the window after the speed-up: ${timed}, where a counter's gives ${perSecond(least)} or more; read on as a continuous refill`,
    );
    return false;
  }
  readings.refillJump = { slow: jump.slow, fast: jump.fast };
  // Both the window's timing and the drain that showed the speed-up are never faster than the window after it.
  readings.firstWindowRate = Math.max(jump.rate, jump.fast);
  readings.rate = Math.max(readings.firstWindowRate, readings.rate ?? 0);
  lab.note('burst volley and split: not needed (the refill sped up at an aligned boundary: a sliding counter)');
  return true;
}

/**
 * A weighted counter whose aligned boundary came just after the volley's full window: its rate is timed there at
 * once; a rate no faster than the drains read is no counter's, and is measured again.
 */
export function* boundaryAfterVolley(lab: Lab, readings: Readings, periodMs: number, control: Drain, rested: number): Experiment<void> {
  const timed = yield* timedInWindow(
    lab,
    { periodMs, drainsRate: readings.rate },
    { rested, emptiedMs: control.refusedMs as number, pausedMs: null, gapMs: periodMs / 10 },
  );
  const drainsRate = readings.rate as number;
  if (timed.rate === null || timed.stalled || timed.rate <= COUNTER_OVER_DRAINS * drainsRate) {
    readings.stalls.push(
      `the refill after the volley came faster than the drains' rate (${perSecond(drainsRate)}), the window after it at ${timed.rate === null ? 'no rate' : perSecond(timed.rate)}${timed.stalled ? ', stalled' : ''}`,
    );
    return;
  }
  readings.restedBurst = timed.restedBurst;
  readings.firstWindowRate = timed.rate;
  readings.rate = timed.rate;
}

/**
 * A weighted sliding counter: its rate in the first window after a full one, once more when that stalled. `rested`:
 * calls a rested burst just passed (the volley), emptied at `emptyAtMs`: its first window is timed at once;
 * `boundaryPassed`: calls came back since (fewer than a bucket gives), its next aligned boundary passed.
 */
export function* counterRate(
  lab: Lab,
  readings: Readings,
  exhausted: ExhaustionReading,
  emptyAtMs: number,
  periodMs: number,
  rested?: number,
  boundaryPassed = false,
): Experiment<void> {
  const plan = {
    emptyAtMs,
    periodMs,
    burstObserved: exhausted.burst,
    advertisedLimit: exhausted.firstHints?.limit ?? null,
    drainsRate: readings.rate,
    pauseKnown: readings.pausedMs !== null,
  };
  let firstWindow = yield* firstWindowRate(lab, rested === undefined ? plan : { ...plan, rested, boundaryPassed });
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

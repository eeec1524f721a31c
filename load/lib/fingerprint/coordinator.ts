/**
 * The coordinator: runs the experiments in order, each answering one question, and skips those an earlier
 * one already answered. Their readings go into one record the result is read from (readings.ts).
 *
 * exhaustion → reopening → refill sampling → window refine (a window) or burst volley (a continuous refill)
 * → split → refused calls, or first-window rate (a continuous refill the split or a pause says is a
 * weighted sliding counter; not needed when the sampling timed the window after a pause that followed a full
 * bucket). A split that gets some calls back but fewer than a window gives sends a window-like sampling
 * back to refill sampling once, as a continuous refill.
 */
import { Stop, margin, type Lab, type Experiment } from './lab';
import { burstVolley, refillCorrectedBurst } from './burst-volley';
import { exhaustion, type ExhaustionReading } from './exhaustion';
import { firstWindowRate } from './first-window-rate';
import { refillRate, sampleRefill, settleReopening } from './refill-sampling';
import { refusedCalls } from './refused-call';
import { resetMovesOf, type Readings } from './readings';
import { reopening } from './reopening';
import { split, splitSaysSliding, type SplitPlan, type SplitReading } from './split';
import { refineWindow, samplingBracket } from './window-refine';

/** `startAt`: when the exhaustion may start (a measurement taken again starts after a rest). */
export function* coordinate(lab: Lab, r: Readings, startAt = 0): Experiment<void> {
  const ex = yield* exhaustion(lab, startAt);
  r.exhaustion = ex;
  const ro = yield* reopening(lab, ex.refusal, ex.burst, resetMovesOf(r, lab.observations) === true);
  r.movedHint = ro.movedHint;
  if (!ro.drain) throw new Stop(ro.verdict as string);
  const settled = yield* settleReopening(lab, ro.drain, ex.drain, ex.burst);
  r.rested = settled.rested;
  const plan = { burst: ex.burst, maxGapMs: settled.maxGapMs };
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
  for (;;) {
    r.windowLike = sampling.windowRef !== null;
    let s: SplitReading | null;
    let periodMs: number;
    if (sampling.windowRef) {
      const { lo, hi } = samplingBracket(lab, sampling.windowRef);
      const { ref, before, boundary } = sampling.windowRef;
      r.samplingBracket = { lo: before.firstSentMs - ref.firstMs, hi: boundary.firstMs - ref.firstSentMs };
      r.window = { windowMs: hi, precise: false, errorMs: (hi - lo) / 2 };
      if (r.movedHint)
        throw new Stop(
          `refused calls count (the advertised reopening moved after refused calls): stopped before the window refine and split tests, which need refused calls; window ${lo}..${hi} ms`,
        );
      const w = yield* refineWindow(lab, sampling.windowRef, ex.burst);
      r.window = w;
      periodMs = w.splitStart.periodMs;
      s = yield* steadySplit(lab, r, {
        start: w.splitStart,
        periodMs,
        burst: ex.burst,
        marginMs: margin(lab, periodMs, true, ex.burst),
        window: true,
      });
    } else {
      const rate = refillRate(lab, sampling, windowPauseMs);
      if (!rate) return;
      r.rate = rate.rate;
      r.drainsRate = rate.rate;
      r.rateSpan = rate.span;
      r.pausedMs = rate.pausedMs;
      const corrected = refillCorrectedBurst(lab, ex.drain, rate.rate, ex.firstHints, r.rested);
      r.burstRefilled = corrected;
      if (corrected !== ex.burst) lab.note(`a full bucket holds ${corrected} calls: the exhaustion's ${ex.burst} include its refill`);
      const restMs = (fullMs: number): number => fullMs * 1.1 + margin(lab, fullMs, false, ex.burst);
      const last = sampling.samples[sampling.samples.length - 1]?.drain.refusedMs as number;
      if (r.pausedMs !== null) {
        // A refill that waits for an aligned window is a weighted sliding counter: its rate is read in its first window.
        lab.note('burst volley and split: not needed (the refill waited for an aligned window: a sliding counter)');
        const fw = sampling.firstWindow;
        if (!fw) return yield* counterRate(lab, r, ex, last, ex.burst / rate.rate);
        // The sampling timed the window after the full bucket: a first window already, with no rest. Its
        // drains' count over their span may be one call fast: the timing never is.
        r.firstWindowRate = fw.rate;
        r.restedBurst = fw.restedBurst;
        r.rate = fw.rate;
        return;
      }
      const lastAllowedMs = lab.observations[Math.max(0, ex.drain.allowed - 1)]?.tMs ?? ex.drain.firstMs;
      // From the first call sent: a slow first answer (a new connection, a cold target) hides refill time.
      const refilled = rate.rate * (lastAllowedMs - ex.drain.firstSentMs);
      if (refilled < 0.5) {
        lab.note(
          `burst volley: not needed (${Math.round(lastAllowedMs - ex.drain.firstSentMs)} ms of exhaustion refilled ${refilled.toFixed(2)} calls)`,
        );
      } else {
        r.burstRefilled = yield* burstVolley(lab, last, rate.rate, ex.burst, corrected, restMs, ex.firstHints?.limit ?? null);
        r.burstFromExhaustion = corrected;
      }
      periodMs = r.burstRefilled / rate.rate;
      const start = { restAt: lab.lastMs + restMs(periodMs) };
      s = yield* steadySplit(lab, r, {
        start,
        periodMs,
        burst: r.burstRefilled,
        marginMs: margin(lab, periodMs, false, ex.burst),
        window: false,
      });
    }
    if (!s) return;
    r.split = s;
    if (s.drain.refusedMs === null) return r.windowLike ? notCountedInWindow(lab, r) : undefined;
    const d = s.drain;
    if (r.windowLike && d.allowed > 0 && d.allowed < s.h1 - 1 && windowPauseMs === null) {
      // Some calls back, but fewer than a window gives: a continuous refill whose sampling looked like a window
      // (a sliding counter drained late in its aligned window looks full). Measured again as one; a limiter
      // whose refused calls count gives nothing back at all.
      const { ref, before } = sampling.windowRef as NonNullable<typeof sampling.windowRef>;
      windowPauseMs = before.firstMs - (ref.refusedMs ?? ref.firstMs);
      lab.note(`split: ${d.allowed} calls back where a window gives ${s.h1}: sampled again as a continuous refill`);
      r.window = null;
      r.split = null;
      r.windowLike = null;
      r.samplingBracket = null;
      sampling = yield* sampleRefill(lab, { ...plan, from: d, gapMs: sampling.gapMs, windowAllowed: false });
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
      lab.note('refused calls: not tested (a sliding counter refills by the phase of its aligned windows)');
      return yield* counterRate(lab, r, ex, d.refusedMs as number, periodMs);
    }
    if (r.windowLike && splitSaysSliding(s) && d.allowed !== s.h1) {
      // A sliding log gives back exactly the calls that left its window; a sliding counter read as a window
      // gives back by the phase of its aligned windows, so two cycles are not comparable.
      lab.note(
        `refused calls: not tested (the split gave ${d.allowed} back where a sliding log gives ${s.h1}: a sliding counter refills by the phase of its aligned windows)`,
      );
      return;
    }
    if (r.windowLike) return notCountedInWindow(lab, r);
    const refusedPlan = { emptyAtMs: d.refusedMs as number, rate: r.rate as number, burst: s.burst };
    r.refused = yield* refusedCalls(lab, refusedPlan);
    if (r.refused && r.refused.stalledMs !== null) {
      lab.note('refused calls: measured again');
      const first = r.refused.stalledMs;
      r.refused = yield* refusedCalls(lab, { ...refusedPlan, emptyAtMs: lab.lastMs });
      if (r.refused && r.refused.stalledMs !== null) {
        r.stalls.push(`the refused-call test stalled twice (calls held up ${Math.round(first)} and ${Math.round(r.refused.stalledMs)} ms)`);
        r.refused = null;
      }
    }
    return;
  }
}

/** A weighted sliding counter: its rate in the first window after a full one, once more when that stalled. */
function* counterRate(lab: Lab, r: Readings, ex: ExhaustionReading, emptyAtMs: number, periodMs: number): Experiment<void> {
  const plan = {
    emptyAtMs,
    periodMs,
    burstObserved: ex.burst,
    advertisedLimit: ex.firstHints?.limit ?? null,
    drainsRate: r.rate,
    pauseKnown: r.pausedMs !== null,
  };
  let fw = yield* firstWindowRate(lab, plan);
  if (fw.stalled) {
    lab.note('first window: measured again');
    const again = yield* firstWindowRate(lab, { ...plan, emptyAtMs: lab.lastMs, pauseKnown: plan.pauseKnown || fw.pausedMs !== null });
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
function notCountedInWindow(lab: Lab, r: Readings): void {
  lab.note('refused calls: not counted (the refill sampling was refused inside the window, and the next full bucket came on time)');
  r.refusedCount = false;
}

/** The split, once more from a rested bucket when a held-up call moved what it found. */
function* steadySplit(lab: Lab, r: Readings, p: SplitPlan): Experiment<SplitReading | null> {
  const first = yield* split(lab, p);
  if (first === null || first.stalledMs === null) return first;
  lab.note('split: measured again after a rest');
  const again = yield* split(lab, { ...p, start: { restAt: lab.lastMs + 2.1 * p.periodMs } });
  if (again !== null && again.stalledMs !== null)
    r.stalls.push(`the split stalled twice (calls held up ${Math.round(first.stalledMs)} and ${Math.round(again.stalledMs)} ms)`);
  return again;
}

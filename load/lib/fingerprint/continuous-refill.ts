/**
 * A continuous refill (coordinator.ts): its rate, its bucket counted by a volley, the refill right after it (a token
 * bucket's), else a split; whether refused calls count; a weighted sliding counter's first-window rate (counter-rate.ts),
 * with no volley when the sampling showed the counter (a pause, or a speed-up at an aligned boundary).
 */
import { allowedOf, drain, margin, perSecond, readsNamed, type Lab, type Experiment } from './lab';
import { burstExceeded } from './consistency';
import { burstVolley, refillCorrectedBurst, type VolleyReading } from './experiments/burst-volley';
import type { ExhaustionReading } from './experiments/exhaustion';
import { refillRate } from './experiments/refill-rate';
import type { SamplingReading } from './experiments/refill-sampling';
import { controlCycle, cycleWaitMs, refusedCalls, type RefusedCallPlan } from './experiments/refused-call';
import { split, type SplitPlan, type SplitReading } from './experiments/split';
import { rateOf, type Readings } from './readings';
import { boundaryAfterVolley, counterAfterSpeedup, counterRate, pausedCounterRate } from './counter-rate';
import type { Drain, ReadsNamed } from './types';

/**
 * A continuous refill: its rate, its burst, then a split and whether refused calls count; a refill that waited
 * for an aligned window (a weighted sliding counter) is read in its first window instead.
 * `windowPauseMs`: the empty drains of an earlier window-like sampling.
 */
export function* continuousRefill(
  lab: Lab,
  readings: Readings,
  exhausted: ExhaustionReading,
  sampling: SamplingReading,
  windowPauseMs: number | null,
): Experiment<void> {
  readings.refillShape = 'continuous';
  const rate = refillRate(lab, sampling, windowPauseMs, exhausted.burst);
  if (!rate) return;
  readings.rate = rate.rate;
  readings.drainsRate = rate.rate;
  readings.rateSpan = rate.span;
  readings.pausedMs = rate.pausedMs;
  const corrected = refillCorrectedBurst(lab, exhausted.drain, rate.rate, exhausted.firstHints, readings.restedDrain);
  readings.bucketBurst = corrected;
  if (corrected !== exhausted.burst)
    lab.note(`a full bucket holds ${corrected} calls: the exhaustion's ${exhausted.burst} include its refill`);
  // The sampling's last drain, or the timing of the window after a speed-up, emptied the bucket last.
  const lastRefusedMs = lab.lastMs;
  if (counterAfterSpeedup(lab, readings, sampling)) return;
  if (readings.pausedMs !== null) return yield* pausedCounterRate(lab, readings, exhausted, { sampling, rate, lastRefusedMs });
  const reads = yield* readsNamed(lab);
  if (reads?.algorithm === 'token-bucket') return likeTheReads(lab, readings, reads);
  const restMs = (fullMs: number): number => fullMs * 1.1 + margin(lab, fullMs, false, exhausted.burst);
  // Two periods: a weighted counter's previous aligned window is empty too, so it gives nothing back after the
  // volley before its next boundary (calls back at the previous window's count per window otherwise, a bucket's rate).
  const volleyRestMs = (fullMs: number): number => 2 * fullMs + margin(lab, fullMs, false, exhausted.burst);
  const volley = yield* countBucket(lab, readings, exhausted, { lastRefusedMs, rate: rate.rate, corrected, restMs: volleyRestMs });
  readings.bucketBurst = volley.burst;
  const plan = {
    emptyAtMs: lab.lastMs,
    rate: rate.rate,
    burst: readings.bucketBurst,
    refilled: Math.min(8, Math.floor(readings.bucketBurst / 8)),
  };
  const control = yield* refillAfterVolley(lab, readings, plan, {
    size: exhausted.burst + 2,
    refused: volley.refused,
    passed: volley.passed,
  });
  const periodMs = readings.bucketBurst / rate.rate;
  if (control) {
    // A weighted counter's rested burst is what the volley passed: it refills nothing before its next aligned boundary.
    if (control.boundary) return yield* boundaryAfterVolley(lab, readings, periodMs, control.drain, volley.passed);
    const timedFromLast = () => counterRate(lab, readings, exhausted, lab.lastMs, periodMs, volley.passed, true);
    if (control.owed || readings.refillAfterBurst) return yield* refillLikeBucket(lab, readings, control, timedFromLast);
    if (control.drain.refusedMs) {
      // Nothing back after a full bucket spent at once from a rest of two periods: the volley was a rested burst, and
      // the window after it is timed at once (a log gives its calls back in one clump there: the consistency checks).
      lab.note('split: not needed (the first window after the volley tells a weighted counter, and its rate)');
      return yield* counterRate(lab, readings, exhausted, control.drain.refusedMs, periodMs, volley.passed, control.drain.allowed > 0);
    }
  }
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
 * A write whose read operations were all named a token bucket, its own refill continuous without a pause: named so,
 * its bucket the exhaustion less its refill (or the advertised limit that agrees), refused calls as the reads read them.
 */
function likeTheReads(lab: Lab, readings: Readings, reads: ReadsNamed): void {
  readings.likeReads = reads.algorithm;
  readings.refusedCountKnown = reads.refusedCallsCount;
  lab.note(
    `named as the read operations' limiter (${reads.algorithm}: ${reads.operations.join(', ')}): its refill is continuous, without a pause, and a full bucket holds ${readings.bucketBurst} calls; burst volley and refused-call test not run (each call that passes creates a resource)`,
  );
}

/**
 * The refill right after the volley emptied a full bucket: a token bucket gives a call back every call of its
 * rate at once, a sliding log none before its window ends, a weighted counter rested two periods none before its
 * next aligned boundary (one whose boundary came just after the exhaustion refills like a bucket through the whole
 * sampling: only a full bucket spent at another moment tells them apart). The cycle waits an eighth of a bucket at most, so
 * a counter's next boundary falls in it rarely, and gives its whole wait back only when it came at once: its wait
 * of calls back, less one, makes the split unneeded; fewer, and the first window after the volley is timed. A
 * bucket too small for a wait of four calls is split. Returns the cycle's drain (the refused-call test's control)
 * and its plan.
 */
function* refillAfterVolley(
  lab: Lab,
  readings: Readings,
  plan: RefusedCallPlan,
  volley: { size: number; refused: number; passed: number },
): Experiment<AfterVolley | undefined> {
  // Answers sent together come back in any order: a refusal among them says the volley emptied the bucket.
  const emptied = lab.observations.slice(-volley.size).some((o) => !allowedOf(o));
  if (!emptied || (plan.refilled ?? 0) < 4) return undefined;
  // The volley's answers come over a while: a drain at once marks when the bucket was empty, as a refusal does.
  const empty = yield* drain(lab, lab.lastMs, 'refused calls', lab.drainCap());
  if (empty.refusedMs === null) return undefined;
  const from = { ...plan, emptyAtMs: empty.refusedMs };
  const control = yield* controlCycle(lab, from);
  const expected = Math.round(cycleWaitMs(from) * from.rate);
  // A bucket of that burst at the drains' rate cannot have passed what the exhaustion passed (burstExceeded): it
  // straddled a weighted counter's aligned boundary, and the calls back are its next boundary's. Not where the volley
  // itself passed more (a stall between its answers read the bucket short).
  const held = Math.max(plan.burst, volley.passed);
  const over = burstExceeded(lab.observations, held, from.rate);
  const refilled = !over && control.refusedMs !== null && control.allowed >= expected - 1;
  // The most a bucket at the drains' rate gives back by the control's last allowed answer, since the empty drain's send.
  const lastAllowed = lab.observations[lab.observations.length - 2];
  const most = (lastAllowed ? lastAllowed.tMs - empty.firstSentMs : 0) * from.rate;
  const boundary = refilled && control.allowed > BOUNDARY_OVER_DRAINS * most + 2;
  // Where refused calls count, the drains' closing refusals took calls of the refill too (its rate is higher), and the
  // volley's refusals and the empty drain's are calls the bucket owes.
  const debt = volley.refused + 1;
  const countingRate = rateOf(readings, true, 'token-bucket') ?? from.rate;
  const ifCounted = Math.round(cycleWaitMs(from) * countingRate) - debt;
  const owed = !over && !refilled && control.refusedMs !== null && control.allowed >= ifCounted - 1;
  readings.refillAfterBurst = refilled && !boundary;
  lab.note(
    afterVolleyLine({
      allowed: control.allowed,
      afterMs: control.firstMs - from.emptyAtMs,
      expected,
      ifCounted,
      debt,
      most,
      boundary,
      refilled,
      owed,
    }),
  );
  if (over)
    lab.note(
      `refill after a full bucket: not a bucket's, whatever came back: ${held + 1} calls passed within ${Math.round(over.spanMs)} ms, more than a bucket of ${held} holds refilling at ${perSecond(from.rate)} (a weighted counter's exhaustion that straddled an aligned boundary)`,
    );
  return { drain: control, plan: from, boundary, owed: owed ? { calls: debt, rate: countingRate } : null };
}

/** The refill after the volley: the control cycle's drain and plan, and what it showed. */
interface AfterVolley {
  drain: Drain;
  plan: RefusedCallPlan;
  /** Far more back than a bucket at the drains' rate gives: a weighted counter's aligned boundary came. */
  boundary: boolean;
  /**
   * Fewer back than a bucket gives, by no more than the refusals since it emptied (a bucket whose refused calls count,
   * or a counter's boundary): those refusals, and the rate such a bucket refills at; null: not so.
   */
  owed: { calls: number; rate: number } | null;
}

function afterVolleyLine(c: {
  allowed: number;
  afterMs: number;
  expected: number;
  ifCounted: number;
  debt: number;
  most: number;
  boundary: boolean;
  refilled: boolean;
  owed: boolean;
}): string {
  const back = `refill after a full bucket: ${c.allowed} calls back ${Math.round(c.afterMs)} ms after the volley emptied it`;
  if (c.boundary)
    return `${back}, more than a bucket at the drains' rate gives (${Math.floor(c.most + 1)}): a weighted counter's aligned boundary came, after a full window`;
  if (c.refilled) return `${back}, as a token bucket gives (a sliding log or a weighted counter gives none so soon): no split needed`;
  if (c.owed)
    return `${back}, where a token bucket gives ${c.expected}, or ${c.ifCounted} if its ${c.debt} refusals since count; else a weighted counter's boundary came during the wait: the refused-call test tells`;
  return `refill after a full bucket: ${c.allowed} calls back where a token bucket gives ${c.expected}`;
}

/**
 * Calls back after the volley as a bucket gives them: as many, or fewer by no more than its refusals since (`owed`, a
 * bucket whose refused calls count). The refused-call test tells, from the check's refusal, or once an owing bucket
 * is out of debt (the volley's would leave the check too few calls to judge by): a bucket whose refused calls count
 * where they were owed. Refused calls free where they were owed, or more back in the test's second cycle than its
 * first allows (the refill sped up), leave a weighted counter whose aligned boundary came during the check: its
 * window is timed from the test's last refusal (`timedFromLast`).
 */
function* refillLikeBucket(lab: Lab, readings: Readings, control: AfterVolley, timedFromLast: () => Experiment<void>): Experiment<void> {
  const owed = control.owed;
  if (owed) {
    // Where refused calls count, the bucket is out of debt once it refilled them all, and the check's own refusal.
    const settled = yield* drain(lab, (control.drain.refusedMs as number) + (owed.calls + 1) / owed.rate, 'refused calls', lab.drainCap());
    if (settled.refusedMs === null) return yield* timedFromLast();
    yield* refusedCallTest(lab, readings, { ...control.plan, emptyAtMs: settled.refusedMs });
  } else yield* refusedCallTest(lab, readings, control.plan, control.drain);
  const test = readings.refusedCallTest;
  if (!test?.spedUp && !(owed && test?.counted === false)) {
    if (owed) readings.refillAfterBurst = test?.counted === true;
    return;
  }
  readings.refillAfterBurst = false;
  lab.note(
    `refill after a full bucket: ${test.spedUp ? 'the refill sped up' : 'refused calls do not count, so a bucket would have given them back'}: a weighted counter, its aligned boundary during the check`,
  );
  return yield* timedFromLast();
}

/**
 * Calls back after a volley beyond this many times what a bucket at the drains' rate gives (and two calls more): not a
 * bucket's refill (its drains read it within a few %, at 2/3 or more where their refused calls count) but a weighted
 * counter's, whose drains read it low (by the count of the aligned window before them) and whose window after a full
 * one gives calls back at its true rate.
 */
const BOUNDARY_OVER_DRAINS = 1.5;

/**
 * A continuous refill's full bucket, counted by a burst volley (the exhaustion's count less its refill agreeing);
 * the volley is the full bucket spent at once that the refill after it is read from.
 */
function* countBucket(
  lab: Lab,
  readings: Readings,
  exhausted: ExhaustionReading,
  p: { lastRefusedMs: number; rate: number; corrected: number; restMs: (fullMs: number) => number },
): Experiment<VolleyReading> {
  const advertised = exhausted.firstHints?.limit ?? null;
  const counted = yield* burstVolley(lab, p.lastRefusedMs, p.rate, exhausted.burst, p.corrected, p.restMs, advertised);
  readings.exhaustionLessRefill = p.corrected;
  return counted;
}

/** Whether refused calls consume quota, measured once more when the cycle's own timing left it undecided. */
function* refusedCallTest(lab: Lab, readings: Readings, plan: RefusedCallPlan, control?: Drain): Experiment<void> {
  readings.refusedCallTest = yield* refusedCalls(lab, plan, control);
  if (readings.refusedCallTest?.counted !== null) return;
  lab.note('refused calls: measured again');
  readings.refusedCallTest = yield* refusedCalls(lab, { ...plan, emptyAtMs: lab.lastMs });
  if (readings.refusedCallTest?.counted !== null) return;
  readings.stalls.push('the refused-call test was undecided twice (answers held up long enough for both readings)');
  readings.refusedCallTest = null;
}

/** The split, once more from a rested bucket when a held-up call moved what it found. */
export function* steadySplit(lab: Lab, readings: Readings, p: SplitPlan): Experiment<SplitReading | null> {
  const first = yield* split(lab, p);
  if (first === null || first.stalledMs === null) return first;
  lab.note('split: measured again after a rest');
  const again = yield* split(lab, { ...p, start: { restAt: lab.lastMs + 2.1 * p.periodMs } });
  if (again !== null && again.stalledMs !== null)
    readings.stalls.push(`the split stalled twice (calls held up ${Math.round(first.stalledMs)} and ${Math.round(again.stalledMs)} ms)`);
  return again;
}

/**
 * Refused calls (a continuous refill): do refused calls consume quota? From an empty bucket, the same short
 * cycle twice: wait for about eight calls to refill and drain them (control); then a few extra calls at once
 * while the bucket is empty, the same wait and a drain (test).
 *
 * Each cycle runs from the refusal that emptied the bucket to the refusal that ended its drain, and gives back what
 * the refill brought in that time, ±1 (a bucket a little under one call at either end). Refused calls that count
 * take the extra refused calls off the test's. So the test is judged against the control scaled by the two cycles'
 * lengths, whatever the rate: a slow drain (a loaded client) lengthens its own cycle, and refused calls counting
 * lower the sampled rate and the control alike. The target decided each refusal between its send and its answer,
 * so a cycle's length lies within a range, and a held-up answer widens it. Only a test whose range leaves both
 * readings possible is undecided and measured again; a call held up anywhere else moves nothing. The extra calls
 * are enough for the readings to stand apart when the answers take their usual time.
 *
 * A window needs no such test: the refill sampling's empty drains were refused calls inside the window, and the
 * full bucket still came back on time (a sliding log counting them would never have reopened; a fixed window
 * forgets them at its end).
 *
 * Plan: 2 × (8 + 1) + 5 or more calls over two short waits (fewer for a bucket of fewer than nine), from the empty
 * bucket the split left.
 * Reading: the calls allowed after each cycle, the extra calls refused and whether they counted; null when a
 * drain did not empty.
 */
import { median } from 'simple-statistics';
import { drain, spend, type Lab, type Experiment } from '../lab';
import type { Drain, LabObservation } from '../types';

export interface RefusedCallReading {
  control: number;
  test: number;
  extraRefused: number;
  /** Whether the extra refused calls consumed quota; null when the cycles' timing leaves both readings possible. */
  counted: boolean | null;
  /** The test got back more than the control allows, scaled by the cycles (±1 each): the refill sped up between them. */
  spedUp: boolean;
}

/** A cycle: the calls it got back, and its length from refusal to refusal (the least and most the answers allow). */
export interface Cycle {
  allowed: number;
  spanMs: { least: number; most: number };
}

export interface RefusedCallPlan {
  /** When the bucket was last emptied. */
  emptyAtMs: number;
  /** The measured refill rate, calls per ms. */
  rate: number;
  burst: number;
  /** Calls a cycle waits for (default: eight, fewer for a bucket of fewer than nine). */
  refilled?: number;
}

/** Calls refilled between two drains of a cycle: ±1 each, so five extra calls stand out. */
const REFILLED = 8;
/** The fewest extra calls: each cycle counts ±1, so two readings five apart stand apart. */
const MIN_EXTRA = 5;

/** The wait of a cycle, ms: `refilled` calls of the refill, else about eight (fewer for a small bucket). */
export const cycleWaitMs = (p: Pick<RefusedCallPlan, 'rate' | 'burst' | 'refilled'>): number =>
  (p.refilled ?? Math.min(REFILLED, Math.max(2, p.burst - 1))) / p.rate;

/** The control cycle alone: the calls back one cycle's wait after the bucket emptied. */
export function* controlCycle(lab: Lab, p: RefusedCallPlan): Experiment<Drain> {
  return yield* drain(lab, p.emptyAtMs + cycleWaitMs(p), 'refused calls', lab.drainCap());
}

/**
 * The test cycle judged against the control scaled by their lengths: refused calls not counted when the test got
 * back what the control says within ±1 of each, counted when it got that less the extra refused calls and not
 * the former; else null.
 */
export function refusedCallsCounted(control: Cycle, test: Cycle, extraRefused: number): boolean | null {
  const least = (control.allowed * test.spanMs.least) / control.spanMs.most;
  const most = mostBack(control, test);
  const leastIfFree = least - 2;
  const mostIfCounted = most - extraRefused + 2;
  if (test.allowed > mostIfCounted && test.allowed >= leastIfFree) return false;
  if (test.allowed < leastIfFree && test.allowed <= mostIfCounted) return true;
  return null;
}

/** The most calls the test cycle gets back at the control's refill, scaled by the cycles' lengths. */
const mostBack = (control: Cycle, test: Cycle): number => (control.allowed * test.spanMs.most) / control.spanMs.least;

/** More back in the test than the control allows (±1 each): the refill sped up between the cycles. */
const refillSpedUp = (control: Cycle, test: Cycle): boolean => test.allowed > mostBack(control, test) + 2;

/** Extra calls for the readings to stand apart: ±1 for each cycle, and the calls two usual answer times at each end move. */
function extraCalls(lab: Lab, p: RefusedCallPlan): number {
  const refilled = cycleWaitMs(p) * p.rate;
  return Math.max(MIN_EXTRA, Math.ceil(4.5 + (refilled * 4 * medianAnswerMs(lab.observations)) / cycleWaitMs(p)));
}

const medianAnswerMs = (obs: LabObservation[]): number => (obs.length ? median(obs.map((o) => o.tMs - o.sentMs)) : 0);

/** The refusal answered at `ms` (the one that emptied the bucket); its answer time alone when none is found. */
function refusalAt(lab: Lab, ms: number): Pick<LabObservation, 'sentMs' | 'tMs'> {
  for (let i = lab.observations.length - 1; i >= 0; i--) {
    const o = lab.observations[i] as LabObservation;
    if (o.status === 429 && o.tMs === ms) return o;
  }
  return { sentMs: ms, tMs: ms };
}

const spanOf = (from: Pick<LabObservation, 'sentMs' | 'tMs'>, to: LabObservation): Cycle['spanMs'] => ({
  least: Math.max(1, to.sentMs - from.tMs),
  most: Math.max(1, to.tMs - from.sentMs),
});

const msRange = ({ least, most }: Cycle['spanMs']): string =>
  Math.round(least) === Math.round(most) ? `${Math.round(least)} ms` : `${Math.round(least)}..${Math.round(most)} ms`;

/** `control`: the control cycle, when it already ran from `p.emptyAtMs` (its refusal the latest observation). */
export function* refusedCalls(lab: Lab, p: RefusedCallPlan, control?: Drain): Experiment<RefusedCallReading | null> {
  const emptied = refusalAt(lab, p.emptyAtMs);
  control ??= yield* controlCycle(lab, p);
  if (control.refusedMs === null) return null;
  const controlEnd = lab.observations[lab.observations.length - 1] as LabObservation;
  const extra = yield* spend(lab, control.refusedMs, 'refused calls', extraCalls(lab, p));
  const test = yield* drain(lab, control.refusedMs + cycleWaitMs(p), 'refused calls', lab.drainCap());
  if (test.refusedMs === null) return null;
  const testEnd = lab.observations[lab.observations.length - 1] as LabObservation;
  const withoutRefused = { allowed: control.allowed, spanMs: spanOf(emptied, controlEnd) };
  const withRefused = { allowed: test.allowed + extra.allowed, spanMs: spanOf(controlEnd, testEnd) };
  const counted = refusedCallsCounted(withoutRefused, withRefused, extra.refused);
  const spedUp = refillSpedUp(withoutRefused, withRefused);
  const said =
    (counted === null ? 'undecided' : counted ? 'they count' : 'they do not count') +
    (spedUp ? '; more than the control allows: the refill sped up between the cycles' : '');
  lab.note(
    `refused calls: ${control.allowed} allowed in ${msRange(withoutRefused.spanMs)} from an empty bucket, ${withRefused.allowed} in ${msRange(withRefused.spanMs)} after ${extra.refused} refused calls: ${said}`,
  );
  return { control: control.allowed, test: withRefused.allowed, extraRefused: extra.refused, counted, spedUp };
}

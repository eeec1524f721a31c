/**
 * First-window rate with no rest (a weighted sliding counter): right after a pause that followed a full bucket,
 * polls time the window after the full one at the true rate (see `firstWindowAfterPause`); the first-window
 * rate after a rest is first-window-rate.ts's.
 */
import { drain, perSecond, type Lab, type Experiment } from '../lab';
import { STALLED_GAPS, COARSE_DRAINS_FROM } from './first-window-rate';
import type { Drain } from '../types';

/** A full bucket from a clean counter, the empty drains of its pause, and the first drain with calls back. */
export interface PauseEnd {
  /** The full bucket: its aligned window held nothing before it, the one before nothing at all (else no pause). */
  full: Drain;
  /** The last empty drain of the pause: the next aligned window had not started when it was sent. */
  lastEmpty: Drain;
  /** The first drain with calls back: it emptied the counter inside the window right after the full one. */
  back: Drain;
  burst: number;
  /** The drain the timing starts from (`back` unless given): a later one, in the same refill. */
  start?: Drain;
}

export interface AfterPauseReading {
  /**
   * Calls per ms, never faster than the truth (less one call over the longest the span can have been); null: not
   * timed there (see the note), its drains still part of the refill.
   */
  rate: number | null;
  /** The drains that timed it, or tried to (each until refused). */
  drains: Drain[];
}

/**
 * First-window rate with no rest: right after a pause that followed a full bucket (a weighted sliding counter,
 * whose sampling drains just emptied it inside the window after the full one). That window refills from its
 * aligned boundary at the true rate, burst / window; polls that drain the counter every fortieth of a window
 * (every fine gap for a small bucket, whose crossings they time) keep each later window full too, so the
 * calls back stay at the true rate, lower by at most a poll gap's share, across the next boundary. A first
 * poll one call of the refill later must get one back, else no more are sent. The span runs from that poll's
 * refusal (sent) to the last poll's refusal (answered): one call less over it is never faster than the truth.
 * The refill must be linear: never faster than the full bucket over the pause's window, and no call back
 * missing for two of its calls (a sliding log caught mid-return gives its calls back in clumps). No rate when a poll
 * was held up (a window may have ended with the counter not full) or too few came back: the refill is then
 * measured the ordinary way (refill sampling, and the first-window rate after a rest).
 */
export function* firstWindowAfterPause(lab: Lab, p: PauseEnd): Experiment<AfterPauseReading> {
  const { full, lastEmpty, back, burst } = p;
  const emptyMs = (p.start ?? back).refusedMs as number;
  // The full bucket and the empty drain fell in one aligned window: the window is longer than their span.
  const windowAtLeastMs = lastEmpty.firstSentMs - full.firstMs;
  // The back drain's calls came in its span, part of it still the pause: a rate never above the truth.
  const slowest = back.allowed / ((back.refusedMs as number) - (lastEmpty.refusedMs as number));
  const windowAtMostMs = burst / slowest;
  const target = Math.max(2, Math.min(burst - 1, Math.max(COARSE_DRAINS_FROM, Math.ceil(burst / 3))));
  const large = burst - 1 >= COARSE_DRAINS_FROM;
  let gapMs = large ? Math.max(lab.fineMs, Math.min(windowAtLeastMs, windowAtMostMs) / 40) : lab.fineMs;
  const deadline = emptyMs + 1.5 * windowAtMostMs;
  const drains: Drain[] = [];
  // A counter gives a call back within one of those calls: one poll then tells, and polls only go on when it
  // got one (a limiter whose refused calls count would be kept full by them, and read wrong after).
  const probe = yield* drain(lab, emptyMs + Math.max(gapMs, 1 / slowest), 'first window', lab.drainCap());
  drains.push(probe);
  if (probe.allowed === 0 || probe.refusedMs === null) {
    lab.note(
      `first window after the pause: no call back ${Math.round(probe.firstMs - emptyMs)} ms after the counter emptied; not timed there`,
    );
    return { rate: null, drains };
  }
  const from = lab.observations.length;
  const sentMs = lab.observations[from - 1]?.sentMs ?? probe.refusedMs;
  const polled = yield* pollCounter(lab, { probe, sentMs, target, gapMs, deadline, large, windowAtMostMs, burst, emptyMs }, drains);
  const { passed, endMs, firstCrossSentMs, lastCrossMs, quietMs } = polled;
  gapMs = polled.gapMs;
  const widestMs = Math.max(polled.widestMs, lab.worstDelaySince(from));
  const spanMs = endMs - sentMs;
  const byCount = passed >= 2 && spanMs > 0 ? (passed - 1) / spanMs : 0;
  const singles = drains.slice(1).every((d) => d.allowed <= 1);
  const byCrossings =
    singles && firstCrossSentMs !== null && passed >= 2 && lastCrossMs > firstCrossSentMs
      ? (passed - 1) / (lastCrossMs - firstCrossSentMs)
      : 0;
  const rate = Math.max(byCount, byCrossings);
  const why = whyNotTimed({ passed, target, widestMs, gapMs, rate, windowAtLeastMs, burst, quietMs });
  if (why !== null) {
    lab.note(`first window after the pause: ${why}; not timed there`);
    return { rate: null, drains };
  }
  lab.note(
    `first window after the pause: ${passed} calls came back in ${Math.round(spanMs)} ms of polls every ${Math.round(gapMs)} ms = ${perSecond(rate)} (the window after a full bucket of ${full.allowed}: no rest needed)`,
  );
  return { rate, drains };
}

interface CounterPolls {
  /** Calls the polls got back (the probe's not counted). */
  passed: number;
  /** The last poll's refusal, answered. */
  endMs: number;
  /** The longest from one poll's refusal to the next poll's first answer. */
  widestMs: number;
  /** A small bucket's crossings: the refusal sent before the first call back, and the last call back. */
  firstCrossSentMs: number | null;
  lastCrossMs: number;
  /** The longest with no call back. */
  quietMs: number;
  /** The poll gap at the end (a large counter's widens as calls come back). */
  gapMs: number;
}

/**
 * Polls that drain the counter after the probe got a call back, every `gapMs`, until `target` calls came back, the
 * deadline, a drain that did not empty, or the most polls; each poll's drain is added to `drains`.
 */
function* pollCounter(
  lab: Lab,
  p: {
    probe: Drain;
    sentMs: number;
    target: number;
    gapMs: number;
    deadline: number;
    large: boolean;
    windowAtMostMs: number;
    burst: number;
    emptyMs: number;
  },
  drains: Drain[],
): Experiment<CounterPolls> {
  const { probe, target, deadline, large, windowAtMostMs, burst, emptyMs } = p;
  let gapMs = p.gapMs;
  let passed = 0;
  let endMs = probe.refusedMs as number;
  let widestMs = 0;
  // A small bucket: each crossing (one call back) timed within a fine gap, from the first to the last.
  let firstCrossSentMs: number | null = null;
  let lastCrossMs = 0;
  let lastRefusedSentMs = p.sentMs;
  // A counter's calls come back steadily; a sliding log's in clumps, the calls of one drain together.
  let lastBackMs = probe.firstMs;
  let quietMs = 0;
  while (passed < target && lab.lastMs + gapMs <= deadline && drains.length < MAX_POLLS) {
    const d = yield* drain(lab, lab.lastMs + gapMs, 'first window', lab.drainCap());
    drains.push(d);
    widestMs = Math.max(widestMs, d.firstMs - endMs);
    if (d.allowed > 0) {
      firstCrossSentMs ??= lastRefusedSentMs;
      lastCrossMs = d.firstMs;
      quietMs = Math.max(quietMs, d.firstMs - lastBackMs);
      lastBackMs = d.firstMs;
    }
    passed += d.allowed;
    if (d.refusedMs === null) break;
    endMs = d.refusedMs;
    // A pause that followed a late full bucket is short: the calls back so far bound the window from below
    // (one more than came back since the counter emptied, never slower than the truth) and widen the polls.
    const back = passed + probe.allowed;
    if (large && back >= 4) gapMs = Math.max(gapMs, Math.min(windowAtMostMs, (burst * (endMs - emptyMs)) / (back + 1)) / 40);
    lastRefusedSentMs = lab.observations[lab.observations.length - 1]?.sentMs ?? d.refusedMs;
  }
  return { passed, endMs, widestMs, firstCrossSentMs, lastCrossMs, quietMs, gapMs };
}

/**
 * Why the polls after a pause do not time the refill, or null when they do: too few calls back, a poll held up,
 * or a refill that is not linear (faster than the pause allows a window, or no call back for two of its calls).
 */
function whyNotTimed(p: {
  passed: number;
  target: number;
  widestMs: number;
  gapMs: number;
  rate: number;
  windowAtLeastMs: number;
  burst: number;
  quietMs: number;
}): string | null {
  const rateText = perSecond(p.rate);
  if (p.passed < p.target) return `${p.passed} of ${p.target} calls came back`;
  if (p.widestMs > STALLED_GAPS * p.gapMs) return `a poll was held up ${Math.round(p.widestMs)} ms`;
  if (p.rate * p.windowAtLeastMs > p.burst)
    return `${rateText} is faster than ${p.burst} calls in the ${Math.round(p.windowAtLeastMs)} ms the pause proves a window holds: not a linear refill`;
  // A poll held up (sent or answered late) leaves that much longer with no call back: not the refill's.
  const quietMs = p.quietMs - Math.max(0, p.widestMs - p.gapMs);
  if (quietMs > 2 / p.rate + 2 * p.gapMs) return `no call back for ${Math.round(p.quietMs)} ms at ${rateText}: not a linear refill`;
  return null;
}

/** Most polls the first window after a pause may take. */
const MAX_POLLS = 400;

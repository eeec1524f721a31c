/**
 * Split at the reopening (a window whose Remaining said a full bucket came back, on time at its advertised reset):
 * the reopening's call starts a window. A quarter of the burst there, the rest half a window later (the window the
 * call's own Reset advertised), then polls for the next reopening as for the first one (coarse, then a fine gap
 * apart over the last second before the advertised reset): the window's length, bracketed by the last refused
 * poll sent and the allowed one answered. A drain from that call, once the first part had time to leave, stops
 * one call past the first part: a fixed window is full again, a sliding log gives back only the first part.
 *
 * It stands for the reopening drain, the refill sampling and the window refine of a target that says Remaining and
 * Reset: the window's length and its split from one bucket and a quarter.
 * Reading: the split (as split.ts reads it) and the window; or, when the next reopening came before the advertised
 * reset's last second (a weighted counter at its aligned boundary), the drain from it and the pause before it.
 */
import { Stop, drain, drainFrom, spend, type Lab, type Experiment } from '../lab';
import { fineGapOver, pollReopening } from './reopening';
import type { SplitReading } from './split';
import type { Drain, LabObservation } from '../types';

const SECOND = 1000;
/** A window bracket wider than this many fine gaps means a call or its answer stalled. */
const TIGHT_FINE_GAPS = 3;

export interface WindowAtReopening {
  kind: 'window';
  split: SplitReading;
  window: { windowMs: number; precise: boolean; errorMs: number };
  /** What the polls proved of the window: it lies in (lo, hi] ms. */
  bracket: { lo: number; hi: number };
}

/** The next reopening came early: the full bucket the split spent, the last refused poll, and the drain after it. */
export interface EarlyReopening {
  kind: 'early';
  full: Drain;
  lastEmpty: Drain;
  back: Drain;
}

/** A refused call read as an empty drain. */
const emptyDrain = (o: LabObservation): Drain => ({
  firstMs: o.tMs,
  firstSentMs: o.sentMs,
  allowed: 0,
  refusedMs: o.tMs,
  refusedFirst: true,
});

/** `settleMs`: the first part waits this long after the reopening's call (a sliding log's calls still leaving it). */
export function* splitAtReopening(
  lab: Lab,
  start: LabObservation,
  burst: number,
  settleMs = 0,
): Experiment<WindowAtReopening | EarlyReopening> {
  const from = lab.observations.length - 1;
  const firstPart = Math.max(2, Math.ceil(burst / 4));
  const first = yield* spend(lab, start.tMs + settleMs, 'split', firstPart - 1);
  const firstSpanMs = lab.lastMs - start.sentMs;
  // The window its Reset advertised, less the second it is rounded to: the second part falls inside it.
  const advertisedMs = Math.max(0, (start.hints.resetAtMs ?? start.tMs) - start.sentMs);
  const halfMs = Math.max(firstSpanMs + lab.fineMs, (advertisedMs - SECOND) / 2);
  const second = yield* spend(lab, start.tMs + halfMs, 'split', burst - firstPart);
  const halvesRefused = first.refused + second.refused;
  const spent = lab.observations[lab.observations.length - 1] as LabObservation;
  const fineGapMs = fineGapOver(lab, advertisedMs);
  // Toward the reset the start advertised: a sliding log's Reset says when its newest call leaves, its oldest leaves first.
  const polled = yield* pollReopening(lab, spent, burst, false, { gapMs: fineGapMs, zoneMs: SECOND }, start.hints.resetAtMs);
  if (!polled.allowed) throw new Stop(polled.verdict as string);
  const back = polled.allowed;
  if (!polled.onTime) {
    const d = yield* drain(lab, back.tMs, 'split', lab.drainCap(), drainFrom(back));
    lab.note(
      `split: ${firstPart} calls at 0, ${burst - firstPart} at +${Math.round(halfMs)} ms, then calls back ${Math.round(back.tMs - start.tMs)} ms after the start, before the advertised reset's last second (${d.allowed} allowed): sampled as a continuous refill`,
    );
    const firstRefused = lab.observations.slice(from).find((o) => o.status === 429) ?? polled.lastRefused;
    const full: Drain = { firstMs: start.tMs, firstSentMs: start.sentMs, allowed: burst, refusedMs: firstRefused.tMs, refusedFirst: false };
    return { kind: 'early', full, lastEmpty: emptyDrain(polled.lastRefused), back: d };
  }
  const lo = polled.lastRefused.sentMs - start.tMs;
  const hi = back.tMs - start.sentMs;
  const precise = hi - lo <= TIGHT_FINE_GAPS * fineGapMs;
  const windowMs = Math.round(precise ? back.tMs - start.tMs : (lo + hi) / 2);
  // A sliding log frees the first part over the span it was spent in: the drain waits for all of it.
  const d = yield* drain(lab, back.tMs + firstSpanMs + lab.fineMs, 'split', firstPart + 1, drainFrom(back));
  const delayMs = lab.worstDelaySince(from);
  const stalledMs = delayMs > Math.max(2 * lab.fineMs, windowMs / 20) ? delayMs : null;
  lab.note(
    `window ${windowMs} ms${precise ? '' : ` ±${Math.round((hi - lo) / 2)} ms`}: reopened again after the full bucket at the reopening (${polled.polls} polls)`,
  );
  lab.note(
    `split: ${firstPart} calls at 0, ${burst - firstPart} at +${Math.round(halfMs)} ms${halvesRefused ? ` (${halvesRefused} refused)` : ''}, then ${d.allowed}${d.refusedMs === null ? ' (enough)' : ''} allowed at the next reopening (a full bucket is ${burst})` +
      (stalledMs === null ? '' : `; a call was held up ${Math.round(stalledMs)} ms: stalled`),
  );
  return {
    kind: 'window',
    split: { drained: d.allowed, firstHalf: firstPart, secondHalf: burst - firstPart, burst, drain: d, stalledMs, halvesRefused },
    window: { windowMs, precise, errorMs: precise ? fineGapMs : (hi - lo) / 2 },
    bracket: { lo, hi },
  };
}

/**
 * Reopening: waits for the first allowed call after the exhaustion's refusal, following Retry-After and
 * every new Reset value (toward a full reset: coarse polls, then fine ones over its last second, since it is
 * rounded to the second), backing off without them (the gap doubles each poll). Then drains the reopened
 * bucket, unless its Remaining said a full bucket came back on time (a window: the split starts from it).
 *
 * Reading: the drain from the first allowed call (or that call, when full), and whether the advertised reopening
 * moved after refused calls (they count). Gives up at the wait cap with a verdict.
 */
import { allowedOf, call, drain, drainFrom, type Lab, type Experiment } from '../lab';
import type { Drain, LabObservation } from '../types';

export interface ReopeningReading {
  /** The drain that started with the first allowed call; null when it never came (see `verdict`) or was full. */
  drain: Drain | null;
  /** The first allowed call came before the fine polls toward the advertised full reset (see `Polled`). */
  early: boolean;
  /** A full bucket said back on time at the advertised reset, not drained: its first call and the refusal before it. */
  full: { allowed: LabObservation; lastRefused: LabObservation; settleMs: number } | null;
  /** The advertised reopening moved after refused calls: true; null when not known. */
  reopeningMoved: boolean | null;
  verdict: string | null;
}

const SECOND = 1000;
/** A reset this far off is read at once (toward it, then split from it): its rounding second is a quarter of it at most. */
export const LONG_WINDOW_MS = 4 * SECOND;

/**
 * The time a poll follows, as the call advertised it: the full reset first (a full bucket gives a clean drain);
 * when `refilling`, the time of the next call (Retry-After, or one burst's share of the way to Reset). Null: none advertised.
 */
function pollHint(o: LabObservation, burst: number, refilling: boolean): number | null {
  const reset = o.hints.resetAtMs;
  return refilling
    ? (o.hints.retryAtMs ?? (reset !== null && reset > o.tMs ? o.tMs + (reset - o.tMs) / burst : reset))
    : (reset ?? o.hints.retryAtMs);
}

/** The reading when the next poll would pass the wait cap: no drain, with the polls sent and how they were spaced. */
function notReopened(lab: Lab, p: { polls: number; gap: number; hint: number | null; moved: boolean }): string {
  const why = p.moved || p.hint !== null ? 'refused calls appear to count' : 'refused calls appear to count, or the window is longer';
  const spacing = p.hint === null ? `, spaced up to ${p.gap / 2} ms` : ', following the advertised reset';
  return `did not reopen within ${Math.round(lab.cfg.maxWaitMs / 1000)} s (${p.polls} polls${spacing}); ${why}`;
}

/** The polls that waited for a reopening: the first allowed one, or none within the wait cap. */
export interface Polled {
  /** The first allowed poll; null when the next poll would pass the wait cap (see `verdict`). */
  allowed: LabObservation | null;
  /** The refused poll before it (the call the polls started from when none was refused). */
  lastRefused: LabObservation;
  /** The allowed poll came within the last second before an advertised reset, polled a fine gap apart. */
  onTime: boolean;
  /** The allowed poll came before the fine polls toward a full reset (before a sliding log gives a call back). */
  early: boolean;
  polls: number;
  moved: boolean;
  verdict: string | null;
}

/**
 * Polls from `from` (a refusal, or the call that emptied the bucket) until one is allowed, following Retry-After and
 * every new Reset value, backing off without them (the gap doubles each poll): one poll at the advertised time
 * (rounded up, so never early). Given `fine`, toward a full reset (not `refilling`) the polls go an eighth
 * of the wait apart until its last `zoneMs` (the second it is rounded to, and the span of the calls it counts), then
 * `gapMs` apart: a reset in whole seconds names its window's end within that second, which the fine polls find, and a
 * reopening before it (a weighted counter's, at its aligned boundary) is caught by the coarse ones. `resetAtMs`:
 * the reset to poll toward, whatever the polls advertise.
 */
export function* pollReopening(
  lab: Lab,
  from: LabObservation,
  burst: number,
  refilling: boolean,
  fine: FinePolls | null = null,
  resetAtMs: number | null = null,
): Experiment<Polled> {
  const refusedAt = from.tMs;
  const deadline = refusedAt + lab.cfg.maxWaitMs;
  let gap = lab.cfg.backoffStartMs ?? 50;
  const advertised = { lastHint: null as number | null, promised: null as number | null, moved: false };
  let polls = 0;
  let share = 1;
  let o = from;
  let lastRefused = from;
  for (;;) {
    const hint = resetAtMs ?? pollHint(o, burst, refilling);
    // Refilling, the poll's time is a share of the way to the full reset: whether that moved tells.
    followHint(lab, advertised, o, refilling && resetAtMs === null ? o.hints.resetAtMs : hint, refilling, refusedAt);
    const { moved } = advertised;
    let next: number;
    if (hint === null || hint <= o.tMs) {
      next = o.tMs + gap;
      gap *= 2;
    } else if (refilling) {
      // From the fourth refused poll on, each doubles the share of the way to the full reset (a log whose
      // exhaustion crossed a second of its Reset looks refilling: its calls come back only at the reset).
      next = Math.min(o.tMs + (hint - o.tMs) * share, Math.max(hint, o.hints.resetAtMs ?? hint)) + 5;
      if (polls >= 3) share *= 2;
    } else next = fine === null ? hint + 5 : towardReset(o.tMs, hint, refusedAt, fine);
    if (next > deadline) {
      const verdict = notReopened(lab, { polls, gap, hint, moved });
      return { allowed: null, lastRefused, onTime: false, early: false, polls, moved, verdict };
    }
    const sentAfter = o;
    o = yield* call(lab, next, 'reopening');
    polls += 1;
    if (allowedOf(o)) {
      const zoneFromMs = fine !== null && !refilling && hint !== null ? hint - fine.zoneMs - 2 * fine.gapMs : null;
      return { ...whenAllowed(o, sentAfter, zoneFromMs), allowed: o, lastRefused, polls, moved, verdict: null };
    }
    lastRefused = o;
  }
}

/** An allowed poll `o` after `before`, against the fine zone toward a full reset (from `zoneFromMs`; null: none). */
function whenAllowed(o: LabObservation, before: LabObservation, zoneFromMs: number | null): Pick<Polled, 'onTime' | 'early'> {
  if (zoneFromMs === null) return { onTime: false, early: false };
  return { onTime: before.status === 429 && before.sentMs >= zoneFromMs, early: o.sentMs < zoneFromMs };
}

/**
 * The advertised reopening after poll `o`: moved (refused calls count) when it jumped by a second or more, or when
 * the first one passed and the call was still refused (toward a full reset).
 */
function followHint(
  lab: Lab,
  a: { lastHint: number | null; promised: number | null; moved: boolean },
  o: LabObservation,
  hint: number | null,
  refilling: boolean,
  refusedAt: number,
): void {
  const broken = a.promised !== null && o.status === 429 && o.tMs >= a.promised;
  if (hint !== null && a.lastHint !== null && (hint - a.lastHint >= SECOND || (broken && !refilling)) && !a.moved) {
    a.moved = true;
    lab.note(
      `the advertised reopening moved from +${a.lastHint - refusedAt} ms to +${hint - refusedAt} ms after refused calls: they count`,
    );
  }
  if (hint !== null) a.lastHint = hint;
  if (a.promised === null) a.promised = hint;
}

/** Fine polls toward a full reset: their gap, and how long before the reset they start. */
export interface FinePolls {
  gapMs: number;
  zoneMs: number;
}

/** The next poll toward a full reset at `hint`: coarse until its fine zone, a poll just before it, then fine. */
function towardReset(nowMs: number, hint: number, fromMs: number, fine: FinePolls): number {
  const zoneStart = hint - fine.zoneMs;
  const coarse = Math.max(fine.gapMs, (hint - fromMs) / 8);
  if (nowMs + coarse < zoneStart - fine.gapMs) return nowMs + coarse;
  return Math.min(hint + 5, Math.max(nowMs + fine.gapMs, zoneStart - fine.gapMs));
}

/** Whether an allowed call's Remaining says a full bucket is back (its own call taken). */
export function fullBucketSaid(o: LabObservation, burst: number): boolean {
  const remaining = o.hints.remaining;
  return remaining !== null && remaining + 1 >= burst - Math.floor(burst / 10);
}

/**
 * `refilling`: the advertised Reset moved between the exhaustion's calls (a continuous refill, where Reset is
 * when the whole bucket is back): the poll goes at the time of the next call instead, Retry-After or one
 * burst's share of the way to Reset, so the reopened drain holds a call or two rather than a bucket.
 * Given `atOnce`, a reopening on time at an advertised reset of a few seconds, Remaining said, is not drained
 * (`full`): a split starts from it, `settleMs` later when Remaining said less than a full bucket (`spreadMs`: how
 * long the exhaustion took).
 */
export function* reopening(
  lab: Lab,
  refusal: LabObservation,
  burst: number,
  refilling: boolean,
  atOnce: { spreadMs: number } | null = null,
): Experiment<ReopeningReading> {
  const hint = refusal.hints.resetAtMs ?? refusal.hints.retryAtMs;
  // A window of a few seconds at least: the second its reset is rounded to is a small part of it.
  const long = atOnce !== null && hint !== null && hint - refusal.tMs >= LONG_WINDOW_MS;
  // A sliding log gives its calls back over the span they were spent in, its first that long before its Reset.
  const fine = long ? { gapMs: fineGapFor(lab, refusal), zoneMs: SECOND + atOnce.spreadMs } : null;
  const polled = yield* pollReopening(lab, refusal, burst, refilling, fine);
  const o = polled.allowed;
  if (!o) return { drain: null, full: null, early: false, reopeningMoved: polled.moved || null, verdict: polled.verdict };
  lab.note(`reopened ${o.tMs - refusal.tMs} ms after the 429 (${polled.polls} polls)`);
  const longWindow = (o.hints.resetAtMs ?? o.tMs) - o.tMs >= LONG_WINDOW_MS;
  if (atOnce && polled.onTime && longWindow && o.hints.remaining !== null) {
    // A sliding log gives the exhaustion's calls back as they leave it, over the span they were spent in.
    const settleMs = fullBucketSaid(o, burst) ? 0 : atOnce.spreadMs + lab.fineMs;
    lab.note(
      `reopening: at the advertised reset, Remaining ${o.hints.remaining}: not drained${settleMs ? ` (the exhaustion's calls back ${Math.round(settleMs)} ms later)` : ''}`,
    );
    const full = { allowed: o, lastRefused: polled.lastRefused, settleMs };
    return { drain: null, full, early: false, reopeningMoved: polled.moved, verdict: null };
  }
  // The allowed poll is the first call of a drain.
  const d = yield* drain(lab, o.tMs, 'reopening', lab.drainCap(), drainFrom(o));
  return { drain: d, full: null, early: polled.early, reopeningMoved: polled.moved, verdict: null };
}

/** Fine polls toward the reset `from` advertised (fineGapOver). */
export function fineGapFor(lab: Lab, from: LabObservation): number {
  const hint = from.hints.resetAtMs ?? from.hints.retryAtMs;
  return fineGapOver(lab, hint !== null && hint > from.tMs ? hint - from.tMs : 0);
}

/**
 * Fine polls toward a reset this far off go a fortieth of it apart (a fine gap at least): a window read within 2.5 %
 * of itself, half the 5 % the pacing keeps in hand.
 */
export const fineGapOver = (lab: Lab, waitMs: number): number => Math.max(lab.fineMs, waitMs / 40);

/**
 * Reopening: waits for the first allowed call after the exhaustion's refusal, following Retry-After and
 * every new Reset value (one poll at the advertised time, which is rounded up, so never early), backing
 * off without them (the gap doubles each poll). Then drains the reopened bucket.
 *
 * Reading: the drain from the first allowed call, and whether the advertised reopening moved after refused
 * calls (they count). Gives up at the wait cap with a verdict.
 */
import { allowedOf, call, drain, drainFrom, type Lab, type Experiment } from '../lab';
import type { Drain, LabObservation } from '../types';

export interface ReopeningReading {
  /** The drain that started with the first allowed call; null when it never came (see `verdict`). */
  drain: Drain | null;
  /** The advertised reopening moved after refused calls: true; null when not known. */
  reopeningMoved: boolean | null;
  verdict: string | null;
}

const SECOND = 1000;

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
function notReopened(lab: Lab, p: { polls: number; gap: number; hint: number | null; moved: boolean }): ReopeningReading {
  const why = p.moved || p.hint !== null ? 'refused calls appear to count' : 'refused calls appear to count, or the window is longer';
  const spacing = p.hint === null ? `, spaced up to ${p.gap / 2} ms` : ', following the advertised reset';
  return {
    drain: null,
    reopeningMoved: p.moved || null,
    verdict: `did not reopen within ${Math.round(lab.cfg.maxWaitMs / 1000)} s (${p.polls} polls${spacing}); ${why}`,
  };
}

/**
 * `refilling`: the advertised Reset moved between the exhaustion's calls (a continuous refill, where Reset is
 * when the whole bucket is back): the poll goes at the time of the next call instead, Retry-After or one
 * burst's share of the way to Reset, so the reopened drain holds a call or two rather than a bucket.
 */
export function* reopening(lab: Lab, refusal: LabObservation, burst: number, refilling: boolean): Experiment<ReopeningReading> {
  const refusedAt = refusal.tMs;
  const deadline = refusedAt + lab.cfg.maxWaitMs;
  let gap = lab.cfg.backoffStartMs ?? 50;
  let lastHint: number | null = null;
  let promised: number | null = null;
  let moved = false;
  let polls = 0;
  let o = refusal;
  for (;;) {
    const hint = pollHint(o, burst, refilling);
    // The first advertised time passed and the call was still refused, or the advertised time jumped.
    const broken = promised !== null && o.status === 429 && o.tMs >= promised;
    if (hint !== null && lastHint !== null && (hint - lastHint >= SECOND || (broken && !refilling)) && !moved) {
      moved = true;
      lab.note(
        `the advertised reopening moved from +${lastHint - refusedAt} ms to +${hint - refusedAt} ms after refused calls: they count`,
      );
    }
    if (hint !== null) lastHint = hint;
    if (promised === null) promised = hint;
    let next: number;
    if (hint === null || hint <= o.tMs) {
      next = o.tMs + gap;
      gap *= 2;
    } else next = hint + 5;
    if (next > deadline) return notReopened(lab, { polls, gap, hint, moved });
    o = yield* call(lab, next, 'reopening');
    polls += 1;
    if (allowedOf(o)) break;
  }
  lab.note(`reopened ${o.tMs - refusedAt} ms after the 429 (${polls} polls)`);
  // The allowed poll is the first call of a drain.
  const d = yield* drain(lab, o.tMs, 'reopening', lab.drainCap(), drainFrom(o));
  return { drain: d, reopeningMoved: moved, verdict: null };
}

/**
 * Window refine (window-like refill only): fine polls around the next predicted reopening → the window's
 * length, bracketed by the send of the last refusal and the answer of the first allowed call.
 *
 * A refused call proves the reopening came after it was sent (the target decided between send and answer),
 * an allowed one that it came before its answer arrived; the window start lies between the send and the
 * answer of the full bucket's first call too. So the window lies in (last refusal sent − start answered,
 * allowed answered − start sent]. A tight bracket (one fine gap and the calls' own answer times) reads as the
 * allowed answer less the start's. A wide one (a stalled call or answer) is measured once more in the next
 * window, and the two brackets are intersected.
 * Reading: the window (ms, precise or ± half a bracket) and where the split can start.
 */
import { Stalled, Stop, allowedOf, call, drain, drainFrom, margin, type Lab, type Experiment } from '../lab';
import type { WindowRef } from './refill-sampling';
import type { Drain, LabObservation } from '../types';

/** A window known to lie in (lo, hi] ms, measured from a start sent at `startSentMs`. */
interface WindowBracket {
  lo: number;
  hi: number;
  startSentMs: number;
}

/** A window bracket wider than this many fine gaps means a call or its answer stalled. */
const TIGHT_FINE_GAPS = 3;

export interface WindowReading {
  windowMs: number;
  /** Known within a few fine gaps. */
  precise: boolean;
  /** ± this many ms: half the bracket the window is known in (a fine gap when precise). */
  errorMs: number;
  /**
   * The split starts from the refine's allowed call (a full bucket's first call) at `startMs`, or after a rest
   * at `restAt`; its period is the window's upper bound (a period too short would read a sliding window's
   * calls as still inside it).
   */
  splitStart: ({ startMs: number } | { restAt: number }) & { periodMs: number };
}

/** What the sampling alone says of the window: a full bucket again between the last empty drain and the full one. */
export function samplingBracket(lab: Lab, windowRef: WindowRef): { lo: number; hi: number } {
  const lo = windowRef.before.firstMs - windowRef.ref.firstMs;
  const hi = windowRef.boundary.firstMs - windowRef.ref.firstMs;
  lab.note(`window-like refill: a full bucket ${lo}..${hi} ms after the previous reopening`);
  return { lo, hi };
}

export function* refineWindow(lab: Lab, w: WindowRef, burst: number): Experiment<WindowReading> {
  const { ref, before, boundary } = w;
  const lo = before.firstMs - ref.firstMs;
  const hi = boundary.firstMs - ref.firstMs;
  const reopenedMs = boundary.firstMs;
  // What the sampling proves: the empty drain was refused after it was sent, the full one allowed before it answered.
  const proven = { lo: before.firstSentMs - ref.firstMs, hi: boundary.firstMs - ref.firstSentMs, startSentMs: ref.firstSentMs };
  // A drain whose first answer came late would start the polls after the reopening: start from the sends then.
  // Polls a fine gap apart, or 1.5 % of the window apart for a long one (60 s: 900 ms, well within 5 %).
  const pollGapMs = Math.max(lab.fineMs, hi / 66);
  const late = (d: Drain): boolean => d.firstMs - d.firstSentMs > pollGapMs;
  const from = late(before) || late(boundary) ? boundary.firstSentMs + proven.lo : reopenedMs + lo;
  const until = reopenedMs + (late(ref) ? proven.hi : hi);
  const first = yield* pollReopening(lab, pollGapMs, boundary, from - pollGapMs, until + 2 * pollGapMs, proven, false);
  const read = readBracket(pollGapMs, boundary, first, proven);
  if (read.tight) return precise(lab, pollGapMs, first.allowed, boundary, '', first.polls);
  const why = `a stalled call or answer left it within ${Math.round(read.hi - read.lo)} ms`;
  // The allowed call opened the next window: empty it and poll for its end within the same bracket.
  lab.note(
    `window ${Math.round(read.lo)}..${Math.round(read.hi)} ms (${why}, ${first.polls} fine polls): measured again in the next window`,
  );
  const next = yield* drain(lab, first.allowed.tMs, 'window refine', lab.drainCap(), drainFrom(first.allowed));
  // Only a full bucket from that call ends one window after it (a sliding log may still hold older calls).
  if (next.refusedMs === null || next.allowed < burst)
    return afterRest(lab, pollGapMs, read, `${why}; the next window held ${next.allowed} calls, not a full bucket`);
  const bracket = { lo: read.lo, hi: read.hi, startSentMs: boundary.firstSentMs };
  const second = yield* pollReopening(
    lab,
    pollGapMs,
    next,
    next.firstSentMs + read.lo - pollGapMs,
    next.firstMs + read.hi + 2 * pollGapMs,
    bracket,
    true,
  );
  const again = readBracket(pollGapMs, next, second, bracket);
  if (again.tight) return precise(lab, pollGapMs, second.allowed, next, ' in the next window', second.polls);
  // Both brackets hold the window: their overlap. The call that opened this window came after the
  // previous one closed, so two windows fit between the previous start's send and this answer.
  const o = second.allowed;
  const both = { lo: Math.max(again.lo, bracket.lo), hi: Math.min(again.hi, bracket.hi, (o.tMs - bracket.startSentMs) / 2) };
  // Reopened before the first poll, or outside the previous bracket (the model does not hold): the previous one stays.
  if (second.lastRefusedSentMs === null || both.lo > both.hi)
    return afterRest(lab, pollGapMs, bracket, `the next window reopened outside ${Math.round(bracket.lo)}..${Math.round(bracket.hi)} ms`);
  const windowMs = reportWindow(
    lab,
    both,
    `a stalled call or answer left it within ${Math.round(again.hi - again.lo)} ms in the next window, ${second.polls} fine polls`,
  );
  return {
    windowMs,
    precise: both.hi - both.lo <= TIGHT_FINE_GAPS * pollGapMs,
    errorMs: (both.hi - both.lo) / 2,
    splitStart: { startMs: o.tMs, periodMs: both.hi },
  };
}

interface Reopened {
  allowed: LabObservation;
  /** The longest a poll was held up (sent late or answered late), ms. */
  heldMs: number;
  lastRefusedSentMs: number | null;
  polls: number;
}

/** Polls every fine gap from `from` for the reopening one window after `start`; stops at `until`. */
function* pollReopening(
  lab: Lab,
  pollGapMs: number,
  start: Drain,
  from: number,
  until: number,
  known: WindowBracket,
  again: boolean,
): Experiment<Reopened> {
  const first = lab.observations.length;
  let polls = 0;
  let lastRefusedSentMs: number | null = null;
  let at = from;
  for (;;) {
    const o = yield* call(lab, at, 'window refine');
    polls += 1;
    if (allowedOf(o)) return { allowed: o, lastRefusedSentMs, polls, heldMs: lab.worstDelaySince(first) };
    if (o.tMs + pollGapMs > until) {
      const why = `no reopening ${Math.round(from - start.firstMs)}..${Math.round(until - start.firstMs)} ms after the previous full bucket although ${again ? 'the previous window reopened' : 'the sampling saw one'} within ${Math.round(known.lo)}..${Math.round(known.hi)} ms (${polls} polls)`;
      // A held-up poll may have missed the reopening: that says nothing of refused calls.
      const heldMs = lab.worstDelaySince(first);
      if (heldMs > 2 * pollGapMs) throw new Stalled(`${why}; a poll was held up ${Math.round(heldMs)} ms`);
      throw new Stop(`${why}; refused calls appear to count`);
    }
    lastRefusedSentMs = o.sentMs;
    at = o.tMs + pollGapMs;
  }
}

/** The bracket the polls give, and whether it is tight. `known`: the bracket before these polls. */
function readBracket(pollGapMs: number, start: Drain, r: Reopened, known: WindowBracket): { lo: number; hi: number; tight: boolean } {
  const o = r.allowed;
  const hi = o.tMs - start.firstSentMs;
  // The first poll allowed (it came late): no refusal bounds the window from below, what was known still does.
  const lo = r.lastRefusedSentMs === null ? known.lo : r.lastRefusedSentMs - start.firstMs;
  // Without a refusal only a stalled first poll is measured again; an early reopening (a limiter the window model
  // fits badly, a sliding counter read as a window) reads as before: the split tells.
  const stalled = (r.heldMs > pollGapMs || start.firstMs - start.firstSentMs > pollGapMs) && lo <= hi;
  const tight = r.lastRefusedSentMs === null ? !stalled : hi - lo <= TIGHT_FINE_GAPS * pollGapMs;
  return { lo, hi, tight };
}

function precise(lab: Lab, pollGapMs: number, o: LabObservation, start: Drain, repeat: string, polls: number): WindowReading {
  const windowMs = Math.round(o.tMs - start.firstMs);
  lab.note(`window ${windowMs} ms: reopened again after the previous full bucket${repeat} (${polls} fine polls)`);
  return { windowMs, precise: true, errorMs: pollGapMs, splitStart: { startMs: o.tMs, periodMs: windowMs } };
}

/** The window from a bracket, then the split from a bucket rested full (the refine left it partly spent). */
function afterRest(lab: Lab, pollGapMs: number, w: { lo: number; hi: number }, why: string): WindowReading {
  const windowMs = reportWindow(lab, w, why);
  // `margin` with burst 1: a window's margin does not depend on it.
  return {
    windowMs,
    precise: w.hi - w.lo <= TIGHT_FINE_GAPS * pollGapMs,
    errorMs: (w.hi - w.lo) / 2,
    splitStart: { restAt: lab.lastMs + w.hi + margin(lab, w.hi, true, 1), periodMs: w.hi },
  };
}

/**
 * A window known only within a bracket: its middle, ± half of it. The split then waits for the bracket's
 * end: a period too short would read a sliding window's calls as still inside it.
 */
function reportWindow(lab: Lab, w: { lo: number; hi: number }, why: string): number {
  const half = (w.hi - w.lo) / 2;
  const windowMs = Math.round(w.lo + half);
  lab.note(`window ${windowMs} ms ±${Math.round(half)} ms (${why}): reopened again after the previous full bucket`);
  return windowMs;
}

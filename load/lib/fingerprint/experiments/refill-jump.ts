/**
 * A refill that sped up between two drains: a weighted sliding counter's aligned boundary, the window before it holding
 * only part of a bucket (an exhaustion that straddled the boundary before), the one after it what the drains took
 * since (a token bucket refills at one rate, and a sliding log gives back what it took a window before: the
 * sampling reads it as a window). The window after the boundary is timed at once from the drain that showed it
 * (first-window-rate.ts, `timedInWindow`): its rate, never faster than the truth, is the count of the window before
 * over the window, a bucket less what the slow refill gave back before the boundary.
 */
import { perSecond, type Experiment, type Lab } from '../lab';
import type { Drain } from '../types';
import { COARSE_DRAINS_FROM, timedInWindow } from './first-window-rate';

/** The rates around the speed-up (calls per ms): the most the drains before can have got, the least the last one did. */
export interface Speedup {
  slow: number;
  fast: number;
}

/** The speed-up and the window after it timed: `rate` null when too few calls came back, `stalled` when a call was held up. */
export interface RefillJump extends Speedup {
  rate: number | null;
  stalled: boolean;
}

/** The last drain's rate over this many times the drains' before it, each as the calls' sends and answers allow. */
const JUMP = 2;
/** The last drain's calls at least: one call's error is a quarter of them. */
const MIN_FAST_CALLS = 4;

/**
 * The speed-up the last of `drains` shows over the ones before it since the first with calls back (each following
 * the previous one's refusal, the first `from`'s), or null; only for a bucket of COARSE_DRAINS_FROM calls or more.
 */
export function speedupOf(drains: Drain[], from: Drain, burst: number): Speedup | null {
  // A small counter's window is timed by fine crossings (first-window-rate.ts), not by calls back.
  if (burst < COARSE_DRAINS_FROM) return null;
  const k = drains.length - 1;
  const last = drains[k];
  const prev = drains[k - 1];
  const lead = drains.findIndex((d) => d.allowed > 0);
  if (!last || !prev || lead === -1 || lead >= k || last.allowed < MIN_FAST_CALLS || last.refusedMs === null) return null;
  const startMs = (lead > 0 ? drains[lead - 1]?.refusedMs : from.refusedMs) as number;
  const slowCalls = drains.slice(lead, k).reduce((a, d) => a + d.allowed, 0);
  // One call more over the shortest span; one call less over the longest (from the drain before's first send).
  const slow = (slowCalls + 1) / Math.max(1, (prev.refusedMs as number) - startMs);
  const fast = (last.allowed - 1) / (last.refusedMs - prev.firstSentMs);
  return fast > JUMP * slow ? { slow, fast } : null;
}

/**
 * When the last of the sampling's `drains` shows a speed-up, the window after it, timed from that drain's refusal
 * (the lab's latest observation); null: none.
 */
export function* timedIfSpedUp(lab: Lab, drains: Drain[], p: { from: Drain; burst: number }, gapMs: number): Experiment<RefillJump | null> {
  const s = speedupOf(drains, p.from, p.burst);
  if (!s) return null;
  lab.note(
    `refill sampling: ${drains.map((d) => d.allowed).join(', ')} calls per drain: the refill sped up from ${perSecond(s.slow)} at most to ${perSecond(s.fast)} at least`,
  );
  const { burst } = p;
  const emptiedMs = lab.observations[lab.observations.length - 1]?.tMs ?? lab.lastMs;
  const timed = yield* timedInWindow(
    lab,
    { periodMs: burst / s.fast, drainsRate: s.fast },
    { rested: null, emptiedMs, pausedMs: null, gapMs, after: 'the refill sped up' },
  );
  return { ...s, rate: timed.rate, stalled: timed.stalled };
}

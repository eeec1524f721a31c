/**
 * Pause ends: a full bucket, empty drains, then calls back, read as a weighted sliding counter's window after
 * the full one when the pause is longer than a few calls of the refill that followed (a token bucket refills
 * within one call). Shared by the reopening (reopening-settle.ts) and the refill sampling (refill-sampling.ts).
 */
import { drain, type Lab, type Experiment } from '../lab';
import type { PauseEnd } from './first-window-after-pause';
import type { Drain } from '../types';

/**
 * After a partial reopening: one drain more, as long after it as the reopening's last poll gap (at most half of
 * what the pause proves a window holds, so inside the window the reopening found), read with the reopening as
 * one drain from its first call; its own calls timed from the reopening's refusal sent (a bucket's rate no
 * slower than one call less over that span).
 */
export function* oneMore(
  lab: Lab,
  full: Drain,
  lastEmpty: Drain,
  back: Drain,
): Experiment<{ merged: Drain; calls: number; spanMs: number }> {
  const fromSentMs = lab.observations[lab.observations.length - 1]?.sentMs ?? (back.refusedMs as number);
  const waitMs = Math.min((back.refusedMs as number) - lastEmpty.firstSentMs, (lastEmpty.firstSentMs - full.firstMs) / 2);
  const more = yield* drain(lab, (back.refusedMs as number) + Math.max(lab.fineMs, waitMs), 'reopening', lab.drainCap());
  if (more.refusedMs === null) return { merged: back, calls: 0, spanMs: 0 };
  return { merged: merged([back, more]) as Drain, calls: more.allowed, spanMs: more.refusedMs - fromSentMs };
}

/**
 * A full bucket, then no call back for longer than two calls of the refill that followed, and one more for each
 * of the k refused polls in the pause (where refused calls count, each pushes a bucket's refill one call later).
 * Timed never longer than it can have been: the pause from the full bucket's refusal answered to the last empty
 * poll sent; a call of the refill either all n calls back since that poll was sent over their span (n at least
 * 4 + 2k), or the drain after the reopening (one call less than it got over its span, three calls or more).
 * A token bucket cannot show it: its pause is under k + 1 calls, and its n calls back (less its debt) took at
 * least n - 1 of them from when it emptied. (A sliding log's slow exhaustion can: its calls come back in clumps,
 * which the timing refuses.)
 */
export function partialPause(
  full: Drain,
  lastEmpty: Drain,
  refusedPolls: number,
  more: { merged: Drain; calls: number; spanMs: number },
  burst: number,
): PauseEnd | null {
  const back = more.merged;
  if (full.refusedMs === null || back.allowed < 3 || back.refusedMs === null || full.allowed < burst) return null;
  const pausedMs = lastEmpty.firstSentMs - full.refusedMs;
  const perCallMs = Math.min(
    back.allowed >= 4 + 2 * refusedPolls ? (back.refusedMs - lastEmpty.firstSentMs) / back.allowed : Infinity,
    more.calls >= 3 ? more.spanMs / (more.calls - 1) : Infinity,
  );
  return pausedMs > (2 + refusedPolls) * perCallMs ? { full, lastEmpty, back, burst } : null;
}

/** Drains one after another read as one: from the first's first call to the last's refusal, their calls summed. */
export function merged(drains: Drain[]): Drain | null {
  const first = drains[0];
  const last = drains[drains.length - 1];
  if (!first || !last) return null;
  return { ...first, allowed: drains.reduce((a, d) => a + d.allowed, 0), refusedMs: last.refusedMs };
}

/** A full bucket, an empty drain, then one with calls back, the pause longer than `calls` calls of its refill. */
export function pauseOf(full: Drain, lastEmpty: Drain, back: Drain, burst: number, calls: number): PauseEnd | null {
  if (full.refusedMs === null || back.allowed < 2 || back.refusedMs === null) return null;
  const pausedMs = lastEmpty.firstMs - full.refusedMs;
  const perCallMs = (back.refusedMs - (lastEmpty.refusedMs as number)) / back.allowed;
  return pausedMs > calls * perCallMs ? { full, lastEmpty, back, burst } : null;
}

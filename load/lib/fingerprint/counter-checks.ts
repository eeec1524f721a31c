/** A weighted sliding counter's refusals, and the most any limiter's refusals allow (consistency.ts). */
import { allowedOf } from './lab';
import type { LabObservation } from './types';

/**
 * Refusals a weighted sliding counter of window `windowMs` cannot give (their answer times). At a time d inside
 * the aligned window that began at b, it counts the calls since b and those of the window before at the weight
 * 1 - (d - b) / window, and refuses from `need` on. The aligned boundary is unknown: a refusal is explained when
 * some boundary in the window before it gives `need`, each call counted as leniently as its send and answer allow
 * (in the current window when answered at b or later, in the one before when sent before b and answered at
 * b - window or later; the weight taken at the refusal's send). Between two of the calls' times the count only
 * grows with b, so the boundaries tried are the latest that still count each call: its answer, and its answer
 * plus a window. A sliding log read as a counter fails here: after a full bucket, a counter's refusals stop
 * within one window, when the next boundary's weight lets calls back; a log's last until its calls leave it.
 */
export function counterUnexplained(
  obs: readonly LabObservation[],
  allowed: readonly LabObservation[],
  need: number,
  windowMs: number,
): number[] {
  const answers = allowed.map((a) => a.tMs).sort((x, y) => x - y);
  const sends = allowed.map((a) => a.sentMs).sort((x, y) => x - y);
  const bad: number[] = [];
  for (const o of obs) {
    if (allowedOf(o)) continue;
    // Calls sent after the refusal came back were decided after it.
    const later = sends.length - countBelow(sends, o.tMs, true);
    const countAt = (b: number): number => {
      const current = answers.length - countBelow(answers, b, false) - later;
      const previous = countBelow(sends, b, false) - countBelow(answers, b - windowMs, false);
      const weight = 1 - Math.max(0, o.sentMs - b) / windowMs;
      return current + previous * weight;
    };
    const from = o.sentMs - windowMs;
    let explained = countAt(o.tMs) >= need;
    for (let i = countBelow(answers, from - windowMs, true); i < answers.length && !explained; i++) {
      const t = answers[i] as number;
      if (t > o.tMs) break;
      explained = (t > from && countAt(t) >= need) || (t + windowMs > from && t + windowMs <= o.tMs && countAt(t + windowMs) >= need);
    }
    if (!explained) bad.push(o.tMs);
  }
  return bad;
}

/**
 * Calls per ms no limiter exceeds that refused a call once `burst` allowed calls had come over the span before it:
 * a window or a log held them all when it refused (its window is longer than the span), and a bucket refilled less
 * than a call more than it passed (burst + 1 calls over the span at most). The span runs from the answer of the
 * `burst`-th latest allowed call to the refusal's send, the shortest it can have been. A weighted counter may hold
 * them over two windows: its ceiling may fall to half its rate, slower than the truth, never faster. Null when no
 * refusal came after `burst` allowed calls.
 */
export function refusalCeiling(obs: readonly LabObservation[], burst: number): number | null {
  const allowed: LabObservation[] = [];
  let longestMs = 0;
  for (const o of obs) {
    if (allowedOf(o)) {
      allowed.push(o);
      continue;
    }
    const oldest = allowed[allowed.length - burst];
    if (oldest) longestMs = Math.max(longestMs, o.sentMs - oldest.tMs);
  }
  return longestMs > 0 ? (burst + 1) / longestMs : null;
}

/** How many of the sorted `xs` are below `x` (or at most `x` when `inclusive`). */
function countBelow(xs: readonly number[], x: number, inclusive: boolean): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const v = xs[mid] as number;
    if (v < x || (inclusive && v === x)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The reopening settled before the refill sampling: a partial reopening (a sliding log freeing the slots of a
 * slow exhaustion one by one) first rests until all of them are free and drains again, so the drains after it start
 * from a clustered full bucket; not one that came before a log can give a call back, nor a refill its Reset said.
 * One after a pause (a weighted sliding counter) is timed at once in the window after the full bucket. Plans the sampling's gaps from the drain it follows.
 */
import { Stop, allowedOf, drain, type Lab, type Experiment } from '../lab';
import { firstWindowAfterPause, type PauseEnd } from './first-window-after-pause';
import { oneMore, partialPause, pauseOf } from './pause-ends';
import { timed, type SamplingReading } from './refill-sampling';
import type { Drain } from '../types';

export interface ReopenedBucket {
  /** The drain the sampling follows. */
  drain: Drain;
  /** After a partial reopening: the drain after a rest (a full bucket), and when the rest began. */
  rested: { drain: Drain; fromMs: number } | null;
  gapMs: number;
  maxGapMs: number;
  /**
   * The exhaustion's full bucket, refused polls for longer than four calls of the refill that followed, then a
   * partial bucket: a weighted sliding counter's window after the full one (a token bucket's refill comes
   * within one call, within a few when its refused calls left a debt). Null: not so, or rested since.
   */
  pause: PauseEnd | null;
  /** A partial reopening after a pause, timed at once in the window after the full bucket (no sampling needed). */
  timed: SamplingReading | null;
  /**
   * The drain the sampling follows is the reopening itself, a partial bucket refilled since the exhaustion's refusal
   * (answered at this ms) with no rest nor other drain between: its calls time the refill too. Null: not so.
   */
  refilledFromMs: number | null;
}

/** From the reopening's drain: rests after a partial reopening, and plans the sampling's gaps. */
/**
 * `early`: the reopening came before a sliding log can have given a call back, as its Reset advertised;
 * `refilling`: a Reset some seconds off moved by more than the exhaustion took, as a bucket's does (a partial
 * reopening is then its refill, with no log's calls to wait for).
 */
export function* settleReopening(
  lab: Lab,
  reopened: Drain,
  exhaust: Drain,
  burst: number,
  early = false,
  refilling = false,
): Experiment<ReopenedBucket> {
  // The drain the sampling follows, and how long its bucket took to come back after the previous refusal.
  let followed = reopened;
  let refillMs = followed.firstMs - (exhaust.refusedMs as number);
  let rested: ReopenedBucket['rested'] = null;
  const poll = lab.observations[lab.observations.length - followed.allowed - (followed.refusedMs === null ? 1 : 2)];
  const lastEmpty = poll && { firstMs: poll.tMs, firstSentMs: poll.sentMs, allowed: 0, refusedMs: poll.tMs, refusedFirst: true };
  // Timed from the reopening only when no rest follows it (below half a bucket: a rest leaves the pause behind;
  // a drain that did not empty is no pause's end either).
  const pause =
    lastEmpty && followed.allowed >= burst / 2 && followed.allowed < burst ? pauseOf(exhaust, lastEmpty, followed, burst, 4) : null;
  let restFromMs = followed.refusedMs;
  if (followed.allowed < burst / 2 && followed.refusedMs !== null) {
    // Few calls back after a long pause: a weighted sliding counter reopened early in the window after its full
    // one. Timed there at once; anything else (a sliding log's slow exhaustion, a bucket) rests as below.
    const counter = yield* partialReopeningPause(lab, exhaust, lastEmpty, followed, burst, early);
    if (counter) {
      lab.note(`partial reopening (${followed.allowed} calls) after a pause: timed in the window after the full bucket`);
      const afterPause = yield* firstWindowAfterPause(lab, counter);
      if (afterPause.rate !== null) return timedAtOnce(lab, followed, counter, afterPause.drains, afterPause.rate);
      restFromMs = lab.lastMs;
    }
    if (refilling && !counter) lab.note(`partial reopening (${followed.allowed} calls) of a refill its Reset said: no rest`);
    // Before a sliding log can give a call back, no log's calls are left to wait for either.
    else if (early && !counter) lab.note(`partial reopening (${followed.allowed} calls) before a sliding log gives a call back: no rest`);
    else {
      const spread = exhaust.refusedMs === null ? 0 : exhaust.refusedMs - exhaust.firstMs;
      lab.note(`partial reopening (${followed.allowed} calls): resting ${Math.round(refillMs + 2 * spread)} ms for a full bucket`);
      const again = yield* drain(lab, (restFromMs as number) + refillMs + 2 * spread, 'reopening', lab.drainCap());
      rested = { drain: again, fromMs: restFromMs as number };
      refillMs = again.firstMs - (restFromMs as number);
      followed = again;
    }
  }
  const reopenedRate = followed.allowed / Math.max(refillMs, 1);
  // `refillMs` may overstate the refill time by the hint's rounding (up to 1 s): start short, widen while drains
  // come back empty; not so after a poll at the time of the next call.
  const gapMs = Math.max(lab.fineMs, Math.min(3 / reopenedRate, refilling && !rested ? Infinity : refillMs / 8));
  const maxGapMs = Math.max(gapMs, Math.max(refillMs, burst / reopenedRate) / 2);
  lab.note(`reopening drain: ${followed.allowed} calls; sampling every ${Math.round(gapMs)} ms`);
  if (followed.refusedMs === null) throw new Stop(`the bucket did not empty after ${followed.allowed} calls on reopening`);
  return { drain: followed, rested, gapMs, maxGapMs, pause, timed: null, refilledFromMs: refilledSince(lab, followed, exhaust, burst) };
}

/**
 * When the drain the sampling follows, the lab's last, is the reopening's (no rest since) and got a partial bucket
 * back: the exhaustion's refusal (answered), which its calls refilled since; else null.
 */
function refilledSince(lab: Lab, followed: Drain, exhaust: Drain, burst: number): number | null {
  const reopening = lab.observations.filter((o) => o.tMs > (exhaust.refusedMs as number) && allowedOf(o)).length;
  const last = lab.observations[lab.observations.length - 1];
  return followed.allowed < burst / 2 && reopening === followed.allowed && last?.tMs === followed.refusedMs ? exhaust.refusedMs : null;
}

/**
 * A partial reopening after a pause: a weighted sliding counter's pause end when the exhaustion was quick and
 * the reopening refused polls first (one drain more then tells); else null.
 */
function* partialReopeningPause(
  lab: Lab,
  exhaust: Drain,
  lastEmpty: Drain | undefined,
  reopened: Drain,
  burst: number,
  early: boolean,
): Experiment<PauseEnd | null> {
  // The reopening's refused polls: the calls between the exhaustion's refusal and the reopening's first.
  const refusedPolls = lab.observations.filter((o) => o.tMs > (exhaust.refusedMs as number) && o.tMs < reopened.firstMs).length;
  // A slow exhaustion (a busy machine) leaves a sliding log's calls one by one: a drain among them would take
  // them back into the log. Only a quick one next to the pause is a counter's to time, or one before a log's calls
  // can have left it (`early`).
  const spreadMs = (exhaust.refusedMs as number) - exhaust.firstSentMs;
  const quick = lastEmpty !== undefined && 4 * spreadMs < lastEmpty.firstSentMs - (exhaust.refusedMs as number);
  if (!lastEmpty || refusedPolls < 1 || !(quick || early)) return null;
  return partialPause(exhaust, lastEmpty, refusedPolls, yield* oneMore(lab, exhaust, lastEmpty, reopened), burst);
}

/** A partial reopening timed at once in the window after the full bucket: the sampling is done. */
function timedAtOnce(lab: Lab, reopened: Drain, counter: PauseEnd, drains: Drain[], rate: number): ReopenedBucket {
  const samples = drains.map((x) => ({ gapMs: 0, drain: x }));
  return {
    drain: reopened,
    rested: null,
    gapMs: lab.fineMs,
    maxGapMs: lab.fineMs,
    pause: counter,
    timed: timed({ from: counter.back }, samples, lab.fineMs, 0, rate, counter),
    refilledFromMs: null,
  };
}

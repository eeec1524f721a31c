/**
 * The pace of an exhaustion: a bucket must be spent within the window it is counted in, or what the
 * check reads spans two windows. One call after another, a limit of 500 at 150 ms takes 75 s, more than
 * a minute's window; so calls go out several at once, as many as the measured latency, the calls left
 * and the time left to the advertised reset ask for, never more than MAX_CONCURRENCY.
 *
 * No more calls are in flight than the target says it still allows (its lowest Remaining so far), so
 * against a target that counts as it advertises nothing is sent past the first 429 but that call itself;
 * a target whose Remaining runs ahead of its limiter gets at most MAX_CONCURRENCY - 1 calls past it,
 * and the evidence says how many. Every loop is bounded: at most `maxCalls` calls and no call after
 * the deadline.
 */
import type { ApiResponse } from '../../clients/http';
import { rateLimitValue, startsNewWindow } from '../judge/rate-limit-sequence';

/** Most calls in flight at once: 500 calls at 150 ms take about 2.4 s, and no gateway sees a flood. */
export const MAX_CONCURRENCY = 32;
/** Share of the time left to the reset an exhaustion plans to take; the rest absorbs slower answers. */
const WINDOW_SHARE = 0.5;
/** Wall time an exhaustion aims at when its window allows longer, so that a near target is spent quickly too. */
const AIM_MS = 400;

/** Calls in flight at once to send `calls` calls of `latencyMs` each within the plan (see WINDOW_SHARE, AIM_MS). */
export function concurrencyFor(calls: number, latencyMs: number, timeLeftMs: number): number {
  const aimMs = Math.max(1, Math.min(AIM_MS, timeLeftMs * WINDOW_SHARE));
  return Math.min(MAX_CONCURRENCY, Math.max(1, Math.ceil((calls * Math.max(latencyMs, 0.1)) / aimMs)));
}

/** Wall time, in ms, `calls` calls of `latencyMs` take `concurrency` at a time. */
export const paceMs = (calls: number, latencyMs: number, concurrency: number): number => Math.ceil(calls / concurrency) * latencyMs;

export interface PaceOptions {
  /** The answer before the exhaustion: its Remaining is what the bucket still holds. */
  first: ApiResponse;
  /** Most calls to send. */
  maxCalls: number;
  /** Time left to the advertised reset, now (Infinity where no window rolls over: a frozen clock, or no Reset). */
  timeLeftMs(): number;
  /** Wall-clock time (epoch ms) after which no call is sent. */
  deadlineMs: number;
}

/** Why sending stopped. */
export type StopReason = 'refused' | 'all-sent' | 'new-window' | 'deadline';

export interface Spent {
  /** Every answer (refused-token answers included), in the order they arrived. */
  answers: ApiResponse[];
  /** Calls sent (a call repeated with a new token counts once). */
  calls: number;
  stop: StopReason;
  /** Most calls in flight at once. */
  concurrency: number;
  /** Mean latency of the answers, ms. */
  latencyMs: number;
  /** Calls still in flight when the first 429 arrived: sent past it. */
  pastFirst429: number;
  /** Wall time of the exhaustion, ms. */
  elapsedMs: number;
}

/** Sends one call; resolves with its answers, the last one final (earlier ones: refused tokens). */
export type SendCall = () => Promise<readonly ApiResponse[]>;

class Pace {
  readonly answers: ApiResponse[] = [];
  accepted = 0;
  inFlight = 0;
  calls = 0;
  concurrency = 0;
  pastFirst429 = 0;
  stop: StopReason | undefined;
  /** The answer with the lowest Remaining so far: what the target says it still allows. */
  lowest: ApiResponse;
  private latencySum: number;

  constructor(readonly o: PaceOptions) {
    this.lowest = o.first;
    this.latencySum = o.first.durationMs;
  }

  get latencyMs(): number {
    return this.latencySum / (this.answers.length + 1);
  }

  /** Calls the target still allows: its lowest Remaining, or fewer when Remaining does not count down. */
  get allowedLeft(): number {
    const told = rateLimitValue(this.lowest, 'remaining') ?? 0;
    return Math.min(told, (rateLimitValue(this.o.first, 'remaining') ?? 0) - this.accepted);
  }

  mayDispatch(): boolean {
    if (this.stop || this.calls >= this.o.maxCalls) return false;
    if (Date.now() >= this.o.deadlineMs) {
      this.stop = 'deadline';
      return false;
    }
    const want = concurrencyFor(this.allowedLeft + 1, this.latencyMs, this.o.timeLeftMs());
    // One at a time once the target says nothing is left: the call that should be refused.
    return this.inFlight === 0 || (this.inFlight < want && this.allowedLeft - this.inFlight > 0);
  }

  settle(answers: readonly ApiResponse[], lowestAtSend: ApiResponse): void {
    this.inFlight -= 1;
    const res = answers[answers.length - 1] as ApiResponse;
    for (const a of answers) {
      this.answers.push(a);
      this.latencySum += a.durationMs;
    }
    if (res.status === 429) {
      if (this.stop !== 'refused') this.pastFirst429 = this.inFlight;
      this.stop = 'refused';
      return;
    }
    if (res.status >= 200 && res.status < 300) this.accepted += 1;
    if (startsNewWindow(lowestAtSend, res)) this.stop ??= 'new-window';
    for (const a of answers) {
      const r = rateLimitValue(a, 'remaining');
      if (a.status !== 429 && r !== null && r < (rateLimitValue(this.lowest, 'remaining') ?? Infinity)) this.lowest = a;
    }
  }
}

/**
 * Spends a bucket: calls `send` several at a time until the first 429, `maxCalls`, the deadline, or an
 * answer that counts in a new window. Resolves once every call sent has been answered.
 */
export async function spendBucket(send: SendCall, o: PaceOptions): Promise<Spent> {
  const started = Date.now();
  const pace = new Pace(o);
  const pending = new Set<Promise<void>>();
  for (;;) {
    while (pace.mayDispatch()) {
      const lowestAtSend = pace.lowest;
      pace.calls += 1;
      pace.inFlight += 1;
      pace.concurrency = Math.max(pace.concurrency, pace.inFlight);
      const p: Promise<void> = send().then(
        (answers) => pace.settle(answers, lowestAtSend),
        (e: unknown) => {
          pace.inFlight -= 1;
          throw e;
        },
      );
      pending.add(p);
      void p.finally(() => pending.delete(p)).catch(() => undefined);
    }
    if (pending.size === 0) break;
    await Promise.race(pending);
  }
  return {
    answers: pace.answers,
    calls: pace.calls,
    stop: pace.stop ?? 'all-sent',
    concurrency: pace.concurrency,
    latencyMs: Math.round(pace.latencyMs),
    pastFirst429: pace.pastFirst429,
    elapsedMs: Date.now() - started,
  };
}

/**
 * Wall time `calls` more calls need at the pace a previous exhaustion of the bucket showed: its
 * throughput when it reached MAX_CONCURRENCY (more at once would not go faster), else its latency
 * spread over MAX_CONCURRENCY.
 */
export function neededMs(calls: number, previous: Spent): number {
  if (previous.concurrency >= MAX_CONCURRENCY && previous.calls > 0) return Math.ceil((calls * previous.elapsedMs) / previous.calls);
  return paceMs(calls, previous.latencyMs, MAX_CONCURRENCY);
}

/** The arithmetic of an exhaustion, for its evidence and for a check blocked by it (`timeLeftMs` at its start, when known). */
export function describePace(calls: number, s: Pick<Spent, 'latencyMs' | 'concurrency' | 'elapsedMs'>, timeLeftMs?: number): string {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const left =
    timeLeftMs === undefined
      ? ''
      : Number.isFinite(timeLeftMs)
        ? `; ${seconds(Math.max(0, timeLeftMs))} to the advertised reset at the start`
        : '; no window rolls over (frozen clock)';
  return `${calls} calls at ${s.latencyMs} ms each, at most ${s.concurrency} at once (cap ${MAX_CONCURRENCY}): ${seconds(paceMs(calls, s.latencyMs, Math.max(1, s.concurrency)))} planned, ${seconds(s.elapsedMs)} spent${left}`;
}

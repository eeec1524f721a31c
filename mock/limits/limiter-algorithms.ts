/**
 * The rate-limiting algorithms real gateways use, so the probes can be tested against each of them:
 * fixed window, sliding log, sliding counter (weighted previous window), token bucket and leaky
 * bucket (as a meter: GCRA). Each has the `consume(key, limit)` shape of limiter.ts and the
 * mock's injectable clock. `countRefused` makes a refused call consume quota as well (some gateways
 * do; a client that polls while refused then never gets through).
 *
 * Every algorithm gives `limit` calls from a full bucket and `limit` calls per `windowMs` in the
 * long run; they differ in when the quota comes back.
 */
import type { Clock } from '../ground/clock';
import type { ConsumeOptions, Decision, Limiter } from './limiter';

export const LIMITER_ALGORITHMS = ['fixed', 'sliding-log', 'sliding-counter', 'token-bucket', 'leaky-bucket'] as const;
export type LimiterAlgorithm = (typeof LIMITER_ALGORITHMS)[number];
export interface AlgorithmDecision extends Decision {
  /** Refused calls: ms until a call would be allowed (if no other call comes). */
  retryAfterMs?: number;
}

/** The mock's Limiter of one algorithm: it knows its window, and tells a refused call when to retry. */
export interface AlgorithmLimiter extends Limiter {
  readonly windowMs: number;
  consume(key: string, limit: number, opts?: ConsumeOptions): AlgorithmDecision;
}

export interface LimiterOptions {
  /** A refused call consumes quota too. Default false. */
  countRefused?: boolean;
}

abstract class BaseLimiter implements AlgorithmLimiter {
  constructor(
    protected readonly clock: Clock,
    readonly windowMs: number,
    protected readonly o: LimiterOptions = {},
  ) {}
  abstract consume(key: string, limit: number, opts?: ConsumeOptions): AlgorithmDecision;
  abstract reset(): void;
}

/** Fixed window opened by the first call after the previous one ended: the mock's default limiter. */
export class FixedWindow extends BaseLimiter {
  private readonly buckets = new Map<string, { endMs: number; count: number }>();

  consume(key: string, limit: number, opts?: ConsumeOptions): AlgorithmDecision {
    const now = this.clock.now();
    let b = this.buckets.get(key);
    if (b === undefined || now >= b.endMs + (opts?.lateRefillMs ?? 0)) {
      b = { endMs: now + this.windowMs, count: 0 };
      this.buckets.set(key, b);
    }
    const cap = limit + (opts?.extra ?? 0);
    if (b.count >= cap) {
      if (this.o.countRefused) b.count += 1;
      return { allowed: false, limit, remaining: 0, windowEndMs: b.endMs, retryAfterMs: b.endMs - now };
    }
    b.count += 1;
    return { allowed: true, limit, remaining: Math.max(0, limit - b.count), windowEndMs: b.endMs };
  }

  reset(): void {
    this.buckets.clear();
  }
}

/** Sliding log: a call is allowed while fewer than `limit` calls were logged in the last window. */
export class SlidingLog extends BaseLimiter {
  private readonly logs = new Map<string, number[]>();

  consume(key: string, limit: number, opts?: ConsumeOptions): AlgorithmDecision {
    const now = this.clock.now();
    const log = (this.logs.get(key) ?? []).filter((t) => t > now - this.windowMs);
    this.logs.set(key, log);
    const cap = limit + (opts?.extra ?? 0);
    const allowed = log.length < cap;
    if (allowed || this.o.countRefused) log.push(now);
    const newest = log[log.length - 1] ?? now;
    const windowEndMs = newest + this.windowMs;
    if (!allowed) {
      // The call is allowed once enough entries left the window that fewer than `cap` remain.
      const freeAt = (log[log.length - cap] ?? now) + this.windowMs;
      return { allowed, limit, remaining: 0, windowEndMs, retryAfterMs: Math.max(0, freeAt - now) };
    }
    return { allowed, limit, remaining: Math.max(0, limit - log.length), windowEndMs };
  }

  reset(): void {
    this.logs.clear();
  }
}

/**
 * Sliding counter: windows aligned on multiples of `windowMs`; the estimate is the previous
 * window's count weighted by the part of it still inside the sliding window, plus the current count.
 */
export class SlidingCounter extends BaseLimiter {
  private readonly counters = new Map<string, { start: number; prev: number; curr: number }>();

  private estimate(c: { start: number; prev: number; curr: number }, at: number): number {
    const start = Math.floor(at / this.windowMs) * this.windowMs;
    const [prev, curr] = start === c.start ? [c.prev, c.curr] : start === c.start + this.windowMs ? [c.curr, 0] : [0, 0];
    return (prev * (this.windowMs - (at - start))) / this.windowMs + curr;
  }

  consume(key: string, limit: number, opts?: ConsumeOptions): AlgorithmDecision {
    const now = this.clock.now();
    const W = this.windowMs;
    const start = Math.floor(now / W) * W;
    let c = this.counters.get(key);
    if (c === undefined) c = { start, prev: 0, curr: 0 };
    if (c.start !== start) c = { start, prev: start === c.start + W ? c.curr : 0, curr: 0 };
    this.counters.set(key, c);
    const cap = limit + (opts?.extra ?? 0);
    const est = this.estimate(c, now);
    const allowed = est < cap;
    if (allowed || this.o.countRefused) c.curr += 1;
    // Quota fully back once both windows holding calls have slid out.
    const windowEndMs = c.curr > 0 ? start + 2 * W : start + W;
    if (allowed) return { allowed, limit, remaining: Math.max(0, Math.ceil(limit - this.estimate(c, now) - 1e-9)), windowEndMs };
    return { allowed, limit, remaining: 0, windowEndMs, retryAfterMs: this.nextAllowed(c, now, cap) - now };
  }

  /** First ms at which one more call fits, if no other call comes (the estimate only falls). */
  private nextAllowed(c: { start: number; prev: number; curr: number }, now: number, cap: number): number {
    const W = this.windowMs;
    for (const start of [c.start, c.start + W, c.start + 2 * W]) {
      const [prev, curr] = start === c.start ? [c.prev, c.curr] : start === c.start + W ? [c.curr, 0] : [0, 0];
      // prev * (W - (t - start)) / W + curr < cap  ⇔  t > start + W - (cap - curr) * W / prev
      const from = Math.max(now, start);
      if (curr >= cap) continue;
      const t = prev === 0 ? from : Math.max(from, Math.floor(start + W - ((cap - curr) * W) / prev) + 1);
      if (t < start + W) return t;
    }
    return c.start + 2 * W;
  }

  reset(): void {
    this.counters.clear();
  }
}

/** Token bucket: `limit` tokens, refilled continuously at `limit` per window. */
export class TokenBucket extends BaseLimiter {
  private readonly buckets = new Map<string, { tokens: number; atMs: number }>();

  consume(key: string, limit: number, opts?: ConsumeOptions): AlgorithmDecision {
    const now = this.clock.now();
    const cap = limit + (opts?.extra ?? 0);
    const perMs = limit / this.windowMs;
    const b = this.buckets.get(key) ?? { tokens: cap, atMs: now };
    b.tokens = Math.min(cap, b.tokens + (now - b.atMs) * perMs);
    b.atMs = now;
    this.buckets.set(key, b);
    const allowed = b.tokens >= 1;
    // A counted refusal leaves a debt, bounded so that a pause of one window always pays it.
    if (allowed) b.tokens -= 1;
    else if (this.o.countRefused) b.tokens = Math.max(-cap, b.tokens - 1);
    const windowEndMs = now + Math.ceil((cap - b.tokens) / perMs);
    if (allowed) return { allowed, limit, remaining: Math.max(0, Math.floor(b.tokens)), windowEndMs };
    return { allowed, limit, remaining: 0, windowEndMs, retryAfterMs: Math.ceil((1 - b.tokens) / perMs) };
  }

  reset(): void {
    this.buckets.clear();
  }
}

/**
 * Leaky bucket as a meter (GCRA): one call leaks every windowMs / limit; a call is allowed while
 * the theoretical arrival time stays within one window ahead of now (a burst of `limit`).
 */
export class LeakyBucket extends BaseLimiter {
  private readonly tat = new Map<string, number>();

  consume(key: string, limit: number, opts?: ConsumeOptions): AlgorithmDecision {
    const now = this.clock.now();
    const cap = limit + (opts?.extra ?? 0);
    const interval = this.windowMs / limit;
    const tolerance = cap * interval;
    const base = Math.max(this.tat.get(key) ?? now, now);
    const next = base + interval;
    const allowed = next - now <= tolerance + 1e-9;
    if (allowed) this.tat.set(key, next);
    else if (this.o.countRefused) this.tat.set(key, Math.min(next, now + 2 * tolerance));
    const tat = this.tat.get(key) ?? now;
    const windowEndMs = Math.ceil(tat);
    if (allowed) return { allowed, limit, remaining: Math.max(0, Math.floor((tolerance - (tat - now)) / interval + 1e-9)), windowEndMs };
    return { allowed, limit, remaining: 0, windowEndMs, retryAfterMs: Math.max(0, Math.ceil(tat + interval - tolerance - now)) };
  }

  reset(): void {
    this.tat.clear();
  }
}

export function createLimiter(algorithm: LimiterAlgorithm, clock: Clock, windowMs: number, o: LimiterOptions = {}): AlgorithmLimiter {
  switch (algorithm) {
    case 'fixed':
      return new FixedWindow(clock, windowMs, o);
    case 'sliding-log':
      return new SlidingLog(clock, windowMs, o);
    case 'sliding-counter':
      return new SlidingCounter(clock, windowMs, o);
    case 'token-bucket':
      return new TokenBucket(clock, windowMs, o);
    case 'leaky-bucket':
      return new LeakyBucket(clock, windowMs, o);
  }
}

/**
 * Fixed-window counter per (app, operation).
 *
 * Written here rather than taken from @fastify/rate-limit because the mock needs what that plugin
 * does not offer together: one injectable clock shared with token expiry, X-RateLimit-Reset as an
 * epoch second (the plugin sends seconds-until-reset), headers on responses the plugin never sees
 * (401, 404, 405, 415 from our own handlers), and drift modes that break the counter on purpose.
 */
import type { Clock } from './clock';

export interface Decision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch ms at which the window ends (the advertised reset). */
  windowEndMs: number;
}

interface Bucket {
  endMs: number;
  refillAtMs: number;
  count: number;
}

export interface ConsumeOptions {
  /** Extra calls allowed beyond the limit (drift). */
  extra?: number;
  /** Delay between the advertised window end and the actual refill (drift). */
  lateRefillMs?: number;
  /** The operation the call is for: a limiter may pick its algorithm by it. */
  operationId?: string;
}

/**
 * What the mock asks of a limiter: one decision per call for a key and a limit. Other algorithms
 * (sliding windows, token buckets) plug in behind the same interface.
 */
export interface Limiter {
  consume(key: string, limit: number, opts?: ConsumeOptions): Decision;
  /** Drops every bucket. */
  reset(): void;
}

export class FixedWindowLimiter implements Limiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly clock: Clock,
    public windowMs: number,
  ) {}

  consume(key: string, limit: number, opts?: ConsumeOptions): Decision {
    const now = this.clock.now();
    let b = this.buckets.get(key);
    if (b === undefined || now >= b.refillAtMs) {
      const endMs = now + this.windowMs;
      b = { endMs, refillAtMs: endMs + (opts?.lateRefillMs ?? 0), count: 0 };
      this.buckets.set(key, b);
    }
    const cap = limit + (opts?.extra ?? 0);
    if (b.count >= cap) return { allowed: false, limit, remaining: 0, windowEndMs: b.endMs };
    b.count += 1;
    return { allowed: true, limit, remaining: Math.max(0, limit - b.count), windowEndMs: b.endMs };
  }

  /** Drops every bucket. */
  reset(): void {
    this.buckets.clear();
  }
}

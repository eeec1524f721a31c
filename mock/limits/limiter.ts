/**
 * What the mock asks of a limiter, and what it answers: one decision per call for a key and a limit.
 * The algorithms (a fixed window by default) are in limiter-algorithms.ts.
 *
 * Written here rather than taken from @fastify/rate-limit because the mock needs what that plugin
 * does not offer together: one injectable clock shared with token expiry, X-RateLimit-Reset as an
 * epoch second (the plugin sends seconds-until-reset), headers on responses the plugin never sees
 * (401, 404, 405, 415 from our own handlers), and leniencies that break the counter on purpose.
 */
export interface Decision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch ms at which the window ends (the advertised reset). */
  windowEndMs: number;
}

export interface ConsumeOptions {
  /** Calls allowed beyond the limit (a leniency). */
  extra?: number;
  /** Delay between the advertised window end and the actual refill (a leniency). */
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

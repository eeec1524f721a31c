/**
 * The gateways of the real-limiter tests and what their limiters are: one read operation per library and
 * configuration, each with its own burst (a crossed wire shows), every window or refill compressed to 2 s (rate =
 * burst / 2 s). Shared by tests/load/real-limiters.spec.ts and by serve.ts (the same gateways, by hand).
 */
import { allOperations, familyBase } from '../../../catalogue';
import { startMock, type RunningMock } from '../../../mock';
import { mockCredentials } from '../../../runner/plan';
import type { Limiter } from '../../../mock/limits/limiter';
import type { RouteLimiter } from './gateway';
import type { NginxRoute } from './nginx';

export const WINDOW_MS = 2000;
export const ENVIRONMENT = 'sandbox';

/** What a limiter is, as its configuration makes it: what the manifest must read. */
export interface Truth {
  algorithm: 'fixed-window' | 'sliding-window' | 'token-bucket';
  /** Calls a full bucket passes back to back. */
  burst: number;
  perSecond: number;
  /** The window of a window limiter; null for a bucket (the fingerprint names none). */
  windowMs: number | null;
  /** The rate-limit header styles its answers carry, as the manifest names them. */
  headers: string[];
}

export interface Case {
  limiter: RouteLimiter;
  truth: Truth;
}

const window = (algorithm: Truth['algorithm'], burst: number, headers: string[] = []): Truth => ({
  algorithm,
  burst,
  perSecond: (burst / WINDOW_MS) * 1000,
  windowMs: WINDOW_MS,
  headers,
});

/** The Node gateway's routes, by operation, and the truth the probe must read for each. */
export const NODE_CASES: Record<string, Case> = {
  // express-rate-limit's MemoryStore: a fixed window per key from its first call; its 429 carries Retry-After
  // whenever it sends headers. Its draft-7 `RateLimit: limit=…` field the harness does not read: not used here.
  'catalog.search': {
    limiter: { library: 'express-rate-limit', limit: 8, windowMs: WINDOW_MS, headers: 'legacy' },
    truth: window('fixed-window', 8, ['x-ratelimit', 'retry-after']),
  },
  'orders.search': {
    limiter: { library: 'express-rate-limit', limit: 10, windowMs: WINDOW_MS, headers: 'draft-6' },
    truth: window('fixed-window', 10, ['ietf', 'retry-after']),
  },
  'quotes.search': {
    limiter: { library: 'express-rate-limit', limit: 12, windowMs: WINDOW_MS, headers: 'draft-8' },
    truth: window('fixed-window', 12, ['ietf', 'retry-after']),
  },
  'deals.search': {
    limiter: { library: 'express-rate-limit', limit: 9, windowMs: WINDOW_MS, headers: 'none' },
    truth: window('fixed-window', 9),
  },
  // @fastify/rate-limit's LocalStore: a fixed window per key from its first call; x-ratelimit-reset in seconds.
  'returns.search': {
    limiter: { library: '@fastify/rate-limit', max: 11, timeWindowMs: WINDOW_MS },
    truth: window('fixed-window', 11, ['x-ratelimit', 'retry-after']),
  },
  // limiter's TokenBucket: 10 tokens, refilled continuously at 10 per 2 s.
  'invoices.search': {
    limiter: { library: 'limiter', bucketSize: 10, tokensPerInterval: 10, intervalMs: WINDOW_MS },
    truth: { algorithm: 'token-bucket', burst: 10, perSecond: 5, windowMs: null, headers: [] },
  },
  // limiter's RateLimiter: a token bucket of 10 refilled 5/s, and at most 10 calls per interval from the interval's
  // first call. The cap holds the calls back until the interval ends, whatever the bucket refilled: a fixed window.
  'vendor.catalog.search': {
    limiter: { library: 'limiter RateLimiter', tokensPerInterval: 10, intervalMs: WINDOW_MS },
    truth: window('fixed-window', 10),
  },
  // rolling-rate-limiter's InMemoryRateLimiter called as wouldLimit() then limit(): a sliding log of the calls that passed.
  'quotes.validate': {
    limiter: { library: 'rolling-rate-limiter', maxInInterval: 7, intervalMs: WINDOW_MS, countsBlocked: false },
    truth: window('sliding-window', 7),
  },
};

/**
 * rolling-rate-limiter as its README uses it (limit() alone): a blocked call is logged too, so calls while refused
 * keep the log full. Its truth: a sliding log of 6 per interval in which refused calls count (a client that never
 * calls while refused gets 6 per interval). Its interval is 1 s: the probe reads it the same way as at 2 s, in half
 * the time.
 */
export const COUNTS_BLOCKED = {
  op: 'vendor.orders.search',
  limiter: { library: 'rolling-rate-limiter', maxInInterval: 6, intervalMs: 1000, countsBlocked: true } satisfies RouteLimiter,
  burst: 6,
};

/**
 * nginx limit_req: rate 6 r/s, burst 11 with nodelay. A leaky bucket (the fingerprint names it a token bucket: the
 * same pacing); from a full bucket nginx passes burst + 1 calls at once (the one the rate admits, plus 11 in excess).
 */
export const NGINX_CASE = { op: 'catalog.search', ratePerSecond: 6, burst: 11 };
export const NGINX_TRUTH: Truth = { algorithm: 'token-bucket', burst: NGINX_CASE.burst + 1, perSecond: 6, windowMs: null, headers: [] };

/** The path the probe calls for an operation (these operations have no path parameters). */
export function pathOf(id: string): string {
  const op = allOperations().find((o) => o.id === id);
  if (!op) throw new Error(`unknown operation ${id}`);
  if (op.pathParams.length) throw new Error(`${id} has path parameters: the gateways match literal paths`);
  return `${familyBase(op.family, ENVIRONMENT)}${op.path}`;
}

/** A mock that refuses nothing and sends no rate-limit headers: only the gateway limits. */
const NEVER_REFUSES: Limiter = {
  consume: (_key, limit) => ({ allowed: true, limit, remaining: limit, windowEndMs: Date.now() + 60_000 }),
  reset: () => undefined,
};
export const startOpenMock = (port = 0): Promise<RunningMock> => startMock({ port, limiter: NEVER_REFUSES, headers: 'none' });

/** The library and configuration of a route, in a few words. */
export function about(l: RouteLimiter): string {
  switch (l.library) {
    case 'express-rate-limit':
      return `express-rate-limit (${l.headers} headers)`;
    case 'rolling-rate-limiter':
      return `rolling-rate-limiter (${l.countsBlocked ? 'limit() alone' : 'wouldLimit() then limit()'})`;
    default:
      return l.library;
  }
}

/** A limiter configured `skew` calls larger (its burst, and its calls per window or interval). */
export function skewed(l: RouteLimiter, skew: number): RouteLimiter {
  switch (l.library) {
    case 'express-rate-limit':
      return { ...l, limit: l.limit + skew };
    case '@fastify/rate-limit':
      return { ...l, max: l.max + skew };
    case 'limiter':
      return { ...l, bucketSize: l.bucketSize + skew, tokensPerInterval: l.tokensPerInterval + skew };
    case 'limiter RateLimiter':
      return { ...l, tokensPerInterval: l.tokensPerInterval + skew };
    case 'rolling-rate-limiter':
      return { ...l, maxInInterval: l.maxInInterval + skew };
  }
}

export const nginxRoute = (skew = 0): NginxRoute => ({
  path: pathOf(NGINX_CASE.op),
  ratePerSecond: NGINX_CASE.ratePerSecond,
  burst: NGINX_CASE.burst + skew,
});

/** `npm run load -- probe-reset` arguments against a gateway (a URL target), the waits bounded to the compressed window. */
export function probeArgs(target: string, ops: string[], reportsDir: string, windowMs = WINDOW_MS): string[] {
  return [
    'probe-reset',
    '--target',
    target,
    '--environment',
    ENVIRONMENT,
    '--allow-quota-spend',
    '--ops',
    ops.join(','),
    '--reports-dir',
    reportsDir,
    // A URL target's plan assumes the API's 60 s window: the waits bounded to the compressed one.
    '--probe-wait-ms',
    String(3 * windowMs),
    '--probe-max-ms',
    String(20 * windowMs),
    '--max-duration',
    '90s',
  ];
}

/** The mock's demo credentials, for the probe's environment (never printed). */
export const demoCredentials = mockCredentials;

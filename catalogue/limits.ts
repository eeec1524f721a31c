import type { Operation } from './operations';

/** Spec, Limits 2: all GET calls, 60 calls per minute per endpoint. */
export const GET_LIMIT_PER_MINUTE = 60;
/** The spec's refresh period for GET calls. */
export const DEFAULT_WINDOW_MS = 60_000;

/**
 * ASSUMPTION: the spec does not give limits for POST, PUT and DELETE (Limits 5: not shown); its
 * samples show 500 and 150. Searches, estimates and webhooks (high-volume, no side effect on
 * stock) get 500; creates, modifies and cancels get 150. Users override per operation.
 */
export const WRITE_LIMITS: Readonly<Record<string, number>> = {
  'catalog.priceAndAvailability': 500,
  'renewals.search': 500,
  'freight.estimate': 500,
  'webhooks.orderStatus': 500,
  'webhooks.availabilityUpdate': 500,
  'orders.create': 150,
  'orders.modify': 150,
  'orders.cancel': 150,
  'quoteToOrder.create': 150,
  'returns.create': 150,
};
/** ASSUMPTION: a non-GET operation missing from WRITE_LIMITS (e.g. a configured vendor POST). */
export const DEFAULT_WRITE_LIMIT = 150;
/** ASSUMPTION: the token endpoints are limited per app like any POST; the spec is silent. */
export const TOKEN_LIMIT = 500;

export type LimitsProfile = Readonly<Record<string, number>>;

/** The per-window limit of an operation: GET 60 (spec), others from the profile (assumption). */
export function limitFor(op: Pick<Operation, 'id' | 'method'>, overrides: LimitsProfile = {}): number {
  const o = overrides[op.id];
  if (o !== undefined) return o;
  if (op.method === 'GET') return GET_LIMIT_PER_MINUTE;
  return WRITE_LIMITS[op.id] ?? DEFAULT_WRITE_LIMIT;
}

/** Rate-limit header names as the spec writes them. */
export const RATE_LIMIT_HEADERS = {
  limit: 'X-RateLimit-Limit',
  remaining: 'X-RateLimit-Remaining',
  reset: 'X-RateLimit-Reset',
} as const;

/** The spec's 429 sample message. */
export const TOO_MANY_REQUESTS_MESSAGE = 'Too many requests';

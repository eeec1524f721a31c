/**
 * A session on a target: one HTTP client on a request budget, the apps' tokens taken through it (each token
 * request counted on the budget, timed out and redacted like any call), and when a refused call is asked
 * again. Certify's workers (contracts/session/open-session.ts) and `npm run load`'s id search on a deployment
 * (runner/target-ids.ts) open theirs here.
 */
import { RESET_MARGIN_MS, type Family } from '../catalogue';
import type { ApiClient } from './http';
import { TokenClient, tokenTransport } from './token-client';
import type { Credentials } from './token-core';

export interface TargetSession<C extends ApiClient = ApiClient> {
  api: C;
  tokens: TokenClient;
}

/** The token client of `credentials` on the target `api` sends to; `now` (epoch ms) injectable so tests compress time. */
export function tokensThrough(api: ApiClient, credentials: Partial<Record<Family, Credentials>>, now?: () => number): TokenClient {
  const { baseUrl } = api.opts;
  return new TokenClient({ baseUrl, credentials, transport: tokenTransport(api, baseUrl), ...(now ? { now } : {}) });
}

/** A session on the target `api` sends to, with the tokens of `credentials`. */
export function openTargetSession<C extends ApiClient>(api: C, credentials: Partial<Record<Family, Credentials>>): TargetSession<C> {
  return { api, tokens: tokensThrough(api, credentials) };
}

/**
 * How long to wait before asking again after a refusal whose answer advertised `atMs` (epoch ms: its reset or
 * Retry-After): until RESET_MARGIN_MS past it, never negative; null when it advertised no time.
 */
export function waitBeforeAskingAgainMs(atMs: number | null, nowMs: number): number | null {
  return atMs === null ? null : Math.max(0, atMs + RESET_MARGIN_MS - nowMs);
}

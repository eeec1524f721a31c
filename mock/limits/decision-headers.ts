/** The rate-limit response headers of an algorithm's decision, in each header style gateways use. */
import { RATE_LIMIT_HEADERS, resetHeaderValue } from '../../catalogue/rules';
import type { AlgorithmDecision } from './limiter-algorithms';

export const HEADER_STYLES = ['x-ratelimit', 'ietf', 'none'] as const;
export type HeaderStyle = (typeof HEADER_STYLES)[number];
export interface HeaderContext {
  /** Time of the response, epoch ms. */
  nowMs: number;
  /** The HTTP status sent (headers on a 429 say Remaining 0). */
  status: number;
  windowMs: number;
  /** X-RateLimit-Reset as an epoch second (default) or seconds to wait. */
  resetUnit?: 'epoch' | 'seconds';
}

const ceilS = (ms: number): number => Math.max(0, Math.ceil(ms / 1000));

/**
 * The rate-limit response headers of a decision in one header style:
 * - `x-ratelimit`: X-RateLimit-Limit / -Remaining / -Reset (Reset = quota fully back).
 * - `ietf`: the IETF httpapi fields `RateLimit-Policy: "default";q=L;w=S` and
 *   `RateLimit: "default";r=R;t=S`, plus `Retry-After` (delta seconds) on a 429.
 * - `none`: nothing (nginx limit_req and many gateways).
 */
export function decisionHeaders(d: AlgorithmDecision, style: HeaderStyle, ctx: HeaderContext): Record<string, string> {
  const remaining = ctx.status === 429 ? 0 : d.remaining;
  if (style === 'none') return {};
  if (style === 'x-ratelimit') {
    const reset = resetHeaderValue(d.windowEndMs, ctx.nowMs, ctx.resetUnit ?? 'epoch');
    return {
      [RATE_LIMIT_HEADERS.limit]: String(d.limit),
      [RATE_LIMIT_HEADERS.remaining]: String(remaining),
      [RATE_LIMIT_HEADERS.reset]: String(reset),
    };
  }
  const h: Record<string, string> = {
    'RateLimit-Policy': `"default";q=${d.limit};w=${ceilS(ctx.windowMs)}`,
    RateLimit: `"default";r=${remaining};t=${ceilS(d.windowEndMs - ctx.nowMs)}`,
  };
  if (ctx.status === 429) h['Retry-After'] = String(Math.max(1, ceilS(d.retryAfterMs ?? d.windowEndMs - ctx.nowMs)));
  return h;
}

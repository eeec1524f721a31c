/**
 * Reads whatever rate-limit headers a response carries, in any of the header styles gateways send:
 * `X-RateLimit-Limit / -Remaining / -Reset`, the IETF httpapi fields (`RateLimit` + `RateLimit-Policy`
 * structured fields, or the older `RateLimit-Limit / -Remaining / -Reset`), and `Retry-After`.
 * Pure: no k6 or Node imports.
 */
import { advertisedResetMs, detectResetUnit, header, intHeader, type ResetUnit } from './limit-analysis';

export type HeaderStyleName = 'x-ratelimit' | 'ietf' | 'retry-after';

export interface RateLimitHints {
  styles: HeaderStyleName[];
  limit: number | null;
  remaining: number | null;
  /** When the quota is fully back, epoch ms (X-RateLimit-Reset or the IETF reset). */
  resetAtMs: number | null;
  /** When a call will be allowed again, epoch ms (Retry-After). */
  retryAtMs: number | null;
  /** Window of the advertised policy (IETF `w`), ms. */
  policyWindowMs: number | null;
  /** Unit of the reset value as sent. */
  resetUnit: ResetUnit;
  /** The reset value as sent (for reports). */
  resetRaw: number | null;
}

/** One parameter of the first item of a structured field: `"default";r=3;t=1` → r = 3. */
function sfParam(value: string | undefined, name: string): number | null {
  if (value === undefined) return null;
  const first = value.split(',')[0] ?? '';
  for (const part of first.split(';')) {
    const [k, v] = part.split('=').map((x) => x.trim());
    if (k === name && v !== undefined && /^\d+$/.test(v)) return Number(v);
  }
  return null;
}

/** Retry-After as delta seconds or an HTTP date, as epoch ms. */
export function retryAfterAt(value: string | undefined, atMs: number): number | null {
  if (value === undefined) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return atMs + Number(v) * 1000;
  const d = Date.parse(v);
  return Number.isFinite(d) ? d : null;
}

export function readRateLimitHeaders(h: Record<string, string>, atMs: number): RateLimitHints {
  const styles: HeaderStyleName[] = [];
  let limit: number | null = null;
  let remaining: number | null = null;
  let resetAtMs: number | null = null;
  let resetUnit: ResetUnit = 'unknown';
  let resetRaw: number | null = null;
  let policyWindowMs: number | null = null;
  const xLimit = header(h, 'X-RateLimit-Limit');
  const xRemaining = header(h, 'X-RateLimit-Remaining');
  const xReset = header(h, 'X-RateLimit-Reset');
  if (xLimit !== undefined || xRemaining !== undefined || xReset !== undefined) {
    styles.push('x-ratelimit');
    limit = intHeader(xLimit);
    remaining = intHeader(xRemaining);
    resetRaw = intHeader(xReset);
    resetUnit = detectResetUnit(resetRaw);
    resetAtMs = advertisedResetMs(resetRaw, atMs);
  }
  const sf = header(h, 'RateLimit');
  const policy = header(h, 'RateLimit-Policy');
  const oldLimit = header(h, 'RateLimit-Limit');
  const oldRemaining = header(h, 'RateLimit-Remaining');
  const oldReset = header(h, 'RateLimit-Reset');
  if (sf !== undefined || policy !== undefined || oldLimit !== undefined || oldRemaining !== undefined || oldReset !== undefined) {
    styles.push('ietf');
    // The structured fields (draft 08+) first, the older separate fields next.
    const w = sfParam(policy, 'w');
    if (w !== null) policyWindowMs = w * 1000;
    limit = limit ?? sfParam(policy, 'q') ?? intHeader(oldLimit) ?? intHeader(oldLimit?.split(/[,;]/)[0]);
    remaining = remaining ?? sfParam(sf, 'r') ?? intHeader(oldRemaining);
    const t = sfParam(sf, 't') ?? intHeader(oldReset);
    if (resetAtMs === null && t !== null) {
      resetAtMs = atMs + t * 1000;
      resetUnit = 'seconds';
      resetRaw = t;
    }
  }
  const ra = header(h, 'Retry-After');
  const retryAtMs = retryAfterAt(ra, atMs);
  if (ra !== undefined) styles.push('retry-after');
  return { styles, limit, remaining, resetAtMs, retryAtMs, policyWindowMs, resetUnit, resetRaw };
}

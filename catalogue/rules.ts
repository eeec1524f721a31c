/**
 * Rules shared by the mock, the contract suite and the load scripts: header names, how an
 * X-RateLimit-Reset value is read, percentiles. Pure TypeScript (no node:*, no k6/*), so k6
 * bundles import it as they are.
 */

/** Rate-limit header names as the spec writes them. */
export const RATE_LIMIT_HEADERS = {
  limit: 'X-RateLimit-Limit',
  remaining: 'X-RateLimit-Remaining',
  reset: 'X-RateLimit-Reset',
} as const;

/** The spec's 429 sample message. */
export const TOO_MANY_REQUESTS_MESSAGE = 'Too many requests';

/**
 * Request headers of the distributor's published document. `IM-CustomerNumber`, `IM-CountryCode`
 * and `IM-CorrelationID` are required on every business call; the others on some operations.
 */
export const IM_HEADERS = {
  customerNumber: 'IM-CustomerNumber',
  countryCode: 'IM-CountryCode',
  correlationId: 'IM-CorrelationID',
  customerContact: 'IM-CustomerContact',
  applicationId: 'IM-ApplicationID',
  senderId: 'IM-SenderID',
} as const;
export type ImHeader = (typeof IM_HEADERS)[keyof typeof IM_HEADERS];

export type ResetUnit = 'epoch' | 'seconds' | 'unknown';

/** Epoch seconds are > 1e9; anything smaller reads as seconds to wait. Absent or NaN is unknown. */
export function detectResetUnit(reset: number | null | undefined): ResetUnit {
  if (reset === null || reset === undefined || !Number.isFinite(reset)) return 'unknown';
  return reset > 1_000_000_000 ? 'epoch' : 'seconds';
}

/** The advertised reset as epoch ms, read at `atMs` (the time of the response carrying it); null when unreadable. */
export function advertisedResetMs(reset: number | null | undefined, atMs: number): number | null {
  const unit = detectResetUnit(reset);
  if (unit === 'epoch') return (reset as number) * 1000;
  if (unit === 'seconds') return atMs + (reset as number) * 1000;
  return null;
}

/** An integer header value, or null when absent or not an integer (never NaN). */
export function intHeader(v: string | undefined | null): number | null {
  if (v === undefined || v === null || !/^-?\d+$/.test(v.trim())) return null;
  return Number(v);
}

/** Nearest-rank percentile; null for no values. */
export function percentile(values: readonly number[], p: number): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx] as number;
}

/**
 * `503` or `503,509`: HTTP error statuses (4xx/5xx) a gateway answers a refused call with instead of 429
 * (nginx limit_req: 503 by default). `flag` names the option in the error.
 */
export function parseErrorStatuses(v: string, flag: string): number[] {
  const codes = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!codes.length || codes.some((c) => !/^[45]\d\d$/.test(c)))
    throw new Error(`${flag} takes 4xx or 5xx codes separated by commas, e.g. 503; received "${v}"`);
  return codes.map(Number);
}

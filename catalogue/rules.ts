/**
 * Rules shared by the mock, the contract suite and the load scripts: header names, how an
 * X-RateLimit-Reset value is read. Pure TypeScript (no node:*, no k6/*), so k6
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

/** The published document's required headers of the two webhook operations. */
export const WEBHOOK_HEADERS = {
  targetUrl: 'targeturl',
  signature: 'x-hub-signature',
} as const;
export type WebhookHeader = (typeof WEBHOOK_HEADERS)[keyof typeof WEBHOOK_HEADERS];

/**
 * The `targeturl` of a webhook call when no receiver is configured (WEBHOOK_RECEIVER_URL): a name under
 * the reserved `.example` top-level domain, so no one receives the event.
 */
export const NO_RECEIVER_TARGET_URL = 'https://webhook-receiver.example/events';

/** What the published document allows in a request header's value. */
export interface HeaderConstraint {
  readonly minLength?: number;
  readonly maxLength?: number;
  /** A regular expression the whole value matches (the document's `pattern`). */
  readonly pattern?: string;
  readonly enum?: readonly string[];
}

/**
 * The strictest constraint the published document gives each IM-* header on any operation: a value keeping it is
 * valid on every operation, so the harness holds its configured values to it (config/headers.ts). Each
 * operation's own constraints (IM-CountryCode at most 10 characters on vendor required info, IM-CustomerNumber
 * unbounded on order cancel) are in request-constraints.ts; the mock enforces those.
 */
export const IM_HEADER_CONSTRAINTS: Readonly<Record<ImHeader, HeaderConstraint>> = {
  'IM-CustomerNumber': { maxLength: 10 },
  'IM-CountryCode': { minLength: 2, maxLength: 2 },
  'IM-CorrelationID': { maxLength: 32 },
  'IM-CustomerContact': { maxLength: 64 },
  'IM-ApplicationID': { maxLength: 32 },
  'IM-SenderID': { maxLength: 32 },
};

/**
 * A check of one header's value, compiled once (the pattern's RegExp included): it returns why a value
 * breaks the constraint, or null when it keeps it.
 */
export function headerCheck(name: string, c: HeaderConstraint): (value: string) => string | null {
  const re = c.pattern === undefined ? undefined : new RegExp(c.pattern, 'u');
  const allowed = c.enum === undefined ? undefined : new Set(c.enum);
  return (value) => {
    if (c.maxLength !== undefined && value.length > c.maxLength)
      return `${name} must be at most ${c.maxLength} characters, received ${value.length}`;
    if (c.minLength !== undefined && value.length < c.minLength)
      return `${name} must be at least ${c.minLength} characters, received ${value.length}`;
    if (re && !re.test(value)) return `${name} must match the pattern ${c.pattern}, received "${value.slice(0, 40)}"`;
    if (allowed && !allowed.has(value)) return `${name} must be one of ${[...allowed].join(', ')}, received "${value.slice(0, 40)}"`;
    return null;
  };
}

/**
 * A fresh IM-CorrelationID: 32 hexadecimal characters (a v4 UUID without its dashes), the longest the
 * document allows, from 16 random bytes (node:crypto in Node, Math.random in k6).
 */
export function correlationIdOf(bytes: ArrayLike<number>): string {
  let out = '';
  for (let i = 0; i < 16; i++) {
    let b = (bytes[i] ?? 0) & 0xff;
    if (i === 6) b = (b & 0x0f) | 0x40;
    if (i === 8) b = (b & 0x3f) | 0x80;
    out += b.toString(16).padStart(2, '0');
  }
  return out;
}

export type ResetUnit = 'epoch' | 'seconds' | 'unknown';

/** Epoch seconds are > 1e9; anything smaller reads as seconds to wait. Absent or NaN is unknown. */
export function detectResetUnit(reset: number | null | undefined): ResetUnit {
  if (reset === null || reset === undefined || !Number.isFinite(reset)) return 'unknown';
  return reset > 1_000_000_000 ? 'epoch' : 'seconds';
}

/**
 * X-RateLimit-Reset for a window ending at `windowEndMs`, answered at `nowMs`: the epoch second the window ends
 * (rounded up), or the whole seconds until then (rounded up, never negative). advertisedResetMs reads it back.
 */
export function resetHeaderValue(windowEndMs: number, nowMs: number, unit: 'epoch' | 'seconds'): number {
  return unit === 'epoch' ? Math.ceil(windowEndMs / 1000) : Math.max(0, Math.ceil((windowEndMs - nowMs) / 1000));
}

/** A Reset in whole seconds names the end of its window within a second, either way. */
export const RESET_PRECISION_MS = 1_000;

/**
 * How long after an advertised reset a client asks again: an epoch second is rounded down by some targets, and
 * the target's clock and ours are read at different instants.
 */
export const RESET_MARGIN_MS = 250;

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

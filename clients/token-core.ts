/**
 * The token logic shared by the Playwright token client and the k6 scripts. Pure: no node:*,
 * no k6/*; the caller performs the HTTP request (async in Node, sync in k6).
 */
import { tokenEndpoints, environmentRoot, GUIDANCE_TOKEN_LIFETIME_S } from '../catalogue';
import type { Family, EnvironmentName } from '../catalogue';
import { registerSecret, redact } from './redact';

export interface Credentials {
  readonly clientId: string;
  readonly clientSecret: string;
}

export interface TokenRequest {
  readonly method: 'POST';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** application/x-www-form-urlencoded body. Contains the client secret: never log it. */
  readonly body: string;
}

export interface IssuedToken {
  readonly accessToken: string;
  readonly tokenType: string;
  readonly expiresInS: number;
  readonly obtainedAtMs: number;
  /** When the client replaces the token: min(expires_in, 24 h guidance) minus the skew. */
  readonly refreshAtMs: number;
}

/** Default safety margin before the earlier of the two lifetimes ends. */
export const DEFAULT_REFRESH_SKEW_MS = 60_000;

function formEncode(fields: Readonly<Record<string, string>>): string {
  return Object.entries(fields)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
}

/** The documented form-body POST for a family's token endpoint in an environment. */
export function buildTokenRequest(baseUrl: string, family: Family, env: EnvironmentName, creds: Credentials): TokenRequest {
  registerSecret(creds.clientSecret);
  const ep = tokenEndpoints[family];
  return {
    method: 'POST',
    url: `${baseUrl.replace(/\/+$/, '')}${environmentRoot[env]}${ep.path}`,
    headers: { 'Content-Type': ep.contentType, Accept: 'application/json' },
    body: formEncode({ grant_type: ep.grantType, client_id: creds.clientId, client_secret: creds.clientSecret }),
  };
}

/**
 * The spec states two lifetimes (24 h guidance, expires_in in the response); the client replaces
 * its token at the earlier one minus a skew, and never later than the 24 h guidance.
 */
export function computeRefreshAt(obtainedAtMs: number, expiresInS: number, skewMs: number = DEFAULT_REFRESH_SKEW_MS): number {
  const lifetimeMs = Math.min(expiresInS, GUIDANCE_TOKEN_LIFETIME_S) * 1000;
  // A lifetime shorter than twice the skew would refresh before use: refresh at half-life instead.
  const margin = Math.min(skewMs, lifetimeMs / 2);
  return obtainedAtMs + lifetimeMs - margin;
}

/** A token the target refused while both of the spec's lifetimes (expires_in, 24 h guidance) still ran. */
export interface EarlyRefusal {
  /** When the token was issued and refused, ISO 8601 on the client's clock (never the token itself). */
  readonly issuedAt: string;
  readonly refusedAt: string;
  /** Milliseconds between the two. */
  readonly afterMs: number;
  readonly expiresInS: number;
}

/**
 * The refusal of a token at `refusedAtMs` when it came before the earlier of expires_in and the
 * 24 h guidance (the spec: a client must be ready for a new token at any time, so this is a finding,
 * not a failure); undefined when one of the lifetimes had ended.
 */
export function earlyRefusal(token: IssuedToken, refusedAtMs: number): EarlyRefusal | undefined {
  const lifetimeMs = Math.min(token.expiresInS, GUIDANCE_TOKEN_LIFETIME_S) * 1000;
  const afterMs = refusedAtMs - token.obtainedAtMs;
  if (afterMs >= lifetimeMs) return undefined;
  return {
    issuedAt: new Date(token.obtainedAtMs).toISOString(),
    refusedAt: new Date(refusedAtMs).toISOString(),
    afterMs,
    expiresInS: token.expiresInS,
  };
}

/** The evidence of an early refusal, as a finding records it. */
export function describeEarlyRefusal(r: EarlyRefusal): string {
  return (
    `token issued at ${r.issuedAt}, refused at ${r.refusedAt} (${(r.afterMs / 1000).toFixed(1)} s later; ` +
    `expires_in ${r.expiresInS} s, guidance ${GUIDANCE_TOKEN_LIFETIME_S} s)`
  );
}

export class TokenError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(redact(message));
    this.name = 'TokenError';
  }
}

/** Parses a token response; throws a TokenError that says what was expected and what came back. */
export function parseTokenResponse(
  status: number,
  bodyText: string,
  nowMs: number,
  skewMs: number = DEFAULT_REFRESH_SKEW_MS,
  where = 'token endpoint',
): IssuedToken {
  if (status === 404 || status === 405) {
    throw new TokenError(
      `${where} answered ${status}: the token endpoint is not served at this path; expected the form-body POST of the spec. Body: ${bodyText.slice(0, 200)}`,
      status,
    );
  }
  if (status < 200 || status >= 300) {
    throw new TokenError(
      `${where} answered ${status}, expected 200 with an access token; body: ${bodyText.slice(0, 300)}. ` +
        'Check the client id and secret for this family and environment (see .env.example).',
      status,
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    throw new TokenError(`${where} answered ${status} with a body that is not JSON: ${bodyText.slice(0, 200)}`, status);
  }
  const b = body as { access_token?: unknown; token_type?: unknown; expires_in?: unknown };
  if (typeof b.access_token !== 'string' || b.access_token.length === 0) {
    throw new TokenError(`${where} answered ${status} without a non-empty string access_token`, status);
  }
  registerSecret(b.access_token);
  const expiresIn = typeof b.expires_in === 'number' ? b.expires_in : Number(b.expires_in);
  if (!Number.isFinite(expiresIn) || expiresIn <= 0) {
    throw new TokenError(`${where} answered expires_in ${JSON.stringify(b.expires_in)}, expected a positive integer of seconds`, status);
  }
  return {
    accessToken: b.access_token,
    tokenType: typeof b.token_type === 'string' ? b.token_type : '',
    expiresInS: expiresIn,
    obtainedAtMs: nowMs,
    refreshAtMs: computeRefreshAt(nowMs, expiresIn, skewMs),
  };
}

/**
 * Holds one token per family and environment. The caller supplies the fetch: `get` returns the
 * cached token while it is fresh, `invalidate` drops it after a 401 so the next `get` re-fetches.
 */
export class TokenSlot {
  private token: IssuedToken | undefined;

  current(nowMs: number): IssuedToken | undefined {
    return this.token && nowMs < this.token.refreshAtMs ? this.token : undefined;
  }

  store(token: IssuedToken): IssuedToken {
    this.token = token;
    return token;
  }

  /**
   * Drops the token the target refused (`refused`, when given, must be the one held: a token another
   * caller fetched since is kept). Returns the refusal when it came before the token's lifetimes ended.
   */
  invalidate(nowMs: number, refused?: string): EarlyRefusal | undefined {
    const held = this.token;
    if (!held || (refused !== undefined && held.accessToken !== refused)) return undefined;
    this.token = undefined;
    return earlyRefusal(held, nowMs);
  }
}

export const tokenKey = (family: Family, env: EnvironmentName): string => `${family}/${env}`;

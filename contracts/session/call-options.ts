/** What a check asks of one call beyond the operation's valid request (session.ts). */
import type { ApiRequest, ApiResponse, BrokenAt } from '../../clients/http';
import type { TokenClient } from '../../clients/token-client';

export interface CallOptions {
  token?: string | null;
  /** Another app's token client: the call carries its token, renewed through it when refused. */
  tokenFrom?: TokenClient;
  params?: Record<string, string>;
  body?: unknown;
  /** A change to the operation's valid body, built with the target's ids (unlike `body`, which replaces it, ids and all). */
  editBody?: (valid: unknown) => unknown;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** For tests about rate limits: a 429 is the answer under test, not an obstacle. */
  allow429?: boolean;
  /** Header names not to send. */
  omitHeaders?: readonly string[];
  /** Query parameters not to send (a documented one the distributor's client cannot send). */
  omitQuery?: readonly string[];
  /**
   * Told of an answer refusing the call's token before the call is repeated with a new one: the target may
   * have counted the refused call (its Remaining says), so a check counting calls reads it.
   */
  onTokenRefused?: (refused: ApiResponse) => void;
  /**
   * A request the check breaks on purpose (a header too long, a conflicting form): `true`, not validated against
   * OPENAPI before sending; `{ at: location }`, validated, and only what OPENAPI refuses at that location let through.
   */
  deliberatelyInvalid?: true | BrokenAt;
}

/** How a call's request is broken on purpose, if it is: a header left out is not validated at all. */
export function brokenOnPurpose(o: CallOptions): Pick<ApiRequest, 'deliberatelyInvalid'> {
  if (o.omitHeaders?.length) return { deliberatelyInvalid: true };
  return o.deliberatelyInvalid ? { deliberatelyInvalid: o.deliberatelyInvalid } : {};
}

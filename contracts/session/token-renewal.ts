/**
 * How a call renews a token the target refused (401), its token taken as it leaves: the seed says a client must be ready to request a new
 * token at any time, so a refusal is answered with a token obtained after it, never judged as the fact under
 * test. A token held by the client when the refusal landed may be one that other calls renewed to a while ago
 * and that the target refuses as well: it is tried, and when refused too, dropped for one fetched after the
 * refusal. A call is sent at most MAX_RENEWALS more times; a 401 a token fetched after the refusal gets is the
 * answer (a signature refused, say), not a token to renew.
 */
import type { EnvironmentName, Family } from '../../catalogue';
import type { ApiResponse } from '../../clients/http';
import type { TokenClient } from '../../clients/token-client';
import type { EarlyRefusal, IssuedToken } from '../../clients/token-core';

/** Times a refused call is sent again: once with the token held, once more with one fetched after the refusal. */
export const MAX_RENEWALS = 2;

/** Where the call's token comes from: a token client (the session's, or another app's) and the family's slot. */
export interface TokenSource {
  tokens: Pick<TokenClient, 'issued' | 'invalidate'>;
  family: Family;
  environment: EnvironmentName;
}

export interface Renewal {
  /** Told of each refused answer before the call is sent again (the target may have counted it). */
  onRefused?: ((refused: ApiResponse) => void) | undefined;
  /** Told of a refusal that came before the token's lifetimes ended, with the answer to the call sent again. */
  onEarly: (early: EarlyRefusal, refused: ApiResponse, again: ApiResponse) => void;
  /** The client's clock (epoch ms). Default Date.now. */
  now?: () => number;
}

/**
 * Sends a call whose token is taken from `source` as the call leaves (`send` asks `pick` after any wait for its
 * bucket: a token taken before a long wait may be refused by then) and, while the target refuses it, again.
 */
export async function sendRenewing(
  source: TokenSource,
  send: (pick: () => Promise<string>) => Promise<ApiResponse>,
  r: Renewal,
): Promise<ApiResponse> {
  const now = r.now ?? Date.now;
  let used: IssuedToken | undefined;
  const pick = async (): Promise<string> => {
    used = await source.tokens.issued(source.family, source.environment);
    return used.accessToken;
  };
  let res = await send(pick);
  for (let renewals = 0; res.status === 401 && used && renewals < MAX_RENEWALS; renewals += 1) {
    const refusedAtMs = now();
    const early = source.tokens.invalidate(source.family, source.environment, used.accessToken);
    const refused = res;
    r.onRefused?.(refused);
    res = await send(pick);
    if (early) r.onEarly(early, refused, res);
    // A token obtained after the refusal was refused as well: that 401 is the call's answer.
    if ((used as IssuedToken).obtainedAtMs >= refusedAtMs) break;
  }
  return res;
}

/** The token a call carries: the check's own (null: none), that of another app's client (`other`), or the session's. */
export async function callToken(
  given: string | null | undefined,
  other: TokenSource | undefined,
  own: () => Promise<string>,
): Promise<string | undefined> {
  if (given !== undefined) return given ?? undefined;
  return other ? (await other.tokens.issued(other.family, other.environment)).accessToken : own();
}

/** The request with the token `pick` gives as it leaves (none: as it is). */
export async function withToken<R extends { token?: string }>(req: R, pick?: () => Promise<string>): Promise<R> {
  return pick ? Object.assign(req, { token: await pick() }) : req;
}

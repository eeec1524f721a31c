/**
 * Async token client of the contract suite: one cached token per family and environment,
 * replaced at min(expires_in, 24 h) minus a skew, and re-fetched once after a 401 (a refusal before
 * either lifetime ended is returned to the caller, which records it).
 */
import type { EnvironmentName, Family } from '../catalogue';
import type { ApiClient } from './http';
import {
  buildTokenRequest,
  parseTokenResponse,
  TokenSlot,
  tokenKey,
  DEFAULT_REFRESH_SKEW_MS,
  type Credentials,
  type EarlyRefusal,
  type IssuedToken,
  type TokenRequest,
} from './token-core';

export type TokenTransport = (req: TokenRequest) => Promise<{ status: number; text: string }>;

export interface TokenClientOptions {
  baseUrl: string;
  credentials: Partial<Record<Family, Credentials>>;
  transport: TokenTransport;
  /** Epoch ms; injectable so tests compress time. Default Date.now. */
  now?: () => number;
  skewMs?: number;
}

export class TokenClient {
  private readonly slots = new Map<string, TokenSlot>();
  private readonly inflight = new Map<string, Promise<IssuedToken>>();
  /** Token requests sent, per family/environment. */
  readonly fetches = new Map<string, number>();

  constructor(private readonly opts: TokenClientOptions) {}

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  private slot(key: string): TokenSlot {
    let s = this.slots.get(key);
    if (!s) {
      s = new TokenSlot();
      this.slots.set(key, s);
    }
    return s;
  }

  credentials(family: Family): Credentials {
    const c = this.opts.credentials[family];
    if (!c)
      throw new Error(
        `no credentials for the ${family} family; set ${family.toUpperCase()}_CLIENT_ID and ${family.toUpperCase()}_CLIENT_SECRET`,
      );
    return c;
  }

  /** The current token of a family in an environment, fetched when absent or due for refresh. */
  async issued(family: Family, env: EnvironmentName): Promise<IssuedToken> {
    const key = tokenKey(family, env);
    const cached = this.slot(key).current(this.now());
    if (cached) return cached;
    let p = this.inflight.get(key);
    if (!p) {
      p = this.fetch(family, env).finally(() => this.inflight.delete(key));
      this.inflight.set(key, p);
    }
    return p;
  }

  async token(family: Family, env: EnvironmentName): Promise<string> {
    return (await this.issued(family, env)).accessToken;
  }

  /** Drops every cached token. */
  clear(): void {
    this.slots.clear();
  }

  /**
   * Drops the cached token (after a 401), so the next call fetches a new one. Returns the refusal
   * (issued and refused at) when the target refused the token before expires_in and the 24 h guidance.
   */
  invalidate(family: Family, env: EnvironmentName, refused?: string): EarlyRefusal | undefined {
    return this.slot(tokenKey(family, env)).invalidate(this.now(), refused);
  }

  private async fetch(family: Family, env: EnvironmentName): Promise<IssuedToken> {
    const key = tokenKey(family, env);
    const req = buildTokenRequest(this.opts.baseUrl, family, env, this.credentials(family));
    this.fetches.set(key, (this.fetches.get(key) ?? 0) + 1);
    const res = await this.opts.transport(req);
    const token = parseTokenResponse(
      res.status,
      res.text,
      this.now(),
      this.opts.skewMs ?? DEFAULT_REFRESH_SKEW_MS,
      `${family} token endpoint (${env})`,
    );
    return this.slot(key).store(token);
  }
}

/** The token requests of a TokenClient, sent through the harness's HTTP client (budget, timeouts, redaction). */
export function tokenTransport(api: ApiClient, baseUrl: string): TokenTransport {
  return async (req) => {
    const r = await api.send({ method: 'POST', path: req.url.slice(baseUrl.length), raw: req.body, headers: { ...req.headers } });
    return { status: r.status, text: r.text };
  };
}

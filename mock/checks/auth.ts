/**
 * Authentication of business calls (the preHandler step): bearer tokens issued by the token
 * routes, and the published required headers.
 */
import type { FastifyRequest } from 'fastify';
import type { Family, Operation } from '../../catalogue';
import type { Clock } from '../ground/clock';
import type { Leniency } from '../ground/mock-layer';
import { entryOf, type ErrorBody, type ErrorCodeName } from '../ground/errors';

export interface TokenRecord {
  clientId: string;
  family: Family;
  expiresAtMs: number;
}

/** The app a bearer token was issued to, and its family (clientId null: a call let in without a valid token by a leniency). */
export interface TokenHolder {
  clientId: string | null;
  family: Family | null;
}

export interface AuthResult {
  readonly holder?: TokenHolder;
  readonly error?: ErrorCodeName;
}

/** The refusals, one object each: a request is told which, nothing is built for it. */
const REFUSED: { readonly [code in 'missingToken' | 'invalidToken' | 'wrongFamily']: AuthResult } = {
  missingToken: { error: 'missingToken' },
  invalidToken: { error: 'invalidToken' },
  wrongFamily: { error: 'wrongFamily' },
};

type Issued = TokenRecord & { readonly identified: AuthResult };

export class TokenStore {
  /** Each token's record, and the holder it identifies (built once, when the token is issued). */
  private readonly tokens = new Map<string, Issued>();
  /**
   * The same records by the common form of the header, `Bearer <token>`: a request carrying it is
   * identified by one lookup of its header value, nothing cut from it (tokens hold no spaces).
   */
  private readonly byHeader = new Map<string, Issued>();

  constructor(private readonly clock: Clock) {}

  issue(token: string, rec: TokenRecord): void {
    const issued = { ...rec, identified: { holder: { clientId: rec.clientId, family: rec.family } } };
    this.tokens.set(token, issued);
    this.byHeader.set(`Bearer ${token}`, issued);
  }

  clear(): void {
    this.tokens.clear();
    this.byHeader.clear();
  }

  /** Identifies the caller of a business call from its bearer token. */
  authenticate(req: FastifyRequest, family: Family, leniency: Leniency): AuthResult {
    const h = req.headers.authorization;
    const rec = h ? (this.byHeader.get(h) ?? this.byToken(h)) : null;
    if (rec === null) {
      if (leniency('call-without-token')) return { holder: { clientId: null, family } };
      return REFUSED.missingToken;
    }
    if (rec === undefined) {
      if (leniency('unknown-token')) return { holder: { clientId: null, family } };
      return REFUSED.invalidToken;
    }
    if (rec.expiresAtMs <= this.clock.now() && !leniency('expired-token')) return REFUSED.invalidToken;
    if (rec.family !== family && !leniency('other-family-token')) return REFUSED.wrongFamily;
    return rec.identified;
  }

  /** The record of a header's token in any other form (spacing, case): null when it holds no token, undefined for one never issued. */
  private byToken(h: string): Issued | null | undefined {
    const m = h.startsWith('Bearer ') && h.indexOf(' ', 7) === -1 ? [h, h.slice(7)] : /^Bearer\s+(\S+)\s*$/i.exec(h);
    return m && m[1] ? this.tokens.get(m[1]) : null;
  }
}

/** A 400 body naming each missing header in its own entry. */
export function missingHeadersBody(names: readonly string[]): ErrorBody {
  return { errors: names.map((n) => entryOf('missingHeader', { field: n, message: `Missing required header ${n}` })) };
}

/** The required query parameters a request lacks; null when none. */
export function missingQuery(query: Record<string, unknown>, op: Pick<Operation, 'queryParams'>): string[] | null {
  let out: string[] | null = null;
  for (const p of op.queryParams) if (p.required && (query[p.name] === undefined || query[p.name] === '')) (out ??= []).push(p.name);
  return out;
}

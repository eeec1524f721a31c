/**
 * The calls every k6 script makes: tokens from the shared token logic, a planned operation's request, and a
 * probe's reading of the answer.
 */
import http from 'k6/http';
import type { RefinedResponse, ResponseType } from 'k6/http';
import { buildTokenRequest, parseTokenResponse } from '../../clients/token-core';
import type { Family } from '../../catalogue';
import { correlationIdOf, IM_HEADERS } from '../../catalogue/rules';
import { header, intHeader, type ProbeSample } from '../lib/limit-analysis';
import type { Plan, PlannedOperation } from '../plan/run-plan';

/** A fresh IM-CorrelationID per request: 32 hexadecimal characters, the longest the published document allows. */
export function newCorrelationId(): string {
  return correlationIdOf(Array.from({ length: 16 }, () => Math.floor(Math.random() * 256)));
}

export type Tokens = Partial<Record<Family, string>>;

/** Fetches one token per family the plan needs, with the shared token logic. */
export function fetchTokens(p: Plan): Tokens {
  const out: Tokens = {};
  const families = p.operations.map((o) => o.family).filter((f, i, a) => a.indexOf(f) === i);
  for (const family of families) {
    const prefix = family.toUpperCase();
    const clientId = __ENV[`${prefix}_CLIENT_ID`];
    const clientSecret = __ENV[`${prefix}_CLIENT_SECRET`];
    if (!clientId || !clientSecret) throw new Error(`${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET must be set in the environment`);
    const req = buildTokenRequest(p.baseUrl, family, p.environment, { clientId, clientSecret });
    const res = http.post(req.url, req.body, { headers: req.headers as Record<string, string>, tags: { operation: `token.${family}` } });
    out[family] = parseTokenResponse(res.status, String(res.body ?? ''), Date.now()).accessToken;
  }
  return out;
}

export type BatchRequest = [string, string, string | null, { headers: Record<string, string>; tags: Record<string, string> }];

export function requestOf(p: Plan, op: PlannedOperation, tokens: Tokens): BatchRequest {
  const headers: Record<string, string> = {
    ...(op.headers ?? {}),
    [IM_HEADERS.correlationId]: newCorrelationId(),
    Authorization: `Bearer ${tokens[op.family] ?? ''}`,
    Accept: 'application/json',
  };
  if (op.body !== null) headers['Content-Type'] = 'application/json';
  return [op.method, `${p.baseUrl}${op.path}${op.query ? `?${op.query}` : ''}`, op.body, { headers, tags: { operation: op.id } }];
}

/** A refusal is a 429, or one of the statuses the plan takes as refusals: reported as 429 to the probes. */
export function probeStatusOf(p: Pick<Plan, 'refusedStatuses'>, status: number): number {
  return p.refusedStatuses?.includes(status) ? 429 : status;
}

/** A probe response as the probes read it. */
export function probeSampleOf(p: Pick<Plan, 'refusedStatuses'>, res: RefinedResponse<ResponseType | undefined>): ProbeSample {
  const h = res.headers as Record<string, string>;
  return {
    tMs: Date.now(),
    status: probeStatusOf(p, res.status),
    limit: intHeader(header(h, 'X-RateLimit-Limit')),
    remaining: intHeader(header(h, 'X-RateLimit-Remaining')),
    reset: intHeader(header(h, 'X-RateLimit-Reset')),
  };
}

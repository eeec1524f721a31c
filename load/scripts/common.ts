/**
 * What every k6 script shares: the run plan (built by runner/plan.ts from the catalogue and the
 * fixtures, passed as __ENV.PLAN), tokens from the shared token logic, and request building.
 */
import http from 'k6/http';
import exec from 'k6/execution';
import type { RefinedResponse, ResponseType } from 'k6/http';
import { buildTokenRequest, parseTokenResponse } from '../../clients/token-core';
import type { Family, EnvironmentName } from '../../catalogue';
import { correlationIdOf, IM_HEADERS } from '../../catalogue/rules';
import { header, intHeader, type ProbeSample } from '../lib/limit-analysis';
import type { PacingPlan } from '../lib/pacer';
import { segmentDirName, shareOf } from './segment';

/** A fresh IM-CorrelationID per request: 32 hexadecimal characters, the longest the published document allows. */
export function newCorrelationId(): string {
  return correlationIdOf(Array.from({ length: 16 }, () => Math.floor(Math.random() * 256)));
}

export interface PlannedOperation {
  id: string;
  family: Family;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Catalogue path template (for reports). */
  pathTemplate: string;
  /** Filled path from {base_url}, with the environment base. */
  path: string;
  query: string;
  body: string | null;
  /** Limit per window from the catalogue (used when the target advertises none). */
  catalogueLimit: number;
  /** The published request headers the operation requires (IM-*, from the configuration); IM-CorrelationID is added per request. */
  headers?: Record<string, string>;
}

/** A selected operation left out of the plan (no id of the target's data for it), and why. */
export interface NotRun {
  id: string;
  reason: string;
}

export interface Plan {
  baseUrl: string;
  environment: EnvironmentName;
  windowMs: number;
  outDir: string;
  /** Most requests the whole run may send. */
  budget: number;
  operations: PlannedOperation[];
  /** Selected operations left out of `operations`, with the reason: every result file of the run lists them. */
  notRun?: NotRun[];
  /** probe-reset: longest wait for a bucket to reopen, ms. Default 3 windows (at least 5 s). */
  probeWaitMs?: number;
  /** probe-reset: longest fingerprint of one operation, ms. Default 25 windows. */
  probeMaxMs?: number;
  /** Statuses taken as refusals besides 429 (e.g. 503, nginx limit_req's default). */
  refusedStatuses?: number[];
  /** verify-pacing: the pacing of each operation, from a probe-reset manifest. */
  pacing?: Record<string, PacingPlan>;
  /** probe-reset: `npm run load` already said what the write operations may create (load/scripts/probe-plan.ts). */
  writesAnnounced?: boolean;
  /** Capacity runs: share of the limit and duration. */
  fraction?: number;
  duration?: string;
}

/** The result file's `notRun` field: the operations left out of the plan, with their reasons (none: no field). */
export function notRunOf(p: Pick<Plan, 'notRun'>): { notRun?: NotRun[] } {
  return p.notRun?.length ? { notRun: p.notRun } : {};
}

/** One line per operation left out of the plan, for a script's summary on stdout. */
export function notRunLines(p: Pick<Plan, 'notRun'>): string[] {
  return (p.notRun ?? []).map((n) => `  ${n.id}: NOT RUN: ${n.reason}`);
}

export function plan(): Plan {
  const raw = __ENV.PLAN;
  if (!raw)
    throw new Error('PLAN is not set: run the scripts through `npm run load -- <script>`, which builds the plan from the catalogue');
  return JSON.parse(raw) as Plan;
}

/**
 * This runner's share of the plan: in a distributed run (k6-operator `parallelism`, or `k6 run
 * --execution-segment`) each runner gets a disjoint slice of the operations and writes under
 * `<outDir>/segment-<from>-<to>`, so one app's quota is spent once per operation. LOAD_SEGMENT sets
 * a segment by hand. Call from setup() or an iteration: k6 refuses execution details in the init context.
 */
export function runnerPlan(p: Plan = plan()): Plan {
  const segment = exec.test.options.executionSegment || __ENV.LOAD_SEGMENT;
  if (!segment) return p;
  return { ...p, operations: shareOf(p.operations, segment), outDir: `${p.outDir}/${segmentDirName(segment)}` };
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

/** JSON file names of a run: `<outDir>/<script>-<timestamp>.json`. */
export function stamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-');
}

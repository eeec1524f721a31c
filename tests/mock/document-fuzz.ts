/**
 * A fuzz drawn from the published documents: for every operation either form documents and every constraint either
 * form gives its request (a header, a query parameter, a body field at any depth: required, type, format, enum,
 * maxLength, minLength, minimum, maximum, minItems, maxItems), a value that breaks it and a value that keeps it, each
 * put into a valid request (the catalogue's, fixtures/). The forms themselves judge each request (their validators:
 * openapi/import, `requestProblems`); the mock must agree:
 *
 * - every form that documents the operation refuses it: 400 naming the location (warn mode: served, the location
 *   in `sl-violations`);
 * - a form allows it: served (2xx), or refused for a reason the document or the seed gives (an unknown id: 404).
 *   A documented client conflict answers by its own rule (mock/checks/document-conflicts.ts): counted apart.
 *
 * Seeded (fast-check): the same seed draws the same values.
 */
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { allOperations, fillPath, type Operation } from '../../catalogue';
import { requestFor } from '../../fixtures';
import { signatureHeaders } from '../../clients/webhook-signature';
import { flattenConstraints, formConstraints, mergeConstraints } from '../../openapi/document-constraints';
import type { OpenApiContract } from '../../openapi/import/openapi-contract';
import { VIOLATIONS_HEADER, type Violation } from '../../mock/checks/request-violations';
import { app, IM, RESELLER_WEBHOOK_SECRET, token } from './helpers';
import {
  ABSENT,
  breakingValue,
  keepingValue,
  locate,
  segmentsOf,
  setAt,
  type InputValue,
  type ValueTarget,
} from '../../contracts/judge/input-values';

type Node = Record<string, unknown>;

export interface FuzzCounts {
  operations: number;
  constraints: number;
  tried: number;
  /** Refused by every form that documents the operation, and by the mock with 400 naming the location (warn: served and noted). */
  refused: number;
  /** Allowed by a form, and served by the mock. */
  served: number;
  /** Answered by a documented client conflict's own rule. */
  conflicts: number;
  mismatches: string[];
}

/** One constraint of a form, its operation, and the nodes to draw values from (contracts/judge/input-values.ts). */
interface Target extends ValueTarget {
  op: Operation;
}

/** The constraints the fuzz draws from: every (operation, location, keyword, value) either form gives, once. */
export function fuzzTargets(forms: readonly OpenApiContract[]): { ops: Set<string>; targets: Target[] } {
  const targets: Target[] = [];
  const ops = new Set<string>();
  for (const op of allOperations().filter((o) => o.family === 'reseller')) {
    const sets = forms.map((f) => formConstraints(f, op.id));
    const merged = mergeConstraints(sets);
    if (!merged) continue;
    ops.add(op.id);
    const seen = new Set<string>();
    for (const set of sets) {
      if (!set) continue;
      for (const c of flattenConstraints(set)) {
        const key = `${c.location} ${c.keyword} ${c.value}`;
        if (seen.has(key)) continue;
        seen.add(key);
        targets.push({ op, c, node: locate(set, c.location) ?? {}, merged: locate(merged, c.location) ?? {} });
      }
    }
  }
  return { ops, targets };
}

interface Built {
  url: string;
  headers: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
}

/** The catalogue's valid request of an operation, with a value (or its absence) at a location. */
function build(op: Operation, bearer: string, location: string, value: InputValue, mergedBody: Node | undefined): Built {
  const base = requestFor(op);
  const headers: Record<string, string> = { authorization: `Bearer ${bearer}`, ...(op.webhook ? {} : IM), ...(base.headers ?? {}) };
  const query = { ...base.query };
  let body: unknown = op.jsonBody ? (base.body ?? {}) : undefined;
  const [part, name = ''] = location.split(' ');
  if (part === 'header') {
    const k = Object.keys(headers).find((h) => h.toLowerCase() === name) ?? name;
    if (value === ABSENT) delete headers[k];
    else headers[k] = String(value);
  } else if (part === 'query') {
    if (value === ABSENT) delete query[name];
    else query[name] = String(value);
  } else body = setAt(body, segmentsOf(location), value, mergedBody);
  if (op.webhook && !(part === 'header' && name === 'x-hub-signature'))
    Object.assign(headers, signatureHeaders(body, RESELLER_WEBHOOK_SECRET));
  const q = new URLSearchParams(query).toString();
  return { url: `${fillPath(op.path, requestFor(op).params)}${q ? `?${q}` : ''}`, headers, query, body };
}

/** Whether a 400's body or a served answer's violations name the location. */
function namesLocation(location: string, fields: readonly string[]): boolean {
  const [part, ...rest] = location.split(' ');
  const want = rest.join(' ').replace(/\[\]/g, '');
  return fields.some((f) => {
    const got = part === 'body' ? f.replace(/\.\d+(?=\.|$)/g, '').replace(/^\d+\.?/, '') : f;
    return part === 'header' ? got.toLowerCase() === want : got === want || (part === 'body' && want.replace(/\.$/, '') === got);
  });
}

export interface FuzzOptions {
  seed: number;
  mode: 'strict' | 'warn';
  /** Draw this many constraints (seeded) instead of all of them. */
  sample?: number;
  /** Values drawn per constraint and direction (default 1). */
  rounds?: number;
}

/** Runs the fuzz on a fresh mock; the counts, and a line per mismatch. */
export async function runDocumentFuzz(forms: readonly OpenApiContract[], o: FuzzOptions): Promise<FuzzCounts> {
  const { ops, targets: all } = fuzzTargets(forms);
  const targets =
    o.sample === undefined
      ? all
      : (fc.sample(fc.shuffledSubarray(all, { minLength: o.sample, maxLength: o.sample }), { seed: o.seed, numRuns: 1 })[0] ?? []);
  const limits = Object.fromEntries([...ops].map((id) => [id, 1e9]));
  const violations: string[] = [];
  // Read-only operations share a mock; each operation that changes state has its own (a cancelled order cannot be modified: 409).
  const apps = new Map<string, { a: FastifyInstance; bearer: string }>();
  const mockFor = async (op: Operation) => {
    const key = op.readOnly ? 'read-only' : op.id;
    let m = apps.get(key);
    if (!m) {
      const a = await app({ requests: o.mode, limits, onRequestViolation: (l) => violations.push(l) });
      apps.set(key, (m = { a, bearer: await token(a) }));
    }
    return m;
  };
  const counts: FuzzCounts = {
    operations: ops.size,
    constraints: targets.length,
    tried: 0,
    refused: 0,
    served: 0,
    conflicts: 0,
    mismatches: [],
  };
  const mergedBodies = new Map([...ops].map((id) => [id, mergeConstraints(forms.map((f) => formConstraints(f, id)))?.body]));
  const documenting = (id: string) => forms.filter((f) => f.documentedPath(id));
  for (const [i, t] of targets.entries()) {
    const { a, bearer } = await mockFor(t.op);
    for (let round = 0; round < (o.rounds ?? 1); round++) {
      const rng = o.seed * 7919 + i * 31 + round;
      for (const direction of ['breaking', 'keeping'] as const) {
        const value = direction === 'breaking' ? breakingValue(t, rng) : keepingValue(t, rng);
        if (value === undefined) continue;
        const req = build(t.op, bearer, t.c.location, value, mergedBodies.get(t.op.id));
        const judged = documenting(t.op.id).map((f) => f.requestProblems(t.op.id, req));
        const refusedByDocument = judged.every((p) => p.length > 0);
        counts.tried += 1;
        const r = await a.inject({
          method: t.op.method,
          url: req.url,
          headers: { ...req.headers, ...(t.op.jsonBody ? { 'content-type': 'application/json' } : {}) },
          ...(t.op.jsonBody ? { payload: JSON.stringify(req.body ?? {}) } : {}),
        });
        const what = `${t.op.id} ${t.c.location} ${t.c.keyword} ${t.c.value}: ${direction} value ${JSON.stringify(value === ABSENT ? '(absent)' : value).slice(0, 60)}`;
        const errors =
          r.statusCode === 400 ? ((JSON.parse(r.body) as { errors?: { field: string | null; id?: string }[] }).errors ?? []) : [];
        if (errors.some((e) => e.id === 'documentConflict')) {
          counts.conflicts += 1;
          continue;
        }
        // Served, or refused for a reason the document or the seed gives: an unknown id (404), a signature that is not the event's (401).
        const signature = /^header (x-hub-signature|authorization)$/.test(t.c.location) && r.statusCode === 401;
        const served = (r.statusCode >= 200 && r.statusCode < 300) || r.statusCode === 404 || signature;
        if (refusedByDocument && o.mode === 'strict') {
          if (
            r.statusCode === 400 &&
            namesLocation(
              t.c.location,
              errors.map((e) => e.field ?? ''),
            )
          )
            counts.refused += 1;
          else
            counts.mismatches.push(
              `${what}: both forms refuse (${judged.map((p) => p[0]).join('; ')}); the mock answered ${r.statusCode} ${r.body.slice(0, 160)}`,
            );
        } else if (refusedByDocument) {
          const header = r.headers[VIOLATIONS_HEADER];
          const noted = typeof header === 'string' ? (JSON.parse(header) as Violation[]).map((v) => v.location.slice(2).join('.')) : [];
          if (served && namesLocation(t.c.location, noted)) counts.refused += 1;
          else counts.mismatches.push(`${what}: both forms refuse; warn mode answered ${r.statusCode} noting ${JSON.stringify(noted)}`);
        } else if (served) counts.served += 1;
        else counts.mismatches.push(`${what}: a form allows it; the mock answered ${r.statusCode} ${r.body.slice(0, 160)}`);
      }
    }
  }
  for (const { a } of apps.values()) await a.close();
  return counts;
}

export const fuzzSummary = (mode: string, c: FuzzCounts): string =>
  `document fuzz (${mode}): ${c.operations} operations, ${c.constraints} constraints, ${c.tried} values tried, ${c.refused} refused, ${c.served} served, ${c.conflicts} answered by a documented client conflict, ${c.mismatches.length} mismatches`;

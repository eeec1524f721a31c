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
import { allOperations, fillPath, type Operation, type RequestConstraintSet } from '../../catalogue';
import { requestFor } from '../../fixtures';
import { signatureHeaders } from '../../clients/webhook-signature';
import { flattenConstraints, formConstraints, mergeConstraints, type FlatConstraint } from '../../openapi/document-constraints';
import type { OpenApiContract } from '../../openapi/import/openapi-contract';
import { VIOLATIONS_HEADER, type Violation } from '../../mock/checks/request-violations';
import { app, IM, RESELLER_WEBHOOK_SECRET, token } from './helpers';

type Node = Record<string, unknown>;
const DELETE = Symbol('absent');
type Value = unknown;

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

/** One constraint of a form, its operation, and the nodes to draw values from. */
interface Target {
  op: Operation;
  c: FlatConstraint;
  /** The node of the form giving the constraint, at its location. */
  node: Node;
  /** What either form allows at the location. */
  merged: Node;
}

const ALNUM = [...'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789'];
const str = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...ALNUM), minLength: min, maxLength: Math.max(min, max) });

/** The path segments of a body location (`lines[].endUserPrice` → lines, [], endUserPrice). */
function segmentsOf(location: string): string[] {
  const path = location.replace(/^body ?/, '');
  return path === '' ? [] : path.split('.').flatMap((s) => (s.endsWith('[]') ? [s.slice(0, -2), '[]'].filter(Boolean) : [s]));
}

/** The node at a path of a schema; undefined where the schema says nothing. */
function nodeAt(schema: Node | undefined, segments: readonly string[]): Node | undefined {
  let n = schema;
  for (const s of segments) {
    if (!n) return undefined;
    n = (s === '[]' ? n.items : (n.properties as Record<string, Node> | undefined)?.[s]) as Node | undefined;
  }
  return n;
}

const typesOf = (n: Node | undefined): string[] =>
  n?.type === undefined ? [] : Array.isArray(n.type) ? (n.type as string[]) : [n.type as string];

/** A minimal value a node allows (its required names filled in). */
function sample(n: Node | undefined, depth = 0): Value {
  if (!n) return 'A';
  if (Array.isArray(n.enum)) return (n.enum as unknown[]).find((v) => v !== null) ?? null;
  const t = typesOf(n).filter((x) => x !== 'null')[0] ?? (n.properties ? 'object' : 'string');
  if (t === 'object') {
    const props = (n.properties as Record<string, Node> | undefined) ?? {};
    const req = depth > 8 ? [] : ((n.required as string[] | undefined) ?? []);
    return Object.fromEntries(req.map((r) => [r, sample(props[r], depth + 1)]));
  }
  if (t === 'array') return typeof n.minItems === 'number' && n.minItems > 0 ? [sample(n.items as Node, depth + 1)] : [];
  if (t === 'integer') return typeof n.minimum === 'number' && n.minimum > 1 ? n.minimum : 1;
  if (t === 'number') return 1.5;
  if (t === 'boolean') return true;
  if (n.format === 'date') return '2026-01-01';
  if (n.format === 'date-time') return '2026-01-01T00:00:00Z';
  const min = typeof n.minLength === 'number' ? n.minLength : 1;
  return 'A'.repeat(Math.min(min, typeof n.maxLength === 'number' ? n.maxLength : min));
}

/** A copy of the body with `value` at the path (parents made as the merged schema allows them), or the name removed. */
function setAt(body: unknown, segments: readonly string[], value: Value | typeof DELETE, schema: Node | undefined): unknown {
  if (!segments.length) return value === DELETE ? undefined : value;
  const [head, ...rest] = segments as [string, ...string[]];
  const here = nodeAt(schema, [head]);
  if (head === '[]') {
    const list = Array.isArray(body) ? [...(body as unknown[])] : [];
    const first = list.length ? list[0] : sample(here);
    list[0] = setAt(first, rest, value, here);
    return list;
  }
  const obj = body && typeof body === 'object' && !Array.isArray(body) ? { ...(body as Record<string, unknown>) } : {};
  if (!rest.length) {
    if (value === DELETE) delete obj[head];
    else obj[head] = value;
    return obj;
  }
  const child = obj[head] !== undefined && obj[head] !== null && typeof obj[head] === 'object' ? obj[head] : sample(here);
  obj[head] = setAt(child, rest, value, here);
  return obj;
}

/** A value of a type the node does not allow (a number is allowed where a number is; an integer refuses 1.5). */
function offType(types: readonly string[], rng: number): Value | undefined {
  const candidates: [string, Value][] = [
    ['object', {}],
    ['array', []],
    ['string', `AAA${rng}`],
    ['number', 1.5],
    ['boolean', true],
  ];
  const allowed = (t: string) => types.includes(t) || (t === 'number' && false);
  const ok = candidates.filter(([t, v]) => !allowed(t) && !(t === 'number' && types.includes('number') && v !== undefined));
  return ok.length ? (ok[rng % ok.length] as [string, Value])[1] : undefined;
}

/** A query parameter read as a list (or an item of one): any value a query string carries is one of its forms. */
const arrayParam = (t: Target, part: string): boolean =>
  part === 'query' && (t.c.location.endsWith('[]') || typesOf(t.merged).includes('array'));

/** A value breaking the constraint (drawn from `rng`); undefined when no value can (a string query parameter's type). */
function breaking(t: Target, part: string, rng: number): Value | typeof DELETE | undefined {
  const { c, node } = t;
  const n = Number(c.value);
  const asParam = (v: Value) => (part === 'body' ? v : String(v));
  switch (c.keyword) {
    case 'required':
      return DELETE;
    case 'maxLength':
      return fc.sample(str(n + 1, n + 6), { seed: rng, numRuns: 1 })[0];
    case 'minLength':
      return n > 0 ? fc.sample(str(n - 1, n - 1), { seed: rng, numRuns: 1 })[0] : undefined;
    case 'enum':
      return `ZZ${fc.sample(str(1, 6), { seed: rng, numRuns: 1 })[0]}`;
    case 'minimum':
      return asParam(n - 1);
    case 'maximum':
      return asParam(n + 1);
    case 'minItems':
      return n > 0 ? [] : undefined;
    case 'maxItems':
      return Array.from({ length: n + 1 }, () => sample(node.items as Node));
    case 'format':
      if (c.value === 'int32') return asParam(2147483648);
      return ['date', 'date-time', 'email', 'uuid', 'uri'].includes(c.value) ? `AAA${rng % 1000}` : undefined;
    case 'type': {
      if (part === 'header' || arrayParam(t, part)) return undefined;
      const types = typesOf(node);
      if (part === 'query')
        return types.some((x) => ['integer', 'number', 'boolean'].includes(x)) && !types.includes('string')
          ? `AAA${rng % 1000}`
          : undefined;
      return offType(types, rng);
    }
    default:
      return undefined;
  }
}

/** A value keeping the constraint and whatever else either form gives the location. */
function keeping(t: Target, part: string, rng: number): Value | undefined {
  const { c, merged } = t;
  if (arrayParam(t, part)) return undefined;
  const n = Number(c.value);
  const plain = !Array.isArray(merged.enum) && merged.format === undefined && merged.pattern === undefined;
  const asParam = (v: Value) => (part === 'body' ? v : String(v));
  if (c.keyword === 'maxLength' && plain && (typeof merged.maxLength !== 'number' || merged.maxLength >= n))
    return fc.sample(
      str(Math.max(Number(merged.minLength ?? 0), Math.min(n, Number(merged.maxLength ?? n))), Number(merged.maxLength ?? n)),
      { seed: rng, numRuns: 1 },
    )[0];
  if (c.keyword === 'enum' && Array.isArray(merged.enum)) return (merged.enum as unknown[])[rng % (merged.enum as unknown[]).length];
  if ((c.keyword === 'minimum' || c.keyword === 'maximum') && typeof merged[c.keyword] === 'number') return asParam(merged[c.keyword]);
  const v = sample(merged);
  return part === 'body' ? v : typeof v === 'string' ? v : String(v);
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

/** The node at a flattened location of a constraint set (headers by name in any case). */
function locate(set: RequestConstraintSet, location: string): Node | undefined {
  const [part, name] = location.split(' ') as [string, string | undefined];
  if (part === 'header') return Object.entries(set.headers).find(([k]) => k.toLowerCase() === name)?.[1];
  if (part === 'query') return set.query[(name ?? '').replace(/\[\]$/, '')];
  return nodeAt(set.body, segmentsOf(location));
}

interface Built {
  url: string;
  headers: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
}

/** The catalogue's valid request of an operation, with a value (or its absence) at a location. */
function build(op: Operation, bearer: string, location: string, value: Value | typeof DELETE, mergedBody: Node | undefined): Built {
  const base = requestFor(op);
  const headers: Record<string, string> = { authorization: `Bearer ${bearer}`, ...(op.webhook ? {} : IM), ...(base.headers ?? {}) };
  const query = { ...base.query };
  let body: unknown = op.jsonBody ? (base.body ?? {}) : undefined;
  const [part, name = ''] = location.split(' ');
  if (part === 'header') {
    const k = Object.keys(headers).find((h) => h.toLowerCase() === name) ?? name;
    if (value === DELETE) delete headers[k];
    else headers[k] = String(value);
  } else if (part === 'query') {
    if (value === DELETE) delete query[name];
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
    const [part = ''] = t.c.location.split(' ');
    const { a, bearer } = await mockFor(t.op);
    for (let round = 0; round < (o.rounds ?? 1); round++) {
      const rng = o.seed * 7919 + i * 31 + round;
      for (const direction of ['breaking', 'keeping'] as const) {
        const value = direction === 'breaking' ? breaking(t, part, rng) : keeping(t, part, rng);
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
        const what = `${t.op.id} ${t.c.location} ${t.c.keyword} ${t.c.value}: ${direction} value ${JSON.stringify(value === DELETE ? '(absent)' : value).slice(0, 60)}`;
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

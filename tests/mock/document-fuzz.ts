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
 *   A value both forms refuse that a documented client conflict serves by its own rule, and reports
 *   (mock/checks/document-conflicts.ts), is counted apart.
 *
 * Besides the values breaking and keeping each constraint, values at a location's edges (edgeValues): a header sent
 * empty, a list of each length where either form gives an array. And the documents' paths themselves
 * (runPathFuzz): every method either form gives a path served, `Allow` naming exactly the methods a path serves,
 * and a path parameter of a drawn length answered as the router's limit and the forms' maxLength say, in the API's
 * error shape.
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
import { MAX_PARAM_LENGTH } from '../../mock/routes/error-handlers';
import { app, authed, expectErrorShape, IM, RESELLER_WEBHOOK_SECRET, token } from './helpers';
import {
  ABSENT,
  breakingValue,
  keepingValue,
  locate,
  partOf,
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
  /** Refused by every form, and served by a documented client conflict's own rule, which reported it. */
  conflicts: number;
  mismatches: string[];
}

/** One constraint of a form, its operation, and the nodes to draw values from (contracts/judge/input-values.ts). */
interface Target extends ValueTarget {
  op: Operation;
}

/**
 * The constraints the fuzz draws from: every (operation, location, keyword, value) either form gives, once. A path
 * parameter's are the path fuzz's (runPathFuzz: lengths around the router's limit and the forms' maxLength).
 */
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
      for (const c of flattenConstraints(set).filter((x) => partOf(x.location) !== 'path')) {
        const key = `${c.location} ${c.keyword} ${c.value}`;
        if (seen.has(key)) continue;
        seen.add(key);
        targets.push({ op, c, node: locate(set, c.location) ?? {}, merged: locate(merged, c.location) ?? {} });
      }
    }
  }
  return { ops, targets };
}

/** A length drawn from `min` to `max` (seeded). */
const lengthOf = (min: number, max: number, seed: number): number => fc.sample(fc.integer({ min, max }), { seed, numRuns: 1 })[0] ?? min;

/**
 * Values at a location's edges that the breaking and keeping values do not reach, drawn once per location (on its
 * `type` constraint) and judged by the forms like any other: a header sent empty (a required one is present; only a
 * minLength or pattern a form gives refuses it), and where either form gives a body location an array, a list of
 * none and one of a drawn length up to one past the looser maxItems (3 without one), its items kept.
 */
function edgeValues(t: Target, rng: number): InputValue[] {
  if (t.c.keyword !== 'type') return [];
  if (partOf(t.c.location) === 'header') return [''];
  if (partOf(t.c.location) !== 'body' || !t.c.value.split('|').includes('array')) return [];
  const items = (t.merged.items ?? {}) as Node;
  const item = keepingValue({ c: { location: `${t.c.location}[]`, keyword: 'type', value: 'object' }, node: items, merged: items }, rng);
  const most = typeof t.merged.maxItems === 'number' ? t.merged.maxItems + 1 : 3;
  return [0, lengthOf(1, Math.max(1, most), rng)].map((n) => Array.from({ length: n }, () => structuredClone(item)));
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

/**
 * What one answer counts as, against what the forms judged (`judged`: each documenting form's problems with the
 * request): refused as the mode refuses (strict: 400 naming the location; warn: served, the location noted), served,
 * or served by a documented client conflict's own rule (it reported the request); otherwise the mismatch.
 */
function verdictOf(
  r: { statusCode: number; body: string; headers: Record<string, unknown> },
  x: { location: string; mode: FuzzOptions['mode']; judged: readonly string[][]; byConflict: boolean },
): 'refused' | 'served' | 'conflicts' | { mismatch: string } {
  const refusedByDocument = x.judged.every((p) => p.length > 0);
  // Served, or refused for a reason the document or the seed gives: an unknown id (404), a signature that is not the event's (401).
  const signature = /^header (x-hub-signature|authorization)$/.test(x.location) && r.statusCode === 401;
  const served = (r.statusCode >= 200 && r.statusCode < 300) || r.statusCode === 404 || signature;
  const answered = `${r.statusCode} ${r.body.slice(0, 160)}`;
  if (!refusedByDocument) return served ? 'served' : { mismatch: `a form allows it; the mock answered ${answered}` };
  if (x.mode === 'strict') {
    const errors = r.statusCode === 400 ? ((JSON.parse(r.body) as { errors?: { field: string | null }[] }).errors ?? []) : [];
    if (
      r.statusCode === 400 &&
      namesLocation(
        x.location,
        errors.map((e) => e.field ?? ''),
      )
    )
      return 'refused';
  } else {
    const header = r.headers[VIOLATIONS_HEADER];
    const noted = typeof header === 'string' ? (JSON.parse(header) as Violation[]).map((v) => v.location.slice(2).join('.')) : [];
    if (served && namesLocation(x.location, noted)) return 'refused';
  }
  if (served && x.byConflict) return 'conflicts';
  return { mismatch: `both forms refuse (${x.judged.map((p) => p[0]).join('; ')}); the ${x.mode} mock answered ${answered}` };
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
  const conflictReports: string[] = [];
  // Read-only operations share a mock; each operation that changes state has its own (a cancelled order cannot be modified: 409).
  const apps = new Map<string, { a: FastifyInstance; bearer: string }>();
  const mockFor = async (op: Operation) => {
    const key = op.readOnly ? 'read-only' : op.id;
    let m = apps.get(key);
    if (!m) {
      const a = await app({
        requests: o.mode,
        limits,
        onRequestViolation: (l) => violations.push(l),
        onDocumentConflict: (m) => conflictReports.push(m),
      });
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
      const tries = [
        ['breaking', breakingValue(t, rng)],
        ['keeping', keepingValue(t, rng)],
        ...(round === 0 ? edgeValues(t, rng).map((v) => ['edge', v] as const) : []),
      ] as const;
      for (const [direction, value] of tries) {
        if (value === undefined) continue;
        const req = build(t.op, bearer, t.c.location, value, mergedBodies.get(t.op.id));
        const judged = documenting(t.op.id).map((f) => f.requestProblems(t.op.id, req));
        counts.tried += 1;
        const reported = conflictReports.length;
        const r = await a.inject({
          method: t.op.method,
          url: req.url,
          headers: { ...req.headers, ...(t.op.jsonBody ? { 'content-type': 'application/json' } : {}) },
          ...(t.op.jsonBody ? { payload: JSON.stringify(req.body ?? {}) } : {}),
        });
        const what = `${t.op.id} ${t.c.location} ${t.c.keyword} ${t.c.value}: ${direction} value ${JSON.stringify(value === ABSENT ? '(absent)' : value).slice(0, 60)}`;
        const verdict = verdictOf(r, { location: t.c.location, mode: o.mode, judged, byConflict: conflictReports.length > reported });
        if (typeof verdict === 'string') counts[verdict] += 1;
        else counts.mismatches.push(`${what}: ${verdict.mismatch}`);
      }
    }
  }
  for (const { a } of apps.values()) await a.close();
  return counts;
}

export const fuzzSummary = (mode: string, c: FuzzCounts): string =>
  `document fuzz (${mode}): ${c.operations} operations, ${c.constraints} constraints, ${c.tried} values tried, ${c.refused} refused, ${c.served} served, ${c.conflicts} answered by a documented client conflict, ${c.mismatches.length} mismatches`;

/** A published form's paths, as the document lists them: each path item by its path. */
export type DocumentPaths = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

/** The methods the path fuzz sends to every documented path (HEAD too: Fastify answers it as the path's GET, served or 405). */
const PROBED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE'] as const;
const OPENAPI_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

export interface PathFuzzCounts {
  /** Documented paths, one per template whatever its parameters are named. */
  paths: number;
  methodsTried: number;
  longParametersTried: number;
  mismatches: string[];
}

/** Each documented path template (parameters anonymised: `{}`), with the methods either form gives it. */
function documentedPaths(documents: readonly DocumentPaths[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const paths of documents) {
    for (const [path, item] of Object.entries(paths)) {
      const key = path.replace(/\{[^}]+\}/g, '{}');
      const methods = out.get(key) ?? new Set<string>();
      for (const m of Object.keys(item)) if (OPENAPI_METHODS.has(m)) methods.add(m.toUpperCase());
      out.set(key, methods);
    }
  }
  return out;
}

type DocumentedParameter = { in?: string; name?: string; schema?: { maxLength?: unknown } };

/** The maxLength one form gives a path's first parameter (its operations' declarations), if any. */
function firstParameterMaxLength(path: string, item: Readonly<Record<string, unknown>>): number | undefined {
  const name = /\{([^}]+)\}/.exec(path)?.[1];
  const bounds = Object.entries(item)
    .filter(([m]) => OPENAPI_METHODS.has(m))
    .flatMap(([, op]) =>
      ((op as { parameters?: DocumentedParameter[] }).parameters ?? []).filter((p) => p.in === 'path' && p.name === name),
    )
    .map((p) => p.schema?.maxLength);
  return bounds.every((b): b is number => typeof b === 'number') && bounds.length ? Math.max(...bounds) : undefined;
}

/**
 * The maxLength of each documented path template's first parameter, where every form documenting the path gives one
 * (the looser of two): what either form allows is allowed.
 */
function documentedMaxLengths(documents: readonly DocumentPaths[]): Map<string, number> {
  const byPath = new Map<string, (number | undefined)[]>();
  for (const paths of documents)
    for (const [path, item] of Object.entries(paths)) {
      const key = path.replace(/\{[^}]+\}/g, '{}');
      byPath.set(key, [...(byPath.get(key) ?? []), firstParameterMaxLength(path, item)]);
    }
  const out = new Map<string, number>();
  for (const [key, bounds] of byPath) if (bounds.every((b) => b !== undefined)) out.set(key, Math.max(...(bounds as number[])));
  return out;
}

/** The error entries' ids of an answer, when it is in the API's error shape. */
const errorIds = (body: string): string[] => {
  try {
    return ((JSON.parse(body) as { errors?: { id?: string }[] }).errors ?? []).map((e) => e.id ?? '');
  } catch {
    return [];
  }
};

/**
 * Every documented path sent every probed method: a method either form gives is served (neither 405 nor an unknown
 * path); every 405 names in `Allow` exactly the methods the path serves (those not answered 405).
 */
async function probeMethods(a: FastifyInstance, path: string, documented: ReadonlySet<string>, counts: PathFuzzCounts): Promise<void> {
  const url = path.replace(/\{\}/g, 'X1');
  const refused = new Set<string>();
  const allows = new Set<string>();
  for (const method of PROBED_METHODS) {
    const r = await a.inject({ method, url });
    counts.methodsTried += 1;
    if (r.statusCode === 405) {
      refused.add(method);
      allows.add(String(r.headers.allow));
    }
    if (documented.has(method) && (r.statusCode === 405 || errorIds(r.body).includes('noRoute')))
      counts.mismatches.push(`${method} ${path}: a form documents it; the mock answered ${r.statusCode} ${r.body.slice(0, 120)}`);
  }
  const served = PROBED_METHODS.filter((m) => !refused.has(m)).join(', ');
  for (const allow of allows) {
    const named = allow.split(',').map((m) => m.trim());
    const same = named.length === served.split(', ').length && named.every((m) => served.split(', ').includes(m));
    if (!same) counts.mismatches.push(`${path}: 405 with Allow "${allow}", the path serves ${served}`);
  }
}

/** What a path parameter of a length must be answered: the router's limit, the forms' maxLength, or neither. */
function expectedForLength(length: number, maxLength: number | undefined): 'uriTooLong' | 'invalidPath' | 'neither' {
  if (length > MAX_PARAM_LENGTH) return 'uriTooLong';
  return maxLength !== undefined && length > maxLength ? 'invalidPath' : 'neither';
}

/**
 * A path parameter of a drawn length (and the router's limit, the forms' maxLength and one past each), sent with a
 * token and the required headers: beyond MAX_PARAM_LENGTH refused with 414, else beyond the maxLength every form
 * documenting the path gives refused with 400 naming a path parameter, else neither; every refusal in the error shape.
 */
async function probeLongParameter(
  a: FastifyInstance,
  headers: Record<string, string>,
  at: { path: string; method: string; maxLength: number | undefined },
  length: number,
  counts: PathFuzzCounts,
) {
  const url = at.path.replace('{}', 'A'.repeat(length)).replace(/\{\}/g, 'X1');
  const r = await a.inject({ method: at.method as 'GET', url, headers });
  counts.longParametersTried += 1;
  const expected = expectedForLength(length, at.maxLength);
  const ids = errorIds(r.body);
  const answered = r.statusCode === 414 ? 'uriTooLong' : r.statusCode === 400 && ids.includes('invalidPath') ? 'invalidPath' : 'neither';
  const shaped = r.statusCode < 400 || expectErrorShape(r.body);
  if (answered !== expected || !shaped)
    counts.mismatches.push(
      `${at.method} ${at.path} with a parameter of ${length} characters (${expected} expected): the mock answered ${r.statusCode} ${r.body.slice(0, 120)}`,
    );
}

/** Runs the path fuzz on a fresh mock with every limit out of reach; the counts, and a line per mismatch. */
export async function runPathFuzz(documents: readonly DocumentPaths[], o: { seed: number; rounds?: number }): Promise<PathFuzzCounts> {
  const limits = Object.fromEntries([...allOperations().map((op) => op.id), 'token', 'unrouted'].map((id) => [id, 1e9]));
  const a = await app({ limits });
  const headers = authed(await token(a));
  const paths = documentedPaths(documents);
  const maxLengths = documentedMaxLengths(documents);
  const counts: PathFuzzCounts = { paths: paths.size, methodsTried: 0, longParametersTried: 0, mismatches: [] };
  for (const [i, [path, documented]] of [...paths].entries()) {
    await probeMethods(a, path, documented, counts);
    const method = [...documented][0];
    if (!path.includes('{}') || !method) continue;
    const maxLength = maxLengths.get(path);
    const drawn = Array.from({ length: o.rounds ?? 1 }, (_, round) => lengthOf(1, 4 * MAX_PARAM_LENGTH, o.seed * 7919 + i * 31 + round));
    const edges = maxLength === undefined ? [] : [maxLength, maxLength + 1];
    for (const length of [...edges, MAX_PARAM_LENGTH, MAX_PARAM_LENGTH + 1, ...drawn])
      await probeLongParameter(a, headers, { path, method, maxLength }, length, counts);
  }
  await a.close();
  return counts;
}

export const pathFuzzSummary = (c: PathFuzzCounts): string =>
  `path fuzz: ${c.paths} documented paths, ${c.methodsTried} methods tried, ${c.longParametersTried} path parameters of drawn lengths, ${c.mismatches.length} mismatches`;

/**
 * Values drawn from the request constraints a published form gives (catalogue/request-constraints.ts): at a location
 * (`header im-countrycode`, `query pageSize`, `body lines[].endUserPrice`) and for one of its keywords, a value that
 * breaks the constraint and a value that keeps it and whatever else the merged forms give there. Seeded: the same
 * seed draws the same value. Certify's input checks (contracts/inputs.spec.ts) and the document fuzz of the mock
 * (tests/mock/document-fuzz.ts) draw from here.
 */
import fc from 'fast-check';
import type { ConstraintNode as Node, RequestConstraintSet } from '../../catalogue';
import type { FlatConstraint } from '../../openapi/document-constraints';

/** A name left out of the request (a required header, query parameter or body property). */
export const ABSENT = Symbol('absent');
export type InputValue = unknown;

/** One constraint at its location: the node of the form giving it, and what either form allows there. */
export interface ValueTarget {
  c: FlatConstraint;
  node: Node;
  merged: Node;
}

const ALNUM = [...'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789'];
const str = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...ALNUM), minLength: min, maxLength: Math.max(min, max) });
const draw = <T>(a: fc.Arbitrary<T>, seed: number): T => fc.sample(a, { seed, numRuns: 1 })[0] as T;

/** The path segments of a body location (`lines[].endUserPrice` → lines, [], endUserPrice). */
export function segmentsOf(location: string): string[] {
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

/** The node at a flattened location of a constraint set (headers by name in any case). */
export function locate(set: RequestConstraintSet, location: string): Node | undefined {
  const [part, name] = location.split(' ') as [string, string | undefined];
  if (part === 'header') return Object.entries(set.headers).find(([k]) => k.toLowerCase() === name)?.[1];
  if (part === 'query') return set.query[(name ?? '').replace(/\[\]$/, '')];
  return nodeAt(set.body, segmentsOf(location));
}

const typesOf = (n: Node | undefined): string[] =>
  n?.type === undefined ? [] : Array.isArray(n.type) ? (n.type as string[]) : [n.type as string];

/** A minimal value a node allows (its required names filled in). */
function sample(n: Node | undefined, depth = 0): InputValue {
  if (!n) return 'A';
  if (Array.isArray(n.enum)) return (n.enum as unknown[]).find((v) => v !== null) ?? null;
  const t = typesOf(n).filter((x) => x !== 'null')[0] ?? (n.properties ? 'object' : 'string');
  if (t === 'object') {
    const props = (n.properties as Record<string, Node> | undefined) ?? {};
    const req = depth > 8 ? [] : ((n.required as string[] | undefined) ?? []);
    return Object.fromEntries(req.map((r) => [r, sample(props[r], depth + 1)]));
  }
  if (t === 'array') return typeof n.minItems === 'number' && n.minItems > 0 ? [sample(n.items as Node, depth + 1)] : [];
  return scalarSample(n, t);
}

/** A minimal scalar of a type the node allows. */
function scalarSample(n: Node, t: string): InputValue {
  if (t === 'integer') return typeof n.minimum === 'number' && n.minimum > 1 ? n.minimum : 1;
  if (t === 'number') return 1.5;
  if (t === 'boolean') return true;
  if (n.format === 'date') return '2026-01-01';
  if (n.format === 'date-time') return '2026-01-01T00:00:00Z';
  const min = typeof n.minLength === 'number' ? n.minLength : 1;
  return 'A'.repeat(Math.min(min, typeof n.maxLength === 'number' ? n.maxLength : min));
}

/** A copy of the body with `value` at the path (parents made as the merged schema allows them), or the name removed. */
export function setAt(body: unknown, segments: readonly string[], value: InputValue, schema: Node | undefined): unknown {
  if (!segments.length) return value === ABSENT ? undefined : value;
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
    if (value === ABSENT) delete obj[head];
    else obj[head] = value;
    return obj;
  }
  const child = obj[head] !== undefined && obj[head] !== null && typeof obj[head] === 'object' ? obj[head] : sample(here);
  obj[head] = setAt(child, rest, value, here);
  return obj;
}

/** A value of a type the node does not allow (an integer refuses 1.5; a number allows it). */
function offType(types: readonly string[], rng: number): InputValue | undefined {
  const candidates: [string, InputValue][] = [
    ['object', {}],
    ['array', []],
    ['string', `AAA${rng}`],
    ['number', 1.5],
    ['boolean', true],
  ];
  const ok = candidates.filter(([t]) => !types.includes(t));
  return ok.length ? (ok[rng % ok.length] as [string, InputValue])[1] : undefined;
}

/** The part of the request a location is in: header, query or body. */
export const partOf = (location: string): string => location.split(' ')[0] ?? '';

/** A query parameter read as a list (or an item of one): any value a query string carries is one of its forms. */
const arrayParam = (t: ValueTarget): boolean =>
  partOf(t.c.location) === 'query' && (t.c.location.endsWith('[]') || typesOf(t.merged).includes('array'));

/** A value breaking the constraint (drawn from `rng`); undefined when no value can (a string query parameter's type). */
export function breakingValue(t: ValueTarget, rng: number): InputValue | undefined {
  const { c, node } = t;
  const part = partOf(c.location);
  const n = Number(c.value);
  const asParam = (v: InputValue) => (part === 'body' ? v : String(v));
  switch (c.keyword) {
    case 'required':
      return ABSENT;
    case 'maxLength':
      return draw(str(n + 1, n + 6), rng);
    case 'minLength':
      return n > 0 ? draw(str(n - 1, n - 1), rng) : undefined;
    case 'enum':
      return `ZZ${draw(str(1, 6), rng)}`;
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
    case 'type':
      return offTypeAt(t, rng);
    default:
      return undefined;
  }
}

/** A value of another type than the location allows: any in a body; in a query string, a word where a number or boolean is. */
function offTypeAt(t: ValueTarget, rng: number): InputValue | undefined {
  const part = partOf(t.c.location);
  if (part === 'header' || arrayParam(t)) return undefined;
  const types = typesOf(t.node);
  if (part === 'query')
    return types.some((x) => ['integer', 'number', 'boolean'].includes(x)) && !types.includes('string') ? `AAA${rng % 1000}` : undefined;
  return offType(types, rng);
}

/** A value keeping the constraint and whatever else either form gives the location. */
export function keepingValue(t: ValueTarget, rng: number): InputValue | undefined {
  const { c, merged } = t;
  if (arrayParam(t)) return undefined;
  const part = partOf(c.location);
  const n = Number(c.value);
  const plain = !Array.isArray(merged.enum) && merged.format === undefined && merged.pattern === undefined;
  const asParam = (v: InputValue) => (part === 'body' ? v : String(v));
  if (c.keyword === 'maxLength' && plain && (typeof merged.maxLength !== 'number' || merged.maxLength >= n)) {
    const max = Number(merged.maxLength ?? n);
    return draw(str(Math.max(Number(merged.minLength ?? 0), Math.min(n, max)), max), rng);
  }
  if (c.keyword === 'enum' && Array.isArray(merged.enum)) return (merged.enum as unknown[])[rng % (merged.enum as unknown[]).length];
  if ((c.keyword === 'minimum' || c.keyword === 'maximum') && typeof merged[c.keyword] === 'number') return asParam(merged[c.keyword]);
  const v = sample(merged);
  return part === 'body' ? v : typeof v === 'string' ? v : String(v);
}

/**
 * What a published form of the document constrains in a request, per operation: its header, query and path
 * parameters' schemas and its JSON body's, reduced to the keywords a validator enforces (no description, example or
 * default), and the merge of both forms the catalogue holds (catalogue/request-constraints.ts): what either form
 * allows is allowed, what both refuse is refused, location by location.
 *
 * `npm run openapi -- constraints <yaml> <json>` writes the merge; tests/openapi/request-schemas.spec.ts holds
 * the catalogue to each form, both ways (flattenConstraints: one entry per location and keyword).
 */
import type { OpenApiContract } from './import/openapi-contract';

import type { ConstraintNode as Node, RequestConstraintSet } from '../catalogue/request-constraints';
import { operationById } from '../catalogue';

export type { RequestConstraintSet };

/** Formats a validator of the project enforces (ajv-formats); any other (`decimal`) refuses nothing: the catalogue leaves it out (enforcedOnly). */
export const ENFORCED_FORMATS: ReadonlySet<string> = new Set([
  'date',
  'date-time',
  'time',
  'email',
  'uri',
  'uuid',
  'ipv4',
  'ipv6',
  'hostname',
  'int32',
  'int64',
  'float',
  'double',
]);

const STRING_KEYS = ['maxLength', 'minLength', 'pattern'] as const;
const NUMBER_KEYS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const;
const ARRAY_KEYS = ['minItems', 'maxItems'] as const;
/** Keywords whose larger value allows more. */
const UPPER = new Set(['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems']);

/** The types a node allows (undefined: any, as a validator reads a node without `type`, properties or not). */
function typesOf(n: Node): Set<string> | undefined {
  if (n.type === undefined) return undefined;
  const t = new Set(Array.isArray(n.type) ? (n.type as string[]) : [n.type as string]);
  if (n.nullable === true) t.add('null');
  return t;
}

const allows = (types: Set<string> | undefined, t: string): boolean =>
  !types || types.has(t) || (t === 'integer' && types.has('number')) || (t === 'number' && types.has('integer'));

/** One form's node reduced to the enforced keywords, its properties and items read the same way. */
export function reduceNode(n: Node | undefined, depth = 0): Node {
  if (!n || typeof n !== 'object' || depth > 12) return {};
  const out: Node = {};
  const types = typesOf(n);
  if (types) out.type = types.size === 1 ? [...types][0] : [...types].sort();
  if (typeof n.format === 'string') out.format = n.format;
  if (Array.isArray(n.enum)) out.enum = [...(n.enum as unknown[])];
  for (const k of [...STRING_KEYS, ...NUMBER_KEYS, ...ARRAY_KEYS]) if (n[k] !== undefined) out[k] = n[k];
  if (n.properties && typeof n.properties === 'object')
    out.properties = Object.fromEntries(
      Object.entries(n.properties as Record<string, Node>).map(([k, v]) => [k, reduceNode(v, depth + 1)]),
    );
  if (Array.isArray(n.required) && n.required.length) out.required = [...(n.required as string[])];
  if (n.items && typeof n.items === 'object' && !Array.isArray(n.items)) out.items = reduceNode(n.items as Node, depth + 1);
  if (n.additionalProperties === false) out.additionalProperties = false;
  return out;
}

/**
 * The merge of the forms' nodes at one location: a value is refused only where every form refuses it. Types are
 * united; a bound is kept only when every form allowing the bound's type gives one (the loosest); an enum only
 * when every form gives one (their union); a required name only when every form requires it; a property only one
 * form declares takes any value (the other form allows it).
 */
export function mergeNodes(nodes: readonly Node[]): Node {
  if (nodes.length === 1) return nodes[0] as Node;
  // A form that constrains nothing here allows every value.
  if (nodes.some((n) => Object.keys(n).length === 0)) return {};
  const typeSets = nodes.map(typesOf);
  const out: Node = {};
  if (typeSets.every((t) => t !== undefined)) {
    const all = new Set(typeSets.flatMap((t) => [...(t as Set<string>)]));
    if (all.has('number')) all.delete('integer');
    out.type = all.size === 1 ? [...all][0] : [...all].sort();
  }
  const forType = (t: string) => nodes.filter((_, i) => allows(typeSets[i], t));
  mergeBounds(out, STRING_KEYS, forType('string'));
  mergeBounds(out, NUMBER_KEYS, forType('number'));
  const formats = nodes.filter((_, i) => allows(typeSets[i], 'string') || allows(typeSets[i], 'number'));
  if (formats.length && formats.every((n) => n.format !== undefined && n.format === formats[0]?.format)) out.format = formats[0]?.format;
  if (nodes.every((n) => Array.isArray(n.enum))) out.enum = [...new Set(nodes.flatMap((n) => n.enum as unknown[]))];
  const arrays = forType('array');
  mergeBounds(out, ARRAY_KEYS, arrays);
  if (arrays.length) {
    const items = mergeNodes(arrays.map((n) => (n.items as Node | undefined) ?? {}));
    if (Object.keys(items).length) out.items = items;
  }
  const objects = forType('object');
  if (objects.length) mergeObjects(out, objects);
  return out;
}

/** The loosest of each bound every node gives (a pattern only when all give the same). */
function mergeBounds(out: Node, keys: readonly string[], among: readonly Node[]): void {
  for (const k of keys) {
    if (!among.length || among.some((n) => n[k] === undefined)) continue;
    const vals = among.map((n) => n[k]);
    if (k === 'pattern') {
      if (vals.every((v) => v === vals[0])) out[k] = vals[0];
      continue;
    }
    out[k] = UPPER.has(k) ? Math.max(...(vals as number[])) : Math.min(...(vals as number[]));
  }
}

/** Properties merged name by name; a name required only where every node requires it. */
function mergeObjects(out: Node, objects: readonly Node[]): void {
  const propsOf = (n: Node) => (n.properties as Record<string, Node> | undefined) ?? {};
  const names = [...new Set(objects.flatMap((n) => Object.keys(propsOf(n))))];
  const props: Record<string, Node> = {};
  for (const name of names) {
    const merged = mergeNodes(objects.map((n) => propsOf(n)[name] ?? {}));
    // A property either form lets take any value constrains nothing.
    if (Object.keys(merged).length) props[name] = merged;
  }
  if (Object.keys(props).length) out.properties = props;
  const first = (objects[0]?.required as string[] | undefined) ?? [];
  const both = first.filter((r) => objects.every((n) => Array.isArray(n.required) && (n.required as string[]).includes(r)));
  if (both.length) out.required = both;
  if (objects.every((n) => n.additionalProperties === false)) out.additionalProperties = false;
}

/** A copy of a node without the formats no validator enforces (they refuse nothing; ajv's strict mode refuses them). */
export function enforcedOnly<T>(n: T): T {
  if (Array.isArray(n)) return n.map((x: unknown) => enforcedOnly(x)) as T;
  if (!n || typeof n !== 'object') return n;
  const entries = Object.entries(n as Node).filter(([k, v]) => !(k === 'format' && typeof v === 'string' && !ENFORCED_FORMATS.has(v)));
  return Object.fromEntries(entries.map(([k, v]) => [k, k === 'enum' ? v : enforcedOnly(v)])) as T;
}

/** A parameter's node with `required: true` when the form requires it. */
const paramNode = (required: boolean, schema: Node | undefined): Node => ({
  ...(required ? { required: true } : {}),
  ...reduceNode(schema),
});

const pathNames = (path: string): string[] => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);

/** What one form says of an operation's request; undefined when the form lacks the operation. */
export function formConstraints(c: OpenApiContract, operationId: string): RequestConstraintSet | undefined {
  const documented = c.documentedPath(operationId);
  if (!documented) return undefined;
  const out: RequestConstraintSet = { headers: {}, query: {} };
  // A path parameter by the catalogue's name at the same place in the path (`{ingramPartNumber}` is `{partNumber}`).
  const places = pathNames(documented.path);
  const ours = operationById(operationId).pathParams;
  for (const p of c.parameters(operationId)) {
    if (p.in === 'header') out.headers[p.name] = paramNode(p.required, p.schema);
    if (p.in === 'query') out.query[p.name] = paramNode(p.required, p.schema);
    const name = p.in === 'path' ? ours[places.indexOf(p.name)] : undefined;
    if (name !== undefined) (out.path ??= {})[name] = paramNode(p.required, p.schema);
  }
  const schema = c.request(operationId)?.schema;
  if (schema) out.body = reduceNode(schema);
  return out;
}

/** Parameters of one location merged: a name only one form gives is neither required nor constrained (the other form allows anything). */
function mergeParams(sets: readonly Record<string, Node>[], caseless: boolean): Record<string, Node> {
  const key = (n: string) => (caseless ? n.toLowerCase() : n);
  const spelled = new Map<string, string>();
  for (const s of sets) for (const n of Object.keys(s)) if (!spelled.has(key(n))) spelled.set(key(n), n);
  const out: Record<string, Node> = {};
  for (const [k, name] of spelled) {
    const nodes = sets.map((s) => Object.entries(s).find(([n]) => key(n) === k)?.[1] ?? {});
    const merged = mergeNodes(nodes.map(({ required: _r, ...rest }) => rest));
    const required = nodes.every((n) => n.required === true);
    out[name] = { ...(required ? { required: true } : {}), ...merged };
  }
  return out;
}

/** The merge of the forms that have the operation (one form: its own constraints). */
export function mergeConstraints(forms: readonly (RequestConstraintSet | undefined)[]): RequestConstraintSet | undefined {
  const present = forms.filter((f): f is RequestConstraintSet => f !== undefined);
  if (!present.length) return undefined;
  const bodies = present.map((f) => f.body);
  const out: RequestConstraintSet = {
    headers: mergeParams(
      present.map((f) => f.headers),
      true,
    ),
    query: mergeParams(
      present.map((f) => f.query),
      false,
    ),
  };
  if (present.some((f) => f.path !== undefined))
    out.path = mergeParams(
      present.map((f) => f.path ?? {}),
      false,
    );
  if (bodies.some((b) => b !== undefined)) out.body = mergeNodes(bodies.map((b) => b ?? {}));
  return out;
}

/**
 * The locations where the forms documenting an operation constrain its request differently (a keyword one gives and
 * the other lacks, or gives with another value; formats no validator enforces aside): there a value the merge
 * allows may be one a form refuses. Sorted; none when one form documents the operation.
 */
export function disagreeingLocations(forms: readonly (RequestConstraintSet | undefined)[]): string[] {
  const present = forms.filter((f): f is RequestConstraintSet => f !== undefined);
  if (present.length < 2) return [];
  const byLocation = present.map((s) => {
    const m = new Map<string, Set<string>>();
    for (const c of flattenConstraints(enforcedOnly(s))) m.set(c.location, (m.get(c.location) ?? new Set()).add(`${c.keyword}=${c.value}`));
    return m;
  });
  const same = (a: Set<string> | undefined, b: Set<string> | undefined) =>
    (a?.size ?? 0) === (b?.size ?? 0) && [...(a ?? [])].every((k) => b?.has(k));
  const locations = new Set(byLocation.flatMap((m) => [...m.keys()]));
  return [...locations].filter((l) => byLocation.some((m) => !same(m.get(l), byLocation[0]?.get(l)))).sort();
}

/** One constraint: where (`header IM-CountryCode`, `query pageSize`, `body lines[].endUserPrice`), which keyword, its value. */
export interface FlatConstraint {
  location: string;
  keyword: string;
  value: string;
}

const show = (v: unknown): string =>
  Array.isArray(v)
    ? (v as unknown[])
        .map((x) => (typeof x === 'string' ? x : JSON.stringify(x)))
        .sort()
        .join('|')
    : String(v);

function flattenNode(n: Node, location: string, out: FlatConstraint[], depth = 0): void {
  if (depth > 12) return;
  for (const k of ['type', 'format', 'enum', ...STRING_KEYS, ...NUMBER_KEYS, ...ARRAY_KEYS])
    if (n[k] !== undefined) out.push({ location, keyword: k, value: show(n[k]) });
  if (n.additionalProperties === false) out.push({ location, keyword: 'additionalProperties', value: 'false' });
  const at = (name: string) => (location === 'body' ? `body ${name}` : `${location}.${name}`);
  for (const r of Array.isArray(n.required) ? (n.required as string[]) : [])
    out.push({ location: at(r), keyword: 'required', value: 'true' });
  for (const [name, sub] of Object.entries((n.properties as Record<string, Node> | undefined) ?? {}))
    flattenNode(sub, at(name), out, depth + 1);
  if (n.items && typeof n.items === 'object')
    flattenNode(n.items as Node, location === 'body' ? 'body []' : `${location}[]`, out, depth + 1);
}

/** Every constraint of a set, one entry per location and keyword (header names in lower case: HTTP reads them so). */
export function flattenConstraints(s: RequestConstraintSet): FlatConstraint[] {
  const out: FlatConstraint[] = [];
  for (const [part, params] of [
    ['header', s.headers],
    ['query', s.query],
    ['path', s.path ?? {}],
  ] as const) {
    for (const [name, node] of Object.entries(params)) {
      const location = `${part} ${part === 'header' ? name.toLowerCase() : name}`;
      if (node.required === true) out.push({ location, keyword: 'required', value: 'true' });
      const { required: _r, ...rest } = node;
      flattenNode(rest, location, out);
    }
  }
  if (s.body) flattenNode(s.body, 'body', out);
  return out;
}

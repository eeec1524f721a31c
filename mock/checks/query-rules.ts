/**
 * The preHandler's path and query steps, for the values a request carries: each path parameter (maxLength: an order
 * number of at most 12 characters) and each query parameter the operation's document constrains (catalogue/request-constraints.ts: type and format, enum, maxLength, minLength, pattern, integer
 * range; what either published form allows), read as a server reads a query string (`5` as a number, `true` as a
 * boolean, a repeated or array parameter as a list) and validated with one Ajv instance, each parameter's schema
 * compiled on its first value. An empty value reads as the parameter left out (a required one is then missing).
 */
import type { ValidateFunction } from 'ajv';
import { requestConstraintsOf, type ConstraintNode, type Operation, type RequestConstraintSet } from '../../catalogue';
import { createAjv } from '../../clients/ajv';
import { entryOf, type ErrorEntry, type ErrorBody } from '../ground/errors';

/** The refusal of the values a request's query (or path) breaks, or null when it keeps every constraint. */
export type QueryRules = (query: Record<string, unknown>) => ErrorBody | null;

/** Where a parameter is: its error code and how a refusal names it. */
const PLACES = {
  query: { code: 'invalidQuery', name: 'query parameter' },
  path: { code: 'invalidPath', name: 'path parameter' },
} as const;
type Place = keyof typeof PLACES;

let shared: ReturnType<typeof createAjv> | undefined;
const ajv = () => (shared ??= createAjv({ catalogue: false, allErrors: false }));

const typesOf = (n: ConstraintNode): string[] =>
  n.type === undefined ? [] : Array.isArray(n.type) ? (n.type as string[]) : [n.type as string];

/** A query string value read as the schema's type, as a server reads it. */
function read(raw: string, types: readonly string[]): unknown {
  if (types.includes('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  if ((types.includes('integer') || types.includes('number')) && raw.trim() !== '' && Number.isFinite(Number(raw))) return Number(raw);
  return raw;
}

/** A value as the parameter's schema reads it: an array parameter's values as a list of its items' type. */
export function queryValueOf(raw: string | readonly string[], node: ConstraintNode): unknown {
  const types = typesOf(node);
  if (types.includes('array')) {
    const itemTypes = typesOf((node.items as ConstraintNode | undefined) ?? {});
    return (Array.isArray(raw) ? raw : [raw]).map((v: string) => read(v, itemTypes));
  }
  return read(Array.isArray(raw) ? String(raw[0]) : (raw as string), types);
}

const show = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

interface QueryRule {
  name: string;
  node: ConstraintNode;
  validate: ValidateFunction | undefined;
  place: Place;
}

/** The refusal entry of a value breaking a parameter's constraint, or null when it keeps them. */
function breach(p: QueryRule, v: string | string[]): ErrorEntry | null {
  const validate = (p.validate ??= ajv().compile(p.node));
  if (validate(queryValueOf(v, p.node))) return null;
  const e = validate.errors?.[0];
  const allowed = e?.params && 'allowedValues' in e.params ? ` (${(e.params.allowedValues as unknown[]).join(', ')})` : '';
  const given = show(v).slice(0, 64);
  const { code, name } = PLACES[p.place];
  const message = `Invalid ${name} ${p.name}: ${e?.instancePath ? `${e.instancePath} ` : ''}${e?.message ?? 'is not allowed'}${allowed}, received "${given}"`;
  return entryOf(code, { field: p.name, message, value: given });
}

/** The query rules of an operation; null when its document constrains no query value. */
export const compileQueryRules = (op: Pick<Operation, 'id'>): QueryRules | null => compileRules(op, 'query');

/** The path rules of an operation, on its path parameters by the catalogue's names; null when its document constrains none. */
export const compilePathRules = (op: Pick<Operation, 'id'>): QueryRules | null => compileRules(op, 'path');

function compileRules(op: Pick<Operation, 'id'>, place: Place): QueryRules | null {
  const set: RequestConstraintSet | undefined = requestConstraintsOf(op.id);
  const params: QueryRule[] = Object.entries(set?.[place] ?? {})
    .map(([name, { required: _r, ...node }]) => ({ name, node, validate: undefined, place }))
    .filter((p) => Object.keys(p.node).length > 0);
  if (!params.length) return null;
  return (query) => {
    let errors: ErrorEntry[] | null = null;
    for (const p of params) {
      const raw = query[p.name];
      if (raw === undefined || raw === '' || (typeof raw !== 'string' && !Array.isArray(raw))) continue;
      // A repeated parameter that is not a list: each of its values judged.
      const values = Array.isArray(raw) && !typesOf(p.node).includes('array') ? (raw as string[]) : [raw as string | string[]];
      for (const v of values) {
        const entry = breach(p, v);
        if (entry) (errors ??= []).push(entry);
      }
    }
    return errors ? { errors } : null;
  };
}

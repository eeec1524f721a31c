/** Two schemas compared: keywords by value, enums, properties and required names, items and their allOf/oneOf/anyOf, recursion cut. */
import type { DifferenceKind, DocumentDifference } from './diff-shapes';
import type { Schema } from '../openapi-objects';

/** The schema keywords compared by value. */
const SCALAR_KEYWORDS = [
  'type',
  'format',
  'nullable',
  'maxLength',
  'minLength',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'maxItems',
  'minItems',
  'uniqueItems',
] as const;
/** Nesting beyond which a schema is not followed (recursive schemas are also cut where they repeat). */
const MAX_DEPTH = 25;

export const requiredWord = (required: boolean | undefined): string => (required ? 'required' : 'optional');

export interface SchemaSite {
  kind: DifferenceKind;
  where: string;
}

/** The rows of two schemas' disagreements, located by a path inside the schema (`.lines[].quantity`). */
export function diffSchema(a: Schema | undefined, b: Schema | undefined, site: SchemaSite, out: DocumentDifference[]): void {
  walk(a, b, '', 0, new Map(), (path, detail) => out.push({ kind: site.kind, where: `${site.where}${path ? ` ${path}` : ''}`, detail }));
}

type Report = (path: string, detail: string) => void;
const show = (v: unknown): string => (v === undefined ? 'absent' : JSON.stringify(v));

function walk(
  a: Schema | undefined,
  b: Schema | undefined,
  path: string,
  depth: number,
  seen: Map<object, Set<object>>,
  report: Report,
): void {
  if (!a || !b) {
    if (a || b) report(path, `schema only in ${a ? 'a' : 'b'}`);
    return;
  }
  // A recursive schema met again inside itself with the same partner, or too deep, is not followed further.
  const partners = seen.get(a) ?? new Set<object>();
  if (partners.has(b) || depth > MAX_DEPTH) return;
  seen.set(a, partners.add(b));
  compareSchemas(a, b, path, depth, seen, report);
  partners.delete(b);
}

function compareSchemas(a: Schema, b: Schema, path: string, depth: number, seen: Map<object, Set<object>>, report: Report): void {
  for (const k of SCALAR_KEYWORDS)
    if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) report(path, `${k} ${show(a[k])} in a, ${show(b[k])} in b`);
  diffEnum(a.enum, b.enum, path, report);
  // Two types are one disagreement: the shapes under them are not compared.
  if (JSON.stringify(a.type) !== JSON.stringify(b.type)) return;
  diffProperties(a, b, path, depth, seen, report);
  walk(a.items as Schema | undefined, b.items as Schema | undefined, `${path}[]`, depth + 1, seen, report);
  for (const k of ['allOf', 'oneOf', 'anyOf'] as const) {
    const la = (a[k] as Schema[] | undefined) ?? [];
    const lb = (b[k] as Schema[] | undefined) ?? [];
    if (la.length !== lb.length) report(path, `${k} of ${la.length} in a, ${lb.length} in b`);
    else la.forEach((s, i) => walk(s, lb[i], `${path}<${k}[${i}]>`, depth + 1, seen, report));
  }
}

function diffEnum(a: unknown, b: unknown, path: string, report: Report): void {
  if (!Array.isArray(a) && !Array.isArray(b)) return;
  const sa = new Set((a as unknown[] | undefined) ?? []);
  const sb = new Set((b as unknown[] | undefined) ?? []);
  const onlyA = [...sa].filter((v) => !sb.has(v));
  const onlyB = [...sb].filter((v) => !sa.has(v));
  if (!Array.isArray(a) || !Array.isArray(b)) report(path, `enum ${show(a)} in a, ${show(b)} in b`);
  else if (onlyA.length || onlyB.length) report(path, `enum values only in a ${show(onlyA)}, only in b ${show(onlyB)}`);
}

function diffProperties(a: Schema, b: Schema, path: string, depth: number, seen: Map<object, Set<object>>, report: Report): void {
  const pa = (a.properties as Record<string, Schema> | undefined) ?? {};
  const pb = (b.properties as Record<string, Schema> | undefined) ?? {};
  const ra = new Set((a.required as string[] | undefined) ?? []);
  const rb = new Set((b.required as string[] | undefined) ?? []);
  for (const name of new Set([...Object.keys(pa), ...Object.keys(pb), ...ra, ...rb])) {
    const at = `${path}.${name}`;
    const inA = name in pa;
    const inB = name in pb;
    if (inA !== inB) report(at, `only in ${inA ? 'a' : 'b'}`);
    if (ra.has(name) !== rb.has(name)) report(at, `${requiredWord(ra.has(name))} in a, ${requiredWord(rb.has(name))} in b`);
    if (inA && inB) walk(pa[name], pb[name], at, depth + 1, seen, report);
  }
}

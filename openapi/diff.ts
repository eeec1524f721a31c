/**
 * Compares two OpenAPI documents structurally, after dereferencing: operations (method and path), their
 * parameters (name, in, required, schema), request and response bodies (JSON schemas: property sets, types,
 * required lists, constraints) and the named component schemas. Each disagreement is one row naming where it
 * sits, e.g. `GET /resellers/v6/deals/{dealId} 200 .vendorName: only in a`.
 *
 * Independent of the catalogue: it compares two documents, whatever the project serves.
 */
import SwaggerParser from '@apidevtools/swagger-parser';

type Schema = Record<string, unknown>;
type ParameterObject = { name: string; in: string; required?: boolean; schema?: Schema };
type MediaObject = { schema?: Schema };
type OperationObject = {
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content?: Record<string, MediaObject> };
  responses?: Record<string, { content?: Record<string, MediaObject> }>;
};
type PathItem = Record<string, unknown> & { parameters?: ParameterObject[] };
/** A dereferenced OpenAPI 3.x document, as far as the comparison reads it. */
export type OpenApiDocument = { openapi?: string; paths?: Record<string, PathItem>; components?: { schemas?: Record<string, Schema> } };

export type DifferenceKind = 'operation' | 'parameter' | 'request' | 'response' | 'schema';

export interface DocumentDifference {
  kind: DifferenceKind;
  /** The operation, parameter, body or component schema, and the path inside its schema: `POST /x request .lines[].quantity`. */
  where: string;
  /** How the two disagree: `only in a`, `type object in a, array in b`, `required in a, optional in b`, `maxLength 32 in a, absent in b`. */
  detail: string;
}

export interface DocumentDiff {
  a: string;
  b: string;
  operations: { a: number; b: number; common: number };
  differences: DocumentDifference[];
}

/** A document that cannot be read or is not OpenAPI 3.x (the command exits 2). */
export class UnreadableDocument extends Error {
  override name = 'UnreadableDocument';
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;
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

/** Reads and dereferences a document (YAML or JSON). */
export async function readDocument(file: string): Promise<OpenApiDocument> {
  let doc: OpenApiDocument;
  try {
    doc = (await SwaggerParser.dereference(file)) as OpenApiDocument;
  } catch (e) {
    throw new UnreadableDocument(`${file} could not be read as an OpenAPI document: ${(e as Error).message.split('\n')[0]}`);
  }
  if (!/^3\./.test(doc.openapi ?? ''))
    throw new UnreadableDocument(`${file} is OpenAPI "${doc.openapi ?? 'unknown'}"; expected 3.0 or 3.1`);
  return doc;
}

/** Both documents read and compared; `a` and `b` are their file names. */
export async function diffFiles(a: string, b: string): Promise<DocumentDiff> {
  const [docA, docB] = await Promise.all([readDocument(a), readDocument(b)]);
  const opsA = operationsOf(docA);
  const opsB = operationsOf(docB);
  const common = [...opsA.keys()].filter((k) => opsB.has(k)).length;
  return { a, b, operations: { a: opsA.size, b: opsB.size, common }, differences: diffDocuments(docA, docB) };
}

/** Every disagreement of two dereferenced documents: operations, then component schemas. */
export function diffDocuments(a: OpenApiDocument, b: OpenApiDocument): DocumentDifference[] {
  const out: DocumentDifference[] = [];
  const opsA = operationsOf(a);
  const opsB = operationsOf(b);
  for (const [key, opA] of opsA) {
    const opB = opsB.get(key);
    if (!opB) out.push({ kind: 'operation', where: opA.label, detail: 'only in a' });
    else diffOperation(opA, opB, out);
  }
  for (const [key, opB] of opsB) if (!opsA.has(key)) out.push({ kind: 'operation', where: opB.label, detail: 'only in b' });
  diffComponents(a.components?.schemas ?? {}, b.components?.schemas ?? {}, out);
  return out;
}

interface DocumentedOperation {
  /** `GET /resellers/v6/deals/{dealId}` as the document spells it. */
  label: string;
  path: string;
  op: OperationObject;
  parameters: Map<string, ParameterObject>;
}

/**
 * The operations of a document by method and path, path parameters anonymised (`{dealId}` and `{DealId}`
 * are one path) and a trailing slash ignored.
 */
function operationsOf(doc: OpenApiDocument): Map<string, DocumentedOperation> {
  const out = new Map<string, DocumentedOperation>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const m of METHODS) {
      const op = item[m] as OperationObject | undefined;
      if (!op) continue;
      const key = `${m.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}').replace(/\/+$/, '')}`;
      out.set(key, { label: `${m.toUpperCase()} ${path}`, path, op, parameters: parametersOf(path, item.parameters, op.parameters) });
    }
  }
  return out;
}

/**
 * Path-item and operation parameters (the operation's win) by `in` and name: header names compared
 * case-insensitively, path parameters by their place in the path (`{dealId}` in one form is `{id}` in the other).
 */
function parametersOf(path: string, ...lists: (ParameterObject[] | undefined)[]): Map<string, ParameterObject> {
  const places = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const keyOf = (p: ParameterObject): string => {
    if (p.in === 'header') return `header ${p.name.toLowerCase()}`;
    const place = p.in === 'path' ? places.indexOf(p.name) : -1;
    return place >= 0 ? `path #${place}` : `${p.in} ${p.name}`;
  };
  const out = new Map<string, ParameterObject>();
  for (const list of lists) for (const p of list ?? []) out.set(keyOf(p), p);
  return out;
}

function diffOperation(a: DocumentedOperation, b: DocumentedOperation, out: DocumentDifference[]): void {
  if (a.path !== b.path) out.push({ kind: 'operation', where: a.label, detail: `path spelled ${a.path} in a, ${b.path} in b` });
  for (const [key, pa] of a.parameters) {
    const where = `${a.label} ${pa.in} ${pa.name}`;
    const pb = b.parameters.get(key);
    if (!pb) {
      out.push({ kind: 'parameter', where, detail: `only in a${pa.required ? ' (required)' : ''}` });
      continue;
    }
    if (!!pa.required !== !!pb.required)
      out.push({ kind: 'parameter', where, detail: `${requiredWord(pa.required)} in a, ${requiredWord(pb.required)} in b` });
    diffSchema(pa.schema, pb.schema, { kind: 'parameter', where }, out);
  }
  for (const [key, pb] of b.parameters)
    if (!a.parameters.has(key))
      out.push({ kind: 'parameter', where: `${a.label} ${pb.in} ${pb.name}`, detail: `only in b${pb.required ? ' (required)' : ''}` });
  diffRequest(a, b, out);
  diffResponses(a, b, out);
}

const requiredWord = (required: boolean | undefined): string => (required ? 'required' : 'optional');

/** The JSON media type of a content map (`application/json` first, then any `+json` or `json` type). */
function jsonSchemaOf(content: Record<string, MediaObject> | undefined): { schema?: Schema } | undefined {
  if (!content) return undefined;
  const type = content['application/json'] ? 'application/json' : Object.keys(content).find((t) => /json/i.test(t));
  return type ? { schema: content[type]?.schema } : undefined;
}

function diffRequest(a: DocumentedOperation, b: DocumentedOperation, out: DocumentDifference[]): void {
  const where = `${a.label} request`;
  const ra = a.op.requestBody;
  const rb = b.op.requestBody;
  if (!ra && !rb) return;
  if (!ra || !rb) return void out.push({ kind: 'request', where, detail: `body only in ${ra ? 'a' : 'b'}` });
  if (!!ra.required !== !!rb.required)
    out.push({ kind: 'request', where, detail: `body ${requiredWord(ra.required)} in a, ${requiredWord(rb.required)} in b` });
  diffContent(ra.content, rb.content, { kind: 'request', where }, out);
}

/** The JSON bodies of two content maps: present in one only, or their schemas compared. */
function diffContent(
  a: Record<string, MediaObject> | undefined,
  b: Record<string, MediaObject> | undefined,
  site: SchemaSite,
  out: DocumentDifference[],
): void {
  const ja = jsonSchemaOf(a);
  const jb = jsonSchemaOf(b);
  if (ja && jb) diffSchema(ja.schema, jb.schema, site, out);
  else if (ja || jb) out.push({ ...site, detail: `JSON body only in ${ja ? 'a' : 'b'}` });
}

function diffResponses(a: DocumentedOperation, b: DocumentedOperation, out: DocumentDifference[]): void {
  const ra = a.op.responses ?? {};
  const rb = b.op.responses ?? {};
  for (const status of new Set([...Object.keys(ra), ...Object.keys(rb)])) {
    const where = `${a.label} ${status}`;
    const sa = ra[status];
    const sb = rb[status];
    if (!sa || !sb) {
      out.push({ kind: 'response', where, detail: `response only in ${sa ? 'a' : 'b'}` });
      continue;
    }
    diffContent(sa.content, sb.content, { kind: 'response', where }, out);
  }
}

function diffComponents(a: Record<string, Schema>, b: Record<string, Schema>, out: DocumentDifference[]): void {
  for (const name of Object.keys(a)) {
    const where = `components.schemas.${name}`;
    if (!(name in b)) out.push({ kind: 'schema', where, detail: 'only in a' });
    else diffSchema(a[name], b[name], { kind: 'schema', where }, out);
  }
  for (const name of Object.keys(b))
    if (!(name in a)) out.push({ kind: 'schema', where: `components.schemas.${name}`, detail: 'only in b' });
}

interface SchemaSite {
  kind: DifferenceKind;
  where: string;
}

/** The rows of two schemas' disagreements, located by a path inside the schema (`.lines[].quantity`). */
function diffSchema(a: Schema | undefined, b: Schema | undefined, site: SchemaSite, out: DocumentDifference[]): void {
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

/** The diff as text: a heading, the counts by kind, one line per difference. */
export function diffText(d: DocumentDiff): string {
  const counts = new Map<DifferenceKind, number>();
  for (const x of d.differences) counts.set(x.kind, (counts.get(x.kind) ?? 0) + 1);
  const byKind = [...counts].map(([k, n]) => `${k} ${n}`).join(', ');
  return [
    `openapi diff: a = ${d.a} (${d.operations.a} operations), b = ${d.b} (${d.operations.b} operations), ${d.operations.common} in both`,
    `  ${d.differences.length} differences${byKind ? ` (${byKind})` : ''}${d.differences.length ? ':' : ''}`,
    ...d.differences.map((x) => `  ${x.where}: ${x.detail}`),
  ].join('\n');
}

/** Two documents' operations compared: their paths, parameters, request bodies and responses. */
import type { DocumentDifference, OpenApiDocument } from './diff-shapes';
import type { MediaObject, OperationObject, ParameterObject, Schema } from '../openapi-objects';
import { diffSchema, requiredWord, type SchemaSite } from './schema-diff';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

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
export function operationsOf(doc: OpenApiDocument): Map<string, DocumentedOperation> {
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

export function diffOperation(a: DocumentedOperation, b: DocumentedOperation, out: DocumentDifference[]): void {
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

/** The document's operations walked, checked and mapped to the catalogue; the conflicts of their paths with the spec. */
import { findingDefinition, type Operation } from '../../catalogue';
import type { Finding } from '../../reporting/report-shapes';
import type { DocumentedParameter } from './openapi-contract';
import {
  examplesOf,
  jsonOf,
  type Compile,
  type Doc,
  type DocumentedOperation,
  type Imported,
  type ReadSchema,
  type RequestDoc,
} from './document-shapes';
import type { ParameterObject, OperationObject } from '../openapi-objects';
import { toJsonSchema } from './json-schema';
import { schemaReader } from './schema-defects';
import { checkToken } from './token-check';

const METHODS = ['get', 'post', 'put', 'delete', 'patch'];

/** Normalises a path for matching: server prefix and /sandbox stripped, params anonymised, no trailing slash, lower case. */
export function normalisePath(path: string, serverPrefixes: readonly string[] = []): string {
  let p = path;
  for (const pre of serverPrefixes) if (pre && pre !== '/' && p.startsWith(pre)) p = p.slice(pre.length);
  if (p.startsWith('/sandbox/')) p = p.slice('/sandbox'.length);
  p = p.replace(/\{[^}]+\}/g, '{}').replace(/\/+$/, '');
  return (p || '/').toLowerCase();
}

function serverPrefixes(doc: Doc): string[] {
  return (doc.servers ?? []).map((s) => {
    try {
      return new URL(s.url.replace(/\{[^}]+\}/g, 'x'), 'http://h').pathname.replace(/\/+$/, '');
    } catch {
      return '';
    }
  });
}

/** Walks every documented operation: checks it, and maps it to the catalogue (token endpoints checked apart). */
export function importDocument(doc: Doc, version: string, ops: readonly Operation[], compile: Compile): Imported {
  const prefixes = serverPrefixes(doc);
  const byKey = new Map(ops.map((o) => [`${o.method} ${normalisePath(o.family === 'vendor' ? `/vendors/v1${o.path}` : o.path)}`, o]));
  const imported: Imported = {
    documented: 0,
    mapped: [],
    notInCatalogue: [],
    schemas: new Map(),
    examples: new Map(),
    requests: new Map(),
    params: new Map(),
    paths: new Map(),
    conflicts: [],
    defects: [],
  };
  const { readSchema, checkOperation } = schemaReader(version, compile, imported.defects);
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const m of METHODS) {
      const o = item[m] as OperationObject | undefined;
      if (!o) continue;
      imported.documented += 1;
      const label = `${m.toUpperCase()} ${path}`;
      checkOperation(label, o);
      const norm = normalisePath(path, prefixes);
      if (norm.endsWith('/oauth/oauth20/token') || norm.endsWith('/oauth/oauth30/token')) {
        checkToken(path, m, o, version, imported.conflicts);
        continue;
      }
      const op = byKey.get(`${m.toUpperCase()} ${norm}`);
      if (!op) {
        imported.notInCatalogue.push(label);
        continue;
      }
      importOperation(op, { path, method: m.toUpperCase(), label, item, o }, { prefixes, version, readSchema }, imported);
    }
  }
  return imported;
}

/** Records what the document says of a catalogue operation (a later path of the same operation overrides, its first 2xx example stays). */
function importOperation(
  op: Operation,
  d: DocumentedOperation,
  ctx: { prefixes: string[]; version: string; readSchema: ReadSchema },
  imported: Imported,
): void {
  imported.mapped.push({ operationId: op.id, method: d.method, path: d.path });
  imported.paths.set(op.id, { method: d.method, path: d.path });
  const conflict = pathSpellingConflict(op, d, ctx.prefixes);
  if (conflict) imported.conflicts.push(conflict);
  imported.params.set(op.id, documentedParameters(d, ctx.version));
  const request = documentedRequest(d, ctx.readSchema);
  if (request) imported.requests.set(op.id, request);
  const { perStatus, example } = documentedResponses(d, ctx.readSchema);
  if (example !== undefined && !imported.examples.has(op.id)) imported.examples.set(op.id, example);
  imported.schemas.set(op.id, perStatus);
}

/** A conflict when the document spells the operation's path otherwise than the spec (server prefix aside). */
function pathSpellingConflict(op: Operation, d: DocumentedOperation, prefixes: readonly string[]): Finding | undefined {
  const spelled = op.family === 'vendor' ? `/vendors/v1${op.path}` : op.path;
  const stripped = prefixes.reduce((p, pre) => (pre && pre !== '/' && p.startsWith(pre) ? p.slice(pre.length) : p), d.path);
  if (stripped === spelled) return undefined;
  return {
    id: `openapi.path-spelling@${op.id}`,
    statement: findingDefinition('openapi.path-spelling').statement,
    observed: 'differs',
    evidence: `document: ${d.method} ${stripped}; spec: ${op.method} ${spelled}`,
    operationId: op.id,
  };
}

/** The parameters of the path item, then those of the operation. */
function documentedParameters(d: DocumentedOperation, version: string): DocumentedParameter[] {
  return [...((d.item.parameters as ParameterObject[] | undefined) ?? []), ...(d.o.parameters ?? [])].map((p) => ({
    name: p.name,
    in: p.in as DocumentedParameter['in'],
    required: p.required === true,
    ...(p.schema ? { schema: toJsonSchema(p.schema, version) } : {}),
    ...(p.example !== undefined ? { example: p.example } : {}),
  }));
}

/** The JSON request body's schema and first example; undefined when the operation documents no body. */
function documentedRequest(d: DocumentedOperation, readSchema: ReadSchema): RequestDoc | undefined {
  if (!d.o.requestBody) return undefined;
  const reqJson = jsonOf(d.o.requestBody.content);
  return {
    required: d.o.requestBody.required === true,
    ...(reqJson?.schema ? { schema: readSchema(`${d.label} request`, reqJson.schema) } : {}),
    ...(examplesOf(reqJson)[0] ? { example: (examplesOf(reqJson)[0] as [string, unknown])[1] } : {}),
  };
}

/** The JSON response schema of each status, and the first example of a 2xx status. */
function documentedResponses(
  d: DocumentedOperation,
  readSchema: ReadSchema,
): { perStatus: Record<string, Record<string, unknown>>; example: unknown } {
  const perStatus: Record<string, Record<string, unknown>> = {};
  let first: unknown;
  for (const [status, r] of Object.entries(d.o.responses ?? {})) {
    const json = jsonOf(r.content);
    const schema = json?.schema ? readSchema(`${d.label} ${status}`, json.schema) : undefined;
    if (schema) perStatus[status] = schema;
    const example = examplesOf(json)[0]?.[1];
    if (status.startsWith('2') && example !== undefined && first === undefined) first = example;
  }
  return { perStatus, example: first };
}

/** A finding for each reseller operation of the catalogue the document lacks. */
export function absentOperations(ops: readonly Operation[], paths: ReadonlyMap<string, unknown>, file: string): Finding[] {
  return ops
    .filter((o) => o.family === 'reseller' && !paths.has(o.id))
    .map((op) => {
      // An operation only the document lists is absent from one of its forms, not from the spec's table.
      const finding = op.listedIn === 'document' ? 'openapi.operation-one-form' : 'openapi.operation-absent';
      return {
        id: `${finding}@${op.id}`,
        statement: findingDefinition(finding).statement,
        observed: 'absent',
        evidence: `${op.method} ${op.path} is not in ${file}`,
        operationId: op.id,
      };
    });
}

/**
 * Imports a user's OpenAPI 3.0 or 3.1 document (YAML or JSON, $ref chains, nullable, oneOf/allOf)
 * through a maintained parser and dereferencer, maps its operations to the catalogue tolerantly,
 * validates response bodies against its schemas, reports coverage, conflicts with the spec
 * (findings) and the document's own defects (examples that do not match their schemas).
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import type { ValidateFunction } from 'ajv';
import { openapiSchemaToJsonSchema } from '@openapi-contrib/openapi-schema-to-json-schema';
import { allOperations, findingDefinition, tokenEndpoints, type Finding, type Operation } from '../catalogue';
import { createAjv, errorLines } from '../clients/ajv';

type Doc = { openapi?: string; servers?: { url: string }[]; paths?: Record<string, Record<string, unknown>> };
type MediaObject = { schema?: unknown; example?: unknown; examples?: Record<string, { value?: unknown }> };
type ParameterObject = { name: string; in: string; required?: boolean; schema?: unknown; example?: unknown };
type OperationObject = {
  parameters?: ParameterObject[];
  responses?: Record<string, { content?: Record<string, MediaObject> }>;
  requestBody?: { required?: boolean; content?: Record<string, MediaObject> };
};

export interface OpenApiCoverage {
  file: string;
  openapiVersion: string;
  documentedOperations: number;
  mapped: { operationId: string; method: string; path: string }[];
  /** Catalogue operations without a documented 2xx JSON response schema. */
  catalogueWithoutSchema: string[];
  /** Documented operations that match no catalogue operation. */
  documentedNotInCatalogue: string[];
  bodiesValidated: number;
  bodiesFailed: number;
}

/** A documented parameter of a mapped operation. */
export interface DocumentedParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema?: Record<string, unknown>;
  example?: unknown;
}

/** An example of the document that does not match its own schema, or a schema requiring a name it does not declare. */
export interface DocumentDefect {
  /** e.g. `POST /resellers/v6/orders request example` or `GET /resellers/v6/orders/search 200 example "ok"`. */
  where: string;
  errors: string[];
}

export interface OpenApiContract {
  coverage(): OpenApiCoverage;
  findings(): Finding[];
  /** Validates a response body against the document's schema for the operation and status. */
  validateResponse(operationId: string, status: number, body: unknown): { validated: boolean; errors: string[] };
  /** The document's 2xx JSON schema of an operation (JSON Schema), for generating bodies. */
  responseSchema(operationId: string): Record<string, unknown> | undefined;
  /** The document's 2xx JSON example of an operation, when it gives one. */
  responseExample(operationId: string): unknown;
  /** The document's JSON request body schema (JSON Schema), its example, and whether the body is required. */
  request(operationId: string): { schema?: Record<string, unknown>; example?: unknown; required: boolean } | undefined;
  /** Validates a request body against the document's request schema. */
  validateRequest(operationId: string, body: unknown): string[];
  /** The document's parameters of a mapped operation (path item and operation level). */
  parameters(operationId: string): DocumentedParameter[];
  /** The document's path and method of a mapped operation. */
  documentedPath(operationId: string): { method: string; path: string } | undefined;
  /** Examples of the document that contradict its own schemas. */
  defects(): DocumentDefect[];
  /**
   * What the document refuses in a request to a mapped operation: a required header or query parameter
   * absent, a header or query value its schema does not allow (maxLength, pattern, enum, format, type),
   * a body its request schema does not allow. Empty for an unmapped operation.
   */
  requestProblems(operationId: string, req: { headers: Record<string, string>; query: Record<string, string>; body?: unknown }): string[];
}

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

/** A copy of a schema with each circular reference (a node inside itself) read as `{}`, any value: what a converter and a validator can walk. */
function withoutCycles(node: unknown, ancestors: readonly object[] = []): unknown {
  if (!node || typeof node !== 'object') return node;
  if (ancestors.includes(node)) return {};
  const inside = [...ancestors, node];
  if (Array.isArray(node)) return node.map((x) => withoutCycles(x, inside));
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, withoutCycles(v, inside)]));
}

/** Removes `required: true` written on a property (an OpenAPI 2 form no JSON Schema validator compiles); checkRequired reports it. */
function dropNonListRequired(node: unknown, seen: WeakSet<object>): void {
  if (!node || typeof node !== 'object' || seen.has(node)) return;
  seen.add(node);
  const o = node as Record<string, unknown>;
  if ('required' in o && !Array.isArray(o.required) && typeof o.required !== 'object') delete o.required;
  for (const v of Object.values(o)) dropNonListRequired(v, seen);
}

function toJsonSchema(schema: unknown, version: string): Record<string, unknown> {
  if (version.startsWith('3.1')) return schema as Record<string, unknown>;
  const convert = (s: unknown) =>
    openapiSchemaToJsonSchema(s as object, { cloneSchema: true, removeReadOnly: false }) as Record<string, unknown>;
  let converted: Record<string, unknown>;
  try {
    converted = convert(schema);
  } catch (e) {
    // A recursive schema (e.g. choices within choices): its recursion validates as any value.
    if (!(e instanceof RangeError)) throw e;
    converted = convert(withoutCycles(schema));
  }
  dropNonListRequired(converted, new WeakSet());
  // The converter stamps draft-04, which ajv (draft-07 and later) does not load; the keywords are compatible.
  delete converted.$schema;
  return converted;
}

const jsonOf = (content: Record<string, MediaObject> | undefined): MediaObject | undefined =>
  Object.entries(content ?? {}).find(([ct]) => /json/i.test(ct))?.[1];
const examplesOf = (m: MediaObject | undefined): [string, unknown][] => [
  ...(m?.example !== undefined ? [['example', m.example] as [string, unknown]] : []),
  ...Object.entries(m?.examples ?? {})
    .filter(([, e]) => e?.value !== undefined)
    .map(([k, e]) => [`example "${k}"`, e.value] as [string, unknown]),
];

type RequestDoc = { schema?: Record<string, unknown>; example?: unknown; required: boolean };
type Compile = (schema: Record<string, unknown>) => ValidateFunction | Error;
type ReadSchema = (where: string, schema: unknown) => Record<string, unknown> | undefined;

/** What the document says, by catalogue operation id, with its conflicts with the spec and its own defects. */
interface Imported {
  documented: number;
  mapped: OpenApiCoverage['mapped'];
  notInCatalogue: string[];
  schemas: Map<string, Record<string, Record<string, unknown>>>;
  examples: Map<string, unknown>;
  requests: Map<string, RequestDoc>;
  params: Map<string, DocumentedParameter[]>;
  paths: Map<string, { method: string; path: string }>;
  conflicts: Finding[];
  defects: DocumentDefect[];
}

/** One documented operation: where it sits in the document. */
interface DocumentedOperation {
  path: string;
  /** Upper case. */
  method: string;
  label: string;
  item: Record<string, unknown>;
  o: OperationObject;
}

export async function loadOpenApi(file: string, ops: readonly Operation[] = allOperations()): Promise<OpenApiContract> {
  const { doc, version } = await readDocument(file);
  const compile = schemaCompiler();
  const imported = importDocument(doc, version, ops, compile);
  // Only a document about this API says anything about operations it lacks.
  if (imported.mapped.length) imported.conflicts.push(...absentOperations(ops, imported.paths, file));
  return contractOf(file, version, ops, imported, compile);
}

/** The dereferenced document and its OpenAPI version (3.0 or 3.1). */
async function readDocument(file: string): Promise<{ doc: Doc; version: string }> {
  let doc: Doc;
  try {
    doc = (await SwaggerParser.dereference(file)) as Doc;
  } catch (e) {
    throw new Error(`OPENAPI=${file} could not be read as an OpenAPI document: ${(e as Error).message.split('\n')[0]}`, { cause: e });
  }
  const version = doc.openapi ?? '';
  if (!/^3\.[01]/.test(version)) throw new Error(`OPENAPI=${file} is OpenAPI "${version || 'unknown'}"; expected 3.0 or 3.1`);
  return { doc, version };
}

/** Compiles each schema object once; a schema that does not compile yields its Error. */
function schemaCompiler(): Compile {
  const ajv = createAjv({ catalogue: false, strict: false });
  const compiledBySchema = new WeakMap<object, ValidateFunction | Error>();
  return (schema) => {
    let v = compiledBySchema.get(schema);
    if (!v) {
      try {
        v = ajv.compile(schema);
      } catch (e) {
        v = e as Error;
      }
      compiledBySchema.set(schema, v);
    }
    return v;
  };
}

/**
 * Reads the document's schemas, recording its defects: a schema that cannot be read as JSON Schema, an
 * example its schema refuses, a required name it does not declare.
 */
function schemaReader(version: string, compile: Compile, defects: DocumentDefect[]) {
  /** The document's schema as JSON Schema, or undefined with a defect when it cannot be read (e.g. `type: date`). */
  const readSchema: ReadSchema = (where, schema) => {
    try {
      return toJsonSchema(schema, version);
    } catch (e) {
      if (!defects.some((d) => d.where === `${where} schema`))
        defects.push({ where: `${where} schema`, errors: [`cannot be read as JSON Schema: ${(e as Error).message}`] });
      return undefined;
    }
  };
  const checkExamples = (where: string, m: MediaObject | undefined) => {
    if (!m?.schema || !examplesOf(m).length) return;
    const converted = readSchema(where, m.schema);
    if (!converted) return;
    const v = compile(converted);
    if (v instanceof Error) return;
    for (const [name, value] of examplesOf(m)) if (!v(value)) defects.push({ where: `${where} ${name}`, errors: errorLines(v.errors) });
  };
  // Each schema object once (a shared component is reported where it is first met; the document may be circular).
  const walked = new WeakSet<object>();
  const checkRequired = (where: string, m: MediaObject | undefined) => {
    const found: string[] = [];
    undeclaredRequired(m?.schema, '', walked, found);
    if (found.length) defects.push({ where: `${where} schema`, errors: found });
  };
  /** Checks an operation's request body and each response body. */
  const checkOperation = (label: string, o: OperationObject) => {
    checkExamples(`${label} request`, jsonOf(o.requestBody?.content));
    checkRequired(`${label} request`, jsonOf(o.requestBody?.content));
    for (const [status, r] of Object.entries(o.responses ?? {})) {
      checkExamples(`${label} ${status}`, jsonOf(r.content));
      checkRequired(`${label} ${status}`, jsonOf(r.content));
    }
  };
  return { readSchema, checkOperation };
}

/** Walks every documented operation: checks it, and maps it to the catalogue (token endpoints checked apart). */
function importDocument(doc: Doc, version: string, ops: readonly Operation[], compile: Compile): Imported {
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
function absentOperations(ops: readonly Operation[], paths: ReadonlyMap<string, unknown>, file: string): Finding[] {
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

/** The contract read from the imported document; it counts the response bodies it validates. */
function contractOf(file: string, version: string, ops: readonly Operation[], imported: Imported, compile: Compile): OpenApiContract {
  const { schemas, requests, params, paths } = imported;
  let validated = 0;
  let failed = 0;
  const schemaFor = (id: string, status: number): Record<string, unknown> | undefined => {
    const s = schemas.get(id);
    if (!s) return undefined;
    return s[String(status)] ?? s[`${String(status)[0]}XX`] ?? s.default;
  };
  const validateBody = (id: string, body: unknown): string[] => {
    const schema = requests.get(id)?.schema;
    if (!schema) return [];
    const v = compile(schema);
    if (v instanceof Error) return [`the document's request schema for ${id} cannot be compiled: ${v.message}`];
    return v(body) ? [] : errorLines(v.errors);
  };
  return {
    coverage: () => ({
      file,
      openapiVersion: version,
      documentedOperations: imported.documented,
      mapped: imported.mapped,
      catalogueWithoutSchema: ops.filter((o) => !Object.keys(schemas.get(o.id) ?? {}).some((k) => k.startsWith('2'))).map((o) => o.id),
      documentedNotInCatalogue: imported.notInCatalogue,
      bodiesValidated: validated,
      bodiesFailed: failed,
    }),
    findings: () => imported.conflicts,
    defects: () => imported.defects,
    responseExample: (id) => imported.examples.get(id),
    responseSchema: (id) => {
      const s = schemas.get(id);
      const k = Object.keys(s ?? {}).find((x) => x.startsWith('2'));
      return k ? s?.[k] : undefined;
    },
    request: (id) => requests.get(id),
    parameters: (id) => params.get(id) ?? [],
    documentedPath: (id) => paths.get(id),
    validateRequest: validateBody,
    requestProblems(id, req) {
      if (!paths.has(id)) return [];
      const out = parameterProblems(params.get(id) ?? [], req, compile);
      if (req.body !== undefined) out.push(...validateBody(id, req.body).map((e) => `body ${e}`));
      return out;
    },
    validateResponse(operationId, status, body) {
      const schema = schemaFor(operationId, status);
      if (!schema) return { validated: false, errors: [] };
      const v = compile(schema);
      if (v instanceof Error) {
        return { validated: false, errors: [`the document's schema for ${operationId} ${status} cannot be compiled: ${v.message}`] };
      }
      validated += 1;
      if (v(body)) return { validated: true, errors: [] };
      failed += 1;
      return { validated: true, errors: errorLines(v.errors) };
    },
  };
}

/** What the documented header and query parameters refuse in a request: a required one absent, a value its schema does not allow. */
function parameterProblems(
  documented: readonly DocumentedParameter[],
  req: { headers: Record<string, string>; query: Record<string, string> },
  compile: Compile,
): string[] {
  const out: string[] = [];
  const headers = new Map(Object.entries(req.headers).map(([k, v]) => [k.toLowerCase(), v]));
  for (const p of documented) {
    if (p.in !== 'header' && p.in !== 'query') continue;
    const raw = p.in === 'header' ? headers.get(p.name.toLowerCase()) : req.query[p.name];
    if (raw === undefined) {
      if (p.required) out.push(`${p.in} ${p.name} is required`);
      continue;
    }
    if (!p.schema) continue;
    const v = compile(p.schema);
    if (v instanceof Error) continue;
    const value = parameterValue(raw, p.schema);
    if (!v(value)) out.push(...errorLines(v.errors).map((e) => `${p.in} ${p.name} ${e.replace(/^\/: /, '')}`));
  }
  return out;
}

/** A header or query string read as its schema's type (`true` as a boolean, `5` as a number), as a server reads it. */
function parameterValue(raw: string, schema: Record<string, unknown>): unknown {
  const t = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (t === 'boolean' && (raw === 'true' || raw === 'false')) return raw === 'true';
  if ((t === 'integer' || t === 'number') && raw.trim() !== '' && Number.isFinite(Number(raw))) return Number(raw);
  return raw;
}

type SchemaNode = {
  type?: unknown;
  properties?: Record<string, unknown>;
  required?: unknown;
  items?: unknown;
  allOf?: unknown[];
  oneOf?: unknown[];
  anyOf?: unknown[];
  additionalProperties?: unknown;
};

/**
 * Names a schema lists in `required` but does not declare in `properties` (its own or its allOf
 * members'): a validator that follows the document refuses every body without them, though the
 * document says nothing of what they are. Read on the document's own schema, before conversion (the
 * JSON Schema converter drops such names).
 */
function undeclaredRequired(
  schema: unknown,
  at: string,
  walked: WeakSet<object>,
  out: string[],
  siblings: ReadonlySet<string> = new Set(),
): void {
  if (!schema || typeof schema !== 'object' || walked.has(schema)) return;
  walked.add(schema);
  const s = schema as SchemaNode;
  const members = (s.allOf ?? []) as SchemaNode[];
  // An allOf member may require what another member (or the schema holding them) declares.
  const declared = new Set([...siblings, ...[s, ...members].flatMap((p) => Object.keys(p?.properties ?? {}))]);
  out.push(...requiredProblems(s, at, declared));
  for (const [k, v] of Object.entries(s.properties ?? {})) undeclaredRequired(v, `${at}/${k}`, walked, out);
  undeclaredRequired(s.items, `${at}/items`, walked, out);
  if (typeof s.additionalProperties === 'object') undeclaredRequired(s.additionalProperties, `${at}/*`, walked, out);
  for (const m of members) undeclaredRequired(m, at, walked, out, declared);
  for (const sub of [...(s.oneOf ?? []), ...(s.anyOf ?? [])]) undeclaredRequired(sub, at, walked, out);
}

/** A `required` that is not a list, or names it lists but `declared` lacks (not checked on a oneOf/anyOf schema). */
function requiredProblems(s: SchemaNode, at: string, declared: ReadonlySet<string>): string[] {
  const where = at || '/';
  if (s.required !== undefined && !Array.isArray(s.required))
    return [`${where}: required ${JSON.stringify(s.required)} is not a list of names (an OpenAPI 2 form); read as no requirement`];
  if (!Array.isArray(s.required) || s.oneOf?.length || s.anyOf?.length) return [];
  return (s.required as unknown[])
    .filter((name) => typeof name === 'string' && !declared.has(name))
    .map((name) => `${where}: required "${name as string}" is not a declared property (declared: ${[...declared].join(', ') || 'none'})`);
}

function checkToken(path: string, method: string, o: OperationObject, version: string, out: Finding[]): void {
  const family = path.includes('oauth30') ? 'vendor' : 'reseller';
  const ep = tokenEndpoints[family];
  const methodDef = findingDefinition('openapi.token-method');
  const form = Object.keys(o.requestBody?.content ?? {}).some((ct) => ct.startsWith(ep.contentType));
  const methodOk = method.toUpperCase() === ep.method && form;
  const query = (o.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
  out.push({
    id: `openapi.token-method@${family}`,
    statement: methodDef.statement,
    observed: methodOk ? 'agrees' : 'differs',
    evidence: `document: ${method.toUpperCase()} ${path} with ${Object.keys(o.requestBody?.content ?? {}).join(', ') || (query.length ? `query parameters ${query.join(', ')}` : 'no body')}`,
    family,
  });
  const json = jsonOf(o.responses?.['200']?.content);
  if (!json?.schema) return;
  const s = toJsonSchema(json.schema, version) as { properties?: Record<string, { type?: unknown }> };
  const want: Record<string, string> = { access_token: 'string', token_type: 'string', expires_in: 'integer' };
  const diffs = Object.entries(want)
    .filter(([k, t]) => {
      const got = s.properties?.[k]?.type;
      const types = Array.isArray(got) ? got : [got];
      return got !== undefined && !types.includes(t);
    })
    .map(([k, t]) => `${k}: document says ${JSON.stringify(s.properties?.[k]?.type)}, spec says ${t}`);
  out.push({
    id: `openapi.token-response@${family}`,
    statement: findingDefinition('openapi.token-response').statement,
    observed: diffs.length ? 'differs' : 'agrees',
    evidence: diffs.join('; ') || 'field types agree',
    family,
  });
}

/**
 * Imports a user's OpenAPI 3.0 or 3.1 document (YAML or JSON, $ref chains, nullable, oneOf/allOf)
 * through a maintained parser and dereferencer, maps its operations to the catalogue tolerantly,
 * validates response bodies against its schemas, and reports coverage and conflicts with the spec.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { openapiSchemaToJsonSchema } from '@openapi-contrib/openapi-schema-to-json-schema';
import { allOperations, findingDefinition, tokenEndpoints, type Finding, type Operation } from '../catalogue';

type Doc = { openapi?: string; servers?: { url: string }[]; paths?: Record<string, Record<string, unknown>> };
type OperationObject = {
  responses?: Record<
    string,
    { content?: Record<string, { schema?: unknown; example?: unknown; examples?: Record<string, { value?: unknown }> }> }
  >;
  requestBody?: { content?: Record<string, unknown> };
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

export interface OpenApiContract {
  coverage(): OpenApiCoverage;
  findings(): Finding[];
  /** Validates a response body against the document's schema for the operation and status. */
  validateResponse(operationId: string, status: number, body: unknown): { validated: boolean; errors: string[] };
  /** The document's 2xx JSON schema of an operation (JSON Schema), for generating bodies. */
  responseSchema(operationId: string): Record<string, unknown> | undefined;
  /** The document's 2xx JSON example of an operation, when it gives one. */
  responseExample(operationId: string): unknown;
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

function toJsonSchema(schema: unknown, version: string): Record<string, unknown> {
  if (version.startsWith('3.1')) return schema as Record<string, unknown>;
  const converted = openapiSchemaToJsonSchema(schema as object, { cloneSchema: true, removeReadOnly: false }) as Record<string, unknown>;
  // The converter stamps draft-04, which ajv (draft-07 and later) does not load; the keywords are compatible.
  delete converted.$schema;
  return converted;
}

export async function loadOpenApi(file: string, ops: readonly Operation[] = allOperations()): Promise<OpenApiContract> {
  let doc: Doc;
  try {
    doc = (await SwaggerParser.dereference(file)) as Doc;
  } catch (e) {
    throw new Error(`OPENAPI=${file} could not be read as an OpenAPI document: ${(e as Error).message.split('\n')[0]}`, { cause: e });
  }
  const version = doc.openapi ?? '';
  if (!/^3\.[01]/.test(version)) throw new Error(`OPENAPI=${file} is OpenAPI "${version || 'unknown'}"; expected 3.0 or 3.1`);
  const ajv = new Ajv({ strict: false, allErrors: true, logger: false, validateFormats: true });
  (addFormatsModule as unknown as (a: Ajv) => void)(ajv);
  const prefixes = serverPrefixes(doc);
  const byKey = new Map(ops.map((o) => [`${o.method} ${normalisePath(o.family === 'vendor' ? `/vendors/v1${o.path}` : o.path)}`, o]));
  const mapped: OpenApiCoverage['mapped'] = [];
  const notInCatalogue: string[] = [];
  const schemas = new Map<string, Record<string, Record<string, unknown>>>();
  const examples = new Map<string, unknown>();
  const conflicts: Finding[] = [];
  let documented = 0;
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const m of METHODS) {
      const o = item[m] as OperationObject | undefined;
      if (!o) continue;
      documented += 1;
      const norm = normalisePath(path, prefixes);
      if (norm.endsWith('/oauth/oauth20/token') || norm.endsWith('/oauth/oauth30/token')) {
        checkToken(path, m, o, version, conflicts);
        continue;
      }
      const op = byKey.get(`${m.toUpperCase()} ${norm}`);
      if (!op) {
        notInCatalogue.push(`${m.toUpperCase()} ${path}`);
        continue;
      }
      mapped.push({ operationId: op.id, method: m.toUpperCase(), path });
      const perStatus: Record<string, Record<string, unknown>> = {};
      for (const [status, r] of Object.entries(o.responses ?? {})) {
        const json = Object.entries(r.content ?? {}).find(([ct]) => /json/i.test(ct))?.[1];
        if (json?.schema) perStatus[status] = toJsonSchema(json.schema, version);
        const example = json?.example ?? Object.values(json?.examples ?? {})[0]?.value;
        if (status.startsWith('2') && example !== undefined && !examples.has(op.id)) examples.set(op.id, example);
      }
      schemas.set(op.id, perStatus);
    }
  }
  const compiled = new Map<string, ValidateFunction>();
  let validated = 0;
  let failed = 0;
  const schemaFor = (id: string, status: number): Record<string, unknown> | undefined => {
    const s = schemas.get(id);
    if (!s) return undefined;
    return s[String(status)] ?? s[`${String(status)[0]}XX`] ?? s.default;
  };
  return {
    coverage: () => ({
      file,
      openapiVersion: version,
      documentedOperations: documented,
      mapped,
      catalogueWithoutSchema: ops.filter((o) => !Object.keys(schemas.get(o.id) ?? {}).some((k) => k.startsWith('2'))).map((o) => o.id),
      documentedNotInCatalogue: notInCatalogue,
      bodiesValidated: validated,
      bodiesFailed: failed,
    }),
    findings: () => conflicts,
    responseExample: (id) => examples.get(id),
    responseSchema: (id) => {
      const s = schemas.get(id);
      const k = Object.keys(s ?? {}).find((x) => x.startsWith('2'));
      return k ? s?.[k] : undefined;
    },
    validateResponse(operationId, status, body) {
      const schema = schemaFor(operationId, status);
      if (!schema) return { validated: false, errors: [] };
      const key = `${operationId}|${status}`;
      let v = compiled.get(key);
      if (!v) {
        try {
          v = ajv.compile(schema);
        } catch (e) {
          return {
            validated: false,
            errors: [`the document's schema for ${operationId} ${status} cannot be compiled: ${(e as Error).message}`],
          };
        }
        compiled.set(key, v);
      }
      validated += 1;
      if (v(body)) return { validated: true, errors: [] };
      failed += 1;
      return { validated: true, errors: (v.errors ?? []).map((e) => `${e.instancePath || '/'}: ${e.message ?? 'invalid'}`) };
    },
  };
}

function checkToken(path: string, method: string, o: OperationObject, version: string, out: Finding[]): void {
  const family = path.includes('oauth30') ? 'vendor' : 'reseller';
  const ep = tokenEndpoints[family];
  const methodDef = findingDefinition('openapi.token-method');
  const form = Object.keys(o.requestBody?.content ?? {}).some((ct) => ct.startsWith(ep.contentType));
  const methodOk = method.toUpperCase() === ep.method && form;
  out.push({
    id: `openapi.token-method@${family}`,
    statement: methodDef.statement,
    observed: methodOk ? 'agrees' : 'differs',
    evidence: `document: ${method.toUpperCase()} ${path} with ${Object.keys(o.requestBody?.content ?? {}).join(', ') || 'no body'}`,
    family,
  });
  const json = Object.entries(o.responses?.['200']?.content ?? {}).find(([ct]) => /json/i.test(ct))?.[1];
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

/** The contract read from the imported document: its coverage and findings, and its request and response validators. */
import type { Operation } from '../../catalogue';
import { errorLines } from '../../clients/ajv';
import type { DocumentedParameter, OpenApiContract } from './openapi-contract';
import type { Compile, Imported } from './document-shapes';

/** The contract read from the imported document; it counts the response bodies it validates. */
export function contractOf(
  file: string,
  version: string,
  ops: readonly Operation[],
  imported: Imported,
  compile: Compile,
): OpenApiContract {
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

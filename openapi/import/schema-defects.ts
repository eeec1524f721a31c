/** The document's own defects: a schema that cannot be read, an example its schema refuses, a required name it does not declare. */
import { errorLines } from '../../clients/ajv';
import type { DocumentDefect } from './openapi-contract';
import { examplesOf, jsonOf, type Compile, type ReadSchema } from './document-shapes';
import type { MediaObject, OperationObject } from '../openapi-objects';
import { toJsonSchema } from './json-schema';

/**
 * Reads the document's schemas, recording its defects: a schema that cannot be read as JSON Schema, an
 * example its schema refuses, a required name it does not declare.
 */
export function schemaReader(version: string, compile: Compile, defects: DocumentDefect[]) {
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

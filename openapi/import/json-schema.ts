/** The document's schemas as JSON Schema (OpenAPI 3.0 converted, 3.1 as written) and their compiler. */
import type { ValidateFunction } from 'ajv';
import { openapiSchemaToJsonSchema } from '@openapi-contrib/openapi-schema-to-json-schema';
import { createAjv } from '../../clients/ajv';
import type { Compile } from './document-shapes';

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

export function toJsonSchema(schema: unknown, version: string): Record<string, unknown> {
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

/** Compiles each schema object once; a schema that does not compile yields its Error. */
export function schemaCompiler(): Compile {
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

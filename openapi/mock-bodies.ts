/**
 * Response bodies for the mock from an OpenAPI document: examples first, otherwise values generated
 * from the schemas, seeded so the same document and seed give the same bodies.
 */
import { seededFaker } from '../fixtures/build-world';
import { loadOpenApi } from './import';

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  example?: unknown;
  examples?: unknown[];
  default?: unknown;
  format?: string;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  minimum?: number;
  maximum?: number;
};

const NONE = Symbol('no value given');

/** The value the schema itself gives (example, examples, const, enum, default, in that order), else NONE. */
function givenValue(schema: Schema): unknown {
  if (schema.example !== undefined) return schema.example;
  if (schema.examples?.length) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  return NONE;
}

/** A value for the schema: the one it gives, else one drawn from the seeded faker (allOf merged, the first of oneOf / anyOf; null past 8 levels). */
export function sampleOfSchema(schema: Schema, rnd: ReturnType<typeof seededFaker>, depth = 0): unknown {
  if (depth > 8) return null;
  const given = givenValue(schema);
  if (given !== NONE) return given;
  if (schema.allOf?.length) return Object.assign({}, ...schema.allOf.map((s) => sampleOfSchema(s, rnd, depth + 1) as object));
  if (schema.oneOf?.length) return sampleOfSchema(schema.oneOf[0] as Schema, rnd, depth + 1);
  if (schema.anyOf?.length) return sampleOfSchema(schema.anyOf[0] as Schema, rnd, depth + 1);
  const types = Array.isArray(schema.type) ? schema.type.filter((t) => t !== 'null') : [schema.type];
  return typedSample(types[0] ?? (schema.properties ? 'object' : undefined), schema, rnd, depth);
}

/** A generated value of type `t` (null for no type or an unknown one). */
function typedSample(t: string | undefined, schema: Schema, rnd: ReturnType<typeof seededFaker>, depth: number): unknown {
  switch (t) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, sampleOfSchema(v, rnd, depth + 1)]));
    case 'array':
      return schema.items ? [sampleOfSchema(schema.items, rnd, depth + 1)] : [];
    case 'integer':
      return rnd.number.int({ min: schema.minimum ?? 0, max: schema.maximum ?? 1000 });
    case 'number':
      return rnd.number.float({ min: schema.minimum ?? 0, max: schema.maximum ?? 1000, fractionDigits: 2 });
    case 'boolean':
      return rnd.datatype.boolean();
    case 'string':
      return stringSample(schema, rnd);
    default:
      return null;
  }
}

/** A generated string of the schema's format (date-time, date, email, uuid), else 10 letters and digits. */
function stringSample(schema: Schema, rnd: ReturnType<typeof seededFaker>): string {
  if (schema.format === 'date-time') return rnd.date.recent().toISOString();
  if (schema.format === 'date') return rnd.date.recent().toISOString().slice(0, 10);
  if (schema.format === 'email') return rnd.internet.email();
  if (schema.format === 'uuid') return rnd.string.uuid();
  return rnd.string.alphanumeric(10);
}

export async function createBodyGenerator(file: string, seed: number): Promise<(operationId: string) => unknown | undefined> {
  const contract = await loadOpenApi(file);
  const cache = new Map<string, unknown>();
  return (operationId: string) => {
    if (cache.has(operationId)) return cache.get(operationId);
    const schema = contract.responseSchema(operationId);
    const example = contract.responseExample(operationId);
    const body =
      example !== undefined ? example : schema ? sampleOfSchema(schema as Schema, seededFaker(seed + operationId.length)) : undefined;
    cache.set(operationId, body);
    return body;
  };
}

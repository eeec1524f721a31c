/**
 * A HAR document judged against the HAR 1.2 JSON Schema of the `har-schema` package (draft-06, with the
 * non-standard keywords `optional` and `min`, hence the project's Ajv without strict mode).
 */
import { createRequire } from 'node:module';
import { createAjv, errorLines } from '../../../clients/ajv';

const require = createRequire(import.meta.url);

/** The schema's problems with `har` (`instancePath: message` each); none when it is a valid HAR 1.2 log. */
export function harProblems(har: unknown): string[] {
  const schemas = require('har-schema') as Record<string, { $id: string }>;
  const ajv = createAjv({ catalogue: false, strict: false });
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json') as object);
  for (const s of Object.values(schemas)) ajv.addSchema(s);
  const validate = ajv.getSchema('har.json#');
  if (!validate) throw new Error('har-schema: no schema har.json#');
  return validate(har) ? [] : errorLines(validate.errors);
}

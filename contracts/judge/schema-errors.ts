/**
 * One Ajv instance for the suite (the project's factory): strict, allErrors, every catalogue schema
 * registered once by $id. Built on the first validation: the runner, which only lists the tests,
 * and workers that validate nothing do not pay for registering every schema.
 */
import type { Ajv } from 'ajv';
import { createAjv, errorLines } from '../../clients/ajv';

let instance: Ajv | undefined;

/** `instancePath: message` for each error, or [] when `data` validates. */
export function schemaErrors(schemaId: string, data: unknown): string[] {
  instance ??= createAjv();
  const validate = instance.getSchema(schemaId);
  if (!validate) throw new Error(`no schema registered with $id ${schemaId}`);
  if (validate(data)) return [];
  return errorLines(validate.errors);
}

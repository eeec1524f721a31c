/** One Ajv instance for the suite (the project's factory): strict, allErrors, every catalogue schema registered once by $id. */
import { createAjv, errorLines } from '../../clients/ajv';

export const ajv = createAjv();

/** `instancePath: message` for each error, or [] when `data` validates. */
export function schemaErrors(schemaId: string, data: unknown): string[] {
  const validate = ajv.getSchema(schemaId);
  if (!validate) throw new Error(`no schema registered with $id ${schemaId}`);
  if (validate(data)) return [];
  return errorLines(validate.errors);
}

/** One Ajv instance for the suite: strict, allErrors, every catalogue schema registered once by $id. */
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { allSchemas } from '../../catalogue';

export const ajv = new Ajv({ strict: true, strictTypes: false, allErrors: true });
(addFormatsModule as unknown as (a: Ajv) => void)(ajv);
for (const s of allSchemas) ajv.addSchema(s);

/** `instancePath: message` for each error, or [] when `data` validates. */
export function schemaErrors(schemaId: string, data: unknown): string[] {
  const validate = ajv.getSchema(schemaId);
  if (!validate) throw new Error(`no schema registered with $id ${schemaId}`);
  if (validate(data)) return [];
  return (validate.errors ?? []).map(
    (e: ErrorObject) =>
      `${e.instancePath || '/'}: ${e.message ?? 'invalid'}${e.params && 'allowedValue' in e.params ? ` (${JSON.stringify(e.params.allowedValue)})` : ''}`,
  );
}

/**
 * The one Ajv factory of the project: the mock's route validation, the contract suite and the
 * OpenAPI import all build their instance here, so formats and options agree.
 */
import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { allSchemas, type JsonSchema } from '../catalogue/schemas';

const addFormats = addFormatsModule as unknown as (a: Ajv) => void;

export interface AjvOptions {
  /** Register the catalogue's schemas (by `$id`). Default true. */
  catalogue?: boolean;
  /** Report every error, not just the first. Default true. */
  allErrors?: boolean;
  /**
   * Strict mode rejects unknown keywords: on for our own schemas, off for a user's OpenAPI
   * document (vendor extensions, `example`, draft differences).
   */
  strict?: boolean;
  /** Extra schemas to register. */
  schemas?: readonly JsonSchema[];
}

export function createAjv(o: AjvOptions = {}): Ajv {
  const strict = o.strict ?? true;
  const opts: Options = strict
    ? { strict: true, strictTypes: false, allErrors: o.allErrors ?? true }
    : { strict: false, allErrors: o.allErrors ?? true, logger: false, validateFormats: true };
  const ajv = new Ajv(opts);
  addFormats(ajv);
  // The catalogue's schemas are checked against the meta-schema once, by the catalogue test, not by every
  // process that registers them (compiling the meta-schema was a quarter of the mock's start).
  if (o.catalogue ?? true) for (const s of allSchemas) ajv.addSchema(s, undefined, undefined, false);
  for (const s of o.schemas ?? []) ajv.addSchema(s);
  return ajv;
}

/** `instancePath: message` for each error of the last validation. */
export function errorLines(errors: readonly ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map(
    (e) =>
      `${e.instancePath || '/'}: ${e.message ?? 'invalid'}${e.params && 'allowedValue' in e.params ? ` (${JSON.stringify(e.params.allowedValue)})` : ''}`,
  );
}

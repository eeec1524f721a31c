/** How the mock reads request bodies: forms, JSON (an empty body reads as {}), and the route body schemas' validator. */
import type { FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import type { ValidateFunction } from 'ajv';
import { createAjv } from '../../clients/ajv';

/** Form and JSON parsers; broken JSON is a 400 (the error handler's malformedJson). */
export async function registerBodyParsers(app: FastifyInstance, bodyLimit: number): Promise<void> {
  await app.register(formbody, { bodyLimit });
  // An empty JSON body reads as {} (operations whose body is optional); broken JSON is a 400.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, text, done) => {
    const s = String(text);
    if (s.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(s));
    } catch {
      done(Object.assign(new Error('Request body is not valid JSON'), { statusCode: 400 }), undefined);
    }
  });
}

/**
 * Route body schemas are the catalogue's, registered once in the project's Ajv; routes refer to them by $id.
 * Compiled on a route's first body, not at start: a mock serving one check compiles one schema (compiling
 * them all was most of the mock's start time, paid by every worker of the suite).
 * Every broken rule is reported when served (`allErrors`, warn); the first one refuses the call (strict).
 */
export function setLazyValidatorCompiler(app: FastifyInstance, allErrors: boolean): void {
  const ajv = createAjv({ allErrors });
  app.setValidatorCompiler(({ schema }) => {
    let compiled: ValidateFunction | undefined;
    const validate = (data: unknown): boolean => {
      compiled ??= ajv.compile(schema);
      const ok = compiled(data) as boolean;
      validate.errors = compiled.errors;
      return ok;
    };
    validate.errors = null as ValidateFunction['errors'];
    return validate;
  });
}

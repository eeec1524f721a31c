/**
 * The preHandler of a business route: the request checks in the order the API answers them (authentication,
 * required headers and their constraints, the path parameters' constraints, query parameters and their constraints, Content-Type and the body's schema, the webhook
 * signature). Each check returns a refusal or null; a route lists, once at registration, the checks its
 * operation needs, and a conforming request runs them without allocating.
 *
 * A refusal with a `part` is a broken document constraint: refused with 400 (strict), or noted and served
 * (warn, mock/checks/request-violations.ts). A refusal without one is refused in either mode.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Operation } from '../../catalogue';
import { missingHeadersBody, missingQuery } from '../checks/auth';
import type { BusinessRoute, RequestCheck, RequestRefusal } from './business-route-types';
import { entryOf, errorOf, errorStatusOf, type ErrorBody } from '../ground/errors';
import { noteViolations, type RequestPart, type Violation } from '../checks/request-violations';
import { signatureRefusal, webhookSecretOf } from '../api/webhooks';

const documentRefusal = (part: RequestPart, body: ErrorBody): RequestRefusal => ({ status: 400, body, part });

/** The caller's token (judged by onRequest, which needs the caller for the limiter key). */
const authentication: RequestCheck = (req) => {
  const error = req.mockAuth?.error;
  return error ? { status: errorStatusOf(error), body: errorOf(error) } : null;
};

/**
 * The required headers and the constraints on the values sent. Strict mode refuses the missing headers
 * first; warn mode notes both in one refusal, missing headers first.
 */
const headers: RequestCheck = (req, route) => {
  const faults = route.headerRules(req);
  if (faults === null) return null;
  const { leniency } = route.ctx;
  const missing = faults.missing && !leniency('missing-required-header') ? missingHeadersBody(faults.missing) : null;
  if (missing && !route.warnRequests) return documentRefusal('header', missing);
  const invalid = faults.invalid && !leniency('header-beyond-constraints') ? faults.invalid : null;
  if (missing && invalid) return documentRefusal('header', { errors: missing.errors.concat(invalid.errors) });
  const body = missing ?? invalid;
  return body ? documentRefusal('header', body) : null;
};

/** The values of the path parameters the document constrains (an order number of at most 12 characters). */
const path: RequestCheck = (req, route) => {
  if (!route.pathRules || route.ctx.leniency('input-beyond-constraints')) return null;
  const invalid = route.pathRules(req.params as Record<string, unknown>);
  return invalid ? documentRefusal('path', invalid) : null;
};

/**
 * The required query parameters (those the distributor's client cannot send are optional unless strictDocument),
 * then the values the document constrains. Strict mode refuses the missing ones first; warn mode notes both.
 */
const query: RequestCheck = (req, route) => {
  const q = req.query as Record<string, unknown>;
  const lenient = route.conflict && !route.strictDocument();
  if (route.ctx.leniency('input-beyond-constraints')) return null;
  const names = missingQuery(q, lenient ? route.lenientQuery : route.op);
  const missing = names ? missingQueryBody(names) : null;
  if (missing && !route.warnRequests) return documentRefusal('query', missing);
  const invalid = route.queryRules ? route.queryRules(q) : null;
  if (missing && invalid) return documentRefusal('query', { errors: missing.errors.concat(invalid.errors) });
  const body = missing ?? invalid;
  return body ? documentRefusal('query', body) : null;
};

/** A JSON operation: the Content-Type, then the body against the published request schema (validated by the route). */
const jsonBody: RequestCheck = (req, route) => {
  const type = req.headers['content-type'];
  if (type !== undefined && !type.startsWith('application/json')) return { status: 415, body: errorOf('jsonRequired') };
  const invalid = req.validationError as (Error & { validation?: BodyError[] }) | undefined;
  const { leniency } = route.ctx;
  if (!invalid || leniency('input-beyond-constraints') || (route.op.webhook && leniency('invalid-webhook-event'))) return null;
  return documentRefusal('body', invalidBodyOf(invalid.validation ?? []));
};

/** A webhook call: x-hub-signature with the calling app's webhook secret. */
const webhookSignature: RequestCheck = (req, route) => {
  const { ctx } = route;
  if (ctx.leniency('wrong-webhook-signature')) return null;
  const bad = signatureRefusal(req.headers['x-hub-signature'], req.body, webhookSecretOf(ctx.apps, req.mockAuth?.holder?.clientId));
  return bad ? { status: 401, body: bad } : null;
};

/** The checks an operation's requests go through, in order. */
export function requestChecksOf(op: Pick<Operation, 'jsonBody' | 'webhook'>): readonly RequestCheck[] {
  const checks = [authentication, headers, path, query];
  if (op.jsonBody) checks.push(jsonBody);
  if (op.webhook) checks.push(webhookSignature);
  return checks;
}

/** The preHandler: the route's checks; the first refusal answers, except broken constraints warn mode serves. */
export function runRequestChecks(route: BusinessRoute, req: FastifyRequest, reply: FastifyReply, done: () => void): void {
  const { checks } = route;
  let noted: Violation[] | null = null;
  for (let i = 0; i < checks.length; i++) {
    const refusal = (checks[i] as RequestCheck)(req, route);
    if (refusal === null) continue;
    if (refusal.part === undefined || !route.warnRequests) return void reply.code(refusal.status).send(refusal.body);
    const to = {
      reply,
      call: `${route.op.method} ${req.url.split('?')[0]}`,
      correlationId: req.headers['im-correlationid'],
      log: route.reportViolation,
    };
    noted = noteViolations(noted, refusal.part, refusal.body, to);
  }
  done();
}

/** One error of the route's body validation (ajv). */
type BodyError = { instancePath: string; message?: string; params?: { missingProperty?: string } };

/** The refusal of a body: one entry per schema error, naming the field by its dotted path. */
function invalidBodyOf(errors: readonly BodyError[]): ErrorBody {
  const entries = (errors.length ? errors : [{ instancePath: '' }]).map((e) => {
    const path = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
    const field = [path, e.params?.missingProperty].filter(Boolean).join('.') || null;
    return entryOf('invalidBody', { field, message: `Invalid request body: ${e.instancePath || '/'} ${e.message ?? ''}`.trim() });
  });
  return { errors: entries };
}

/** The refusal of the required query parameters a request lacks. */
const missingQueryBody = (names: readonly string[]): ErrorBody => ({
  errors: names.map((name) => entryOf('missingQuery', { field: name, message: `Missing required query parameter ${name}` })),
});

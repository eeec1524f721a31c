/**
 * The mock's answers outside an operation's handler: an unknown path (404), a known path called with a
 * method it does not serve (405), the errors Fastify raises before a handler runs (body parsing, size), and the
 * router's refusals before any route is found (a path parameter too long, a path that does not decode).
 */
import { METHODS } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorOf, errorStatusOf, type ErrorBody } from '../ground/errors';
import type { RouteHelpers } from './token-routes';

export const send = (reply: FastifyReply, status: number, body: ErrorBody): FastifyReply => reply.code(status).send(body);

/** An unknown path: 404 with the coded noRoute error. */
export const noRoute = (_req: FastifyRequest, reply: FastifyReply): FastifyReply => send(reply, 404, errorOf('noRoute'));

/**
 * `Allow`: every method a path serves (RFC 9110 §10.2.1), HEAD too wherever GET is served, since Fastify answers HEAD
 * with the GET route's answer without its body (exposeHeadRoutes, its default).
 */
export const allowOf = (served: readonly string[]): string => (served.includes('GET') ? [...served, 'HEAD'] : served).join(', ');

/** 405 with `Allow` naming the methods the path serves. */
export function methodNotAllowed(_req: FastifyRequest, reply: FastifyReply, served: readonly string[]): FastifyReply {
  const allowed = allowOf(served);
  reply.header('Allow', allowed);
  return send(reply, 405, errorOf('methodNotAllowed', { message: `Method not allowed; allowed: ${allowed}` }));
}

/**
 * Route options answering 405 with `Allow` from onRequest: before the body is read, so a method with a body or
 * none, with any Content-Type or none, gets the same answer. `served` is read per request: what a path serves may
 * follow a setting (the token path's GET).
 */
export function methodNotAllowedRoute(served: () => readonly string[]) {
  return {
    onRequest: (req: FastifyRequest, reply: FastifyReply, _done: () => void): void => void methodNotAllowed(req, reply, served()),
    handler: (req: FastifyRequest, reply: FastifyReply) => methodNotAllowed(req, reply, served()),
  };
}

/**
 * Every method Node reads a request with (TRACE, OPTIONS, QUERY, PROPFIND ...; CONNECT aside: a tunnel, not a
 * request to a path), each made routable on the app, so a known path answers each method it does not serve 405.
 */
export function everyMethod(app: FastifyInstance): readonly string[] {
  for (const m of METHODS) if (m !== 'CONNECT' && !app.supportedMethods.includes(m)) app.addHttpMethod(m, { hasBody: true });
  return app.supportedMethods.filter((m) => m !== 'CONNECT');
}

/** The methods a path answers 405 to: every method but those it serves (HEAD aside: Fastify answers it as the path's GET, served or 405). */
export function otherMethods(all: readonly string[], served: ReadonlySet<string>): string[] {
  return all.filter((m) => !served.has(m) && m !== 'HEAD');
}

export const ROUTE_HELPERS: RouteHelpers = { noRoute, methodNotAllowed, methodNotAllowedRoute, everyMethod, otherMethods };

type FastifyError = Error & { statusCode?: number; code?: string };

/** Fastify's errors as the API's error bodies: 413, 415, 400 for JSON that does not parse, 500 logged. */
function onError(err: FastifyError, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return send(reply, 413, errorOf('tooLarge'));
  if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return send(reply, 415, errorOf('jsonRequired'));
  if (status === 400) return send(reply, 400, errorOf('malformedJson'));
  if (status < 500) return send(reply, status, { errors: [{ field: null, message: err.message }] });
  req.log.error(err);
  return send(reply, 500, errorOf('internal'));
}

/** The longest path parameter the router reads (characters): a longer one is refused (frameworkErrors). */
export const MAX_PARAM_LENGTH = 200;

/**
 * The router's refusals, raised before any route (or hook of one) runs, in the API's error shape and with the
 * rate-limit headers of any answer (`writeHeaders`: the app's onSend step, which Fastify does not run for them): a
 * path parameter longer than the router reads (MAX_PARAM_LENGTH) and a path whose percent-encoding does not decode.
 * The status stays the one each limit implies (414 URI Too Long, RFC 9110 §15.5.15; 400): neither published form
 * gives a path's length a status. Within the router's limit, a path parameter beyond the maxLength a form gives (a
 * part number of 6, an order or invoice number of 12) is refused as any value the document refuses, 400 naming it
 * (mock/checks/query-rules.ts).
 */
export function frameworkErrors(writeHeaders: (req: FastifyRequest, reply: FastifyReply) => void) {
  return (err: FastifyError, req: FastifyRequest, reply: FastifyReply): FastifyReply => {
    if (err.code !== 'FST_ERR_MAX_PARAM_LENGTH' && err.code !== 'FST_ERR_BAD_URL') return onError(err, req, reply);
    const code = err.code === 'FST_ERR_BAD_URL' ? 'badUrl' : 'uriTooLong';
    const message = code === 'uriTooLong' ? `A path parameter is longer than the ${MAX_PARAM_LENGTH} characters the mock reads` : undefined;
    reply.code(errorStatusOf(code));
    writeHeaders(req, reply);
    return reply.send(errorOf(code, message ? { message } : {}));
  };
}

export function registerErrorHandlers(app: FastifyInstance): void {
  app.setNotFoundHandler(noRoute);
  app.setErrorHandler(onError);
}

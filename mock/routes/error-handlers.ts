/**
 * The mock's answers outside an operation's handler: an unknown path (404), a known path called with a
 * method it does not serve (405), and the errors Fastify raises before a handler runs (body parsing, size).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorOf, type ErrorBody } from '../ground/errors';
import type { RouteHelpers } from './token-routes';

export const send = (reply: FastifyReply, status: number, body: ErrorBody): FastifyReply => reply.code(status).send(body);

/** An unknown path: 404 with the coded noRoute error. */
export const noRoute = (_req: FastifyRequest, reply: FastifyReply): FastifyReply => send(reply, 404, errorOf('noRoute'));

export function methodNotAllowed(_req: FastifyRequest, reply: FastifyReply, allowed: string): FastifyReply {
  reply.header('Allow', allowed);
  return send(reply, 405, errorOf('methodNotAllowed', { message: `Method not allowed; allowed: ${allowed}` }));
}

export const ROUTE_HELPERS: RouteHelpers = { noRoute, methodNotAllowed };

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

export function registerErrorHandlers(app: FastifyInstance): void {
  app.setNotFoundHandler(noRoute);
  app.setErrorHandler(onError);
}

/**
 * The token endpoints of both families in both environments: form POST (documented) and, unless
 * switched off with `tokenGet: 'reject'`, GET with query parameters (how the distributor's own
 * clients ask; a finding of the suite either way).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { ENVIRONMENTS, environmentRoot, tokenEndpoints, TOKEN_LIMIT, type Family } from '../../catalogue';
import type { MockContext } from '../context/context';
import { errorOf, errorStatusOf, type ErrorCodeName } from '../ground/errors';

export type RouteHelpers = {
  noRoute: (req: FastifyRequest, reply: FastifyReply) => FastifyReply;
  methodNotAllowed: (req: FastifyRequest, reply: FastifyReply, served: readonly string[]) => FastifyReply;
  methodNotAllowedRoute: (served: () => readonly string[]) => {
    onRequest: (req: FastifyRequest, reply: FastifyReply, done: () => void) => void;
    handler: (req: FastifyRequest, reply: FastifyReply) => FastifyReply;
  };
  everyMethod: (app: FastifyInstance) => readonly string[];
  otherMethods: (all: readonly string[], served: ReadonlySet<string>) => string[];
};

export function registerTokenRoutes(app: FastifyInstance, ctx: MockContext, h: RouteHelpers): void {
  const { ownSettings, leniency, rate } = ctx;
  const methods = h.everyMethod(app);
  const tokenRoute = rate.route({ token: true });
  const fail = (reply: FastifyReply, code: ErrorCodeName, field?: string) =>
    reply.code(errorStatusOf(code)).send(errorOf(code, field ? { field, message: `Missing required field ${field}` } : {}));

  function issue(family: Family, fields: Record<string, unknown>, req: FastifyRequest, reply: FastifyReply): FastifyReply {
    const clientId = typeof fields.client_id === 'string' ? fields.client_id : undefined;
    const settings = ctx.settings();
    const d = rate.consume(req, tokenRoute, `token|${family}|${clientId ?? `ip:${req.ip}`}`, ownSettings.limits.token ?? TOKEN_LIMIT);
    if (!d.allowed) return rate.tooMany(reply);
    for (const f of ['grant_type', 'client_id', 'client_secret']) {
      if (typeof fields[f] !== 'string' || fields[f] === '') return fail(reply, 'missingField', f);
    }
    if (fields.grant_type !== 'client_credentials') return fail(reply, 'unsupportedGrant');
    const a = ctx.apps.get(clientId as string);
    const secretOk = a !== undefined && (a.clientSecret === fields.client_secret || leniency('wrong-client-secret'));
    if (!a || !secretOk || a.family !== family) return fail(reply, 'invalidClient');
    const accessToken = randomBytes(24).toString('base64url');
    ctx.tokens.issue(accessToken, { clientId: a.clientId, family, expiresAtMs: ctx.clock.now() + settings.tokenValidityMs });
    return reply.code(200).send({ access_token: accessToken, token_type: 'Bearer', expires_in: settings.expiresInS });
  }

  /** The methods a token path serves: POST (the spec) and GET (the published document) unless switched off. */
  const served = () => (ctx.settings().tokenGet === 'accept' ? ['POST', 'GET'] : ['POST']);

  for (const env of ENVIRONMENTS) {
    for (const family of ['reseller', 'vendor'] as const) {
      const url = `${environmentRoot[env]}${tokenEndpoints[family].path}`;
      const onRequest = (req: FastifyRequest, _reply: FastifyReply, done: () => void) => {
        req.rateRoute = tokenRoute;
        done();
      };
      app.post(url, { onRequest }, (req, reply) => {
        const ct = req.headers['content-type'] ?? '';
        const isForm = ct.startsWith('application/x-www-form-urlencoded');
        const isJson = ct.startsWith('application/json');
        if (!isForm && !(isJson && leniency('json-token-request'))) {
          const d = rate.consume(req, tokenRoute, `token|${family}|ip:${req.ip}`, ownSettings.limits.token ?? TOKEN_LIMIT);
          return d.allowed ? reply.code(415).send(errorOf('formRequired')) : rate.tooMany(reply);
        }
        return issue(family, (req.body ?? {}) as Record<string, unknown>, req, reply);
      });
      app.get(url, { onRequest }, (req, reply) => {
        if (ctx.settings().tokenGet === 'accept') return issue(family, req.query as Record<string, unknown>, req, reply);
        return h.methodNotAllowed(req, reply, served());
      });
      // Any other method: 405 before the body is read.
      const refused = h.methodNotAllowedRoute(served);
      const refuse = (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
        req.rateRoute = tokenRoute;
        refused.onRequest(req, reply, done);
      };
      app.route({ method: h.otherMethods(methods, new Set(['GET', 'POST'])), url, onRequest: refuse, handler: refused.handler });
    }
  }
}

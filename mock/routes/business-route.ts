/**
 * A business operation's route along Fastify's lifecycle:
 *   onRequest      the caller identified, the limiter's decision, 429
 *   preValidation  a missing JSON body read as {}, the client's form of a document conflict accepted or refused
 *   schema         the body against the published request schema (attachValidation: judged by the preHandler)
 *   preHandler     the request checks (request-checks.ts)
 *   handler        the operation's handler on the mock's state (business-handler.ts)
 *
 * Everything a request does not change is resolved once, when the route is registered: the handler, the
 * header and query rules, the checks, the limiter's view of the route and the limiter key of each caller.
 * A request runs the steps, it builds none of them.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ENVIRONMENTS, familyBase, isOperationId, type EnvironmentName, type Operation } from '../../catalogue';
import { businessHandler } from './business-handler';
import type { MockContext } from '../context/context';
import { DOCUMENT_CONFLICTS, requiredQueryOf } from '../checks/document-conflicts';
import { everyMethod, methodNotAllowedRoute, otherMethods, send } from './error-handlers';
import { HANDLERS } from '../api/handlers/by-operation';
import { compileHeaderRules } from '../checks/header-rules';
import { compilePathRules, compileQueryRules } from '../checks/query-rules';
import type { BusinessRoute, BusinessRouteBase } from './business-route-types';
import { requestChecksOf, runRequestChecks } from './request-checks';

function routeOf(s: BusinessRouteBase, env: EnvironmentName, op: Operation): BusinessRoute {
  return {
    ...s,
    env,
    op,
    handler: isOperationId(op.id) ? HANDLERS[op.id] : null,
    headerRules: compileHeaderRules(op),
    queryRules: compileQueryRules(op),
    pathRules: compilePathRules(op),
    conflict: DOCUMENT_CONFLICTS[op.id],
    lenientQuery: requiredQueryOf(op, false),
    rateRoute: s.ctx.rate.route({ operationId: op.id }),
    checks: requestChecksOf(op),
    limiterKey: limiterKeys(s.ctx, `${env}:${op.id}`, `${env}:${op.family}:${resourceOf(op.path)}`),
  };
}

/** The resource a path names, whatever its version: `/resellers/v6.1/orders/{orderNumber}` -> `orders`. */
const resourceOf = (path: string): string => path.replace(/^\/[^/]+\/v[\d.]+\/([^/?]+).*$/, '$1');

/** A request's path without its query. */
const pathOf = (req: FastifyRequest): string => req.url.split('?', 1)[0] as string;

/** Limiter keys by caller: per app and operation (the spec's counters), one string per caller. */
function limiterKeys({ leniency }: MockContext, opKey: string, prefixKey: string): (who: string, req: FastifyRequest) => string {
  const keys = new Map<string, string>();
  return (who, req) => {
    if (leniency('counter-per-app')) return who;
    if (leniency('counter-per-operation')) return opKey;
    if (leniency('counter-per-token')) return `${req.headers.authorization ?? who}|${opKey}`;
    if (leniency('counter-per-path')) return `${who}|${pathOf(req)}`;
    if (leniency('counter-per-path-prefix')) return `${who}|${prefixKey}`;
    let key = keys.get(who);
    if (key === undefined) keys.set(who, (key = `${who}|${opKey}`));
    return key;
  };
}

/** onRequest: the caller identified, the limiter's decision, 429. */
function onRequest(route: BusinessRoute, req: FastifyRequest, reply: FastifyReply, done: () => void): void {
  const { ctx, op } = route;
  const auth = ctx.tokens.authenticate(req, op.family, ctx.leniency);
  req.mockAuth = auth;
  const who = auth.holder?.clientId ?? `ip:${req.ip}`;
  if (!ctx.rate.consume(req, route.rateRoute, route.limiterKey(who, req), ctx.limitOf(op)).allowed) return void ctx.rate.tooMany(reply);
  done();
}

/** preValidation (JSON bodies and client/document conflicts): a missing body reads as {}, the client's form accepted or refused. */
function preValidation(route: BusinessRoute, req: FastifyRequest, reply: FastifyReply, done: () => void): void {
  const { conflict } = route;
  // No body at all where a JSON body is optional reads as {} too.
  if (req.body === undefined && route.op.jsonBody) req.body = {};
  const refused = conflict && !req.mockAuth?.error ? conflict.check(req, route.strictDocument(), route.reportConflict) : null;
  if (refused) return void send(reply, 400, refused);
  done();
}

/** The route options of an operation in an environment; the hooks are bound here, once. */
function businessRouteOptions(s: BusinessRouteBase, env: EnvironmentName, op: Operation) {
  const route = routeOf(s, env, op);
  const hooks = {
    onRequest: (req: FastifyRequest, reply: FastifyReply, done: () => void) => onRequest(route, req, reply, done),
    preHandler: (req: FastifyRequest, reply: FastifyReply, done: () => void) => runRequestChecks(route, req, reply, done),
    handler: (req: FastifyRequest, reply: FastifyReply) => businessHandler(route, req, reply),
  };
  return {
    ...(op.requestSchema ? { schema: { body: { $ref: op.requestSchema } }, attachValidation: true } : {}),
    ...(op.jsonBody || route.conflict
      ? { preValidation: (req: FastifyRequest, reply: FastifyReply, done: () => void) => preValidation(route, req, reply, done) }
      : {}),
    ...hooks,
  };
}

const toFastifyPath = (p: string): string => p.replace(/\{([^}]+)\}/g, ':$1');

/** Every catalogued operation in every environment; a known path answers 405 with Allow to every method it does not serve, before the body is read. */
export function registerBusinessRoutes(app: FastifyInstance, s: BusinessRouteBase): void {
  const methods = everyMethod(app);
  const served = new Map<string, Set<string>>();
  for (const env of ENVIRONMENTS) {
    for (const op of s.ctx.operations) {
      const url = toFastifyPath(`${familyBase(op.family, env)}${op.path}`);
      if (!served.has(url)) served.set(url, new Set());
      (served.get(url) as Set<string>).add(op.method);
      app.route({ method: op.method, url, ...businessRouteOptions(s, env, op) });
    }
  }
  for (const [url, serving] of served) {
    const list = [...serving];
    const refused = methodNotAllowedRoute(() => list);
    app.route({ method: otherMethods(methods, serving), url, ...refused });
  }
}

/**
 * The embedded mock of the Distributor Commerce API. `buildMockApp` builds the Fastify app
 * (tests use `app.inject()`); `startMock` in server.ts listens on 127.0.0.1.
 *
 * A business call runs along Fastify's lifecycle:
 *   onRequest   caller identified, limiter decision (rate-limit.ts), 429
 *   preHandler  authentication (auth.ts), required headers and query parameters, Content-Type,
 *               the body checked against the published request schema (route schema, attachValidation)
 *   handler     the operation's handler (handlers.ts) on the mock's state (resources.ts)
 *   onSend      X-RateLimit headers from the decision and the final status
 *
 * A layer over the mock (options.ts, layer.ts) may make it lenient at named decision points, switch a
 * setting to its other reading, and register hooks of its own after the mock's.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import {
  DEFAULT_VENDOR_OPERATIONS,
  ENVIRONMENTS,
  familyBase,
  isOperationId,
  limitFor,
  operationsFor,
  type EnvironmentName,
  type Operation,
} from '../catalogue';
import { DEFAULT_SEED } from '../fixtures';
import { createAjv } from '../clients/ajv';
import type { ValidateFunction } from 'ajv';
import { missingHeadersBody, missingQuery, TokenStore, type AuthResult } from './auth';
import { compileHeaderRules } from './header-rules';
import { DOCUMENT_CONFLICTS, requiredQueryOf } from './document-conflicts';
import { SwitchableClock, systemClock } from './clock';
import { DEFAULT_APPS, type MockContext } from './context';
import { registerControlRoutes } from './control';
import { entryOf, errorOf, statusOf, type ErrorBody } from './errors';
import { HANDLERS, type Outcome } from './handlers';
import { FixedWindow, LimiterSet } from './limiter-algorithms';
import { DEFAULT_BODY_LIMIT, resolveOptions, type MockOptions } from './options';
import { RateLimits } from './rate-limit';
import { MockState, type Query } from './resources';
import { registerTokenRoutes, type RouteHelpers } from './token-routes';
import { signatureRefusal, webhookSecretOf, WebhookOutbox } from './webhooks';
import { holdTickShape } from './tick-shape';
import { noteViolations, type RequestPart, type Violation } from './request-violations';

export type { MockApp, MockConfig } from './context';
export { DEFAULT_APPS } from './context';
export { DEFAULT_BODY_LIMIT, MIN_WINDOW_MS, type MockOptions, type ResponseBodyHook } from './options';

const JSON_TYPE = 'application/json; charset=utf-8';
/** Serialised fixture objects of the seeded world (immutable), so the hot path skips JSON.stringify. */
const serialisedCache = new WeakMap<object, string>();
function serialised(o: object): string {
  let s = serialisedCache.get(o);
  if (s === undefined) {
    s = JSON.stringify(o);
    serialisedCache.set(o, s);
  }
  return s;
}

const noEvents = (): void => undefined;
const toFastifyPath = (p: string): string => p.replace(/\{([^}]+)\}/g, ':$1');
const ALL_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the business onRequest step identified (null elsewhere). */
    mockAuth: AuthResult | null;
  }
}

export async function buildMockApp(opts: MockOptions = {}): Promise<FastifyInstance> {
  holdTickShape();
  const { config, layer } = resolveOptions(opts);
  const { leniency } = layer;
  const settings = () => layer.settings(config);
  const clock = new SwitchableClock(opts.clock ?? systemClock);
  const windowMs = config.windowMs;
  const limiter = opts.limiter ?? (opts.algorithms ? new LimiterSet(clock, windowMs, opts.algorithms) : new FixedWindow(clock, windowMs));
  const ctx: MockContext = {
    config,
    settings,
    layer,
    clock,
    limiter,
    rate: new RateLimits(limiter, clock, settings, leniency, opts.headers, opts.refusalStatus),
    state: new MockState(opts.seed ?? DEFAULT_SEED),
    tokens: new TokenStore(clock),
    apps: new Map((opts.apps ?? DEFAULT_APPS).map((a) => [a.clientId, a])),
    outbox: new WebhookOutbox({ allowRemote: opts.allowRemoteWebhookTargets ?? false }),
    operations: operationsFor({ vendorOperations: opts.vendorOperations ?? DEFAULT_VENDOR_OPERATIONS }),
    leniency,
    limitOf: (op: Operation): number => {
      const l = limitFor(op, config.limits);
      return leniency('sixty-one-get-calls') && op.method === 'GET' && config.limits[op.id] === undefined ? 61 : l;
    },
  };
  const { rate } = ctx;

  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: opts.bodyLimitBytes ?? DEFAULT_BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    return503OnClosing: false,
  });
  await app.register(formbody, { bodyLimit: opts.bodyLimitBytes ?? DEFAULT_BODY_LIMIT });
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
  // Route body schemas are the catalogue's, registered once in the project's Ajv; routes refer to them by $id.
  // Compiled on a route's first body, not at start: a mock serving one check compiles one schema (compiling
  // them all was most of the mock's start time, paid by every worker of the suite).
  // Every broken rule is reported when served (warn); the first one refuses the call (strict).
  const warnRequests = opts.requests === 'warn';
  const ajv = createAjv({ allErrors: warnRequests });
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
  app.decorateRequest('mockRoute', null);
  app.decorateRequest('mockDecision', null);
  app.decorateRequest('mockAuth', null);
  app.addHook('onSend', (req, reply, payload, done) => {
    rate.writeHeaders(req, reply);
    done(null, payload);
  });
  layer.register(app, clock);

  const send = (reply: FastifyReply, status: number, body: ErrorBody): FastifyReply => reply.code(status).send(body);
  const helpers: RouteHelpers = {
    notFound: (_req, reply) => send(reply, 404, errorOf('noRoute')),
    methodNotAllowed: (_req, reply, allowed) => {
      reply.header('Allow', allowed);
      return send(reply, 405, errorOf('methodNotAllowed', { message: `Method not allowed; allowed: ${allowed}` }));
    },
  };

  registerTokenRoutes(app, ctx, helpers);
  const strictDocument = (): boolean => settings().strictDocument;
  const reportConflict = opts.onDocumentConflict ?? ((message: string) => app.log.warn(message));
  const reportViolation = opts.onRequestViolation ?? ((line: string) => app.log.warn(line));

  // ---- Business operations --------------------------------------------------------------
  /**
   * The hooks and handler of an operation's route. Everything a request does not change is resolved
   * here, once: the handler, the header and query rules, the limiter's view of the route and the
   * limiter key of each caller. A request runs the steps, it builds none of them.
   */
  function businessRoute(env: EnvironmentName, op: Operation) {
    // The operation's handler (vendor operations share the generic one).
    const businessHandler = isOperationId(op.id) ? HANDLERS[op.id] : null;
    const headerRules = compileHeaderRules(op);
    const conflict = DOCUMENT_CONFLICTS[op.id];
    const lenientQuery = requiredQueryOf(op, false);
    const rateRoute = rate.route({ operationId: op.id });
    // Webhook events stay refused when invalid, as the spec documents, in either mode.
    const serveBroken = warnRequests && !op.webhook;
    const opKey = `${env}:${op.id}`;
    /** Limiter key by caller: per app and operation (the spec's counters). */
    const keys = new Map<string, string>();
    const limiterKey = (who: string): string => {
      if (leniency('counter-per-app')) return who;
      if (leniency('counter-per-operation')) return opKey;
      let key = keys.get(who);
      if (key === undefined) keys.set(who, (key = `${who}|${opKey}`));
      return key;
    };

    /** onRequest: the caller identified, the limiter's decision, 429. */
    const onRequest = (req: FastifyRequest, reply: FastifyReply, done: () => void): void => {
      const auth = ctx.tokens.authenticate(req, op.family, leniency);
      req.mockAuth = auth;
      const who = auth.caller?.clientId ?? `ip:${req.ip}`;
      if (!rate.consume(req, rateRoute, limiterKey(who), ctx.limitOf(op)).allowed) return void rate.tooMany(reply);
      done();
    };

    /** preValidation (JSON bodies and client/document conflicts): a missing body reads as {}, the client's form accepted or refused. */
    const preValidation = (req: FastifyRequest, reply: FastifyReply, done: () => void): void => {
      // No body at all where a JSON body is optional reads as {} too.
      if (req.body === undefined && op.jsonBody) req.body = {};
      const refused = conflict && !req.mockAuth?.error ? conflict.check(req, strictDocument(), reportConflict) : null;
      if (refused) return void send(reply, 400, refused);
      done();
    };

    /** preHandler: authentication, required headers and their constraints, query parameters, Content-Type, the body's schema, signatures. */
    const preHandler = (req: FastifyRequest, reply: FastifyReply, done: () => void): void => {
      const auth = req.mockAuth;
      if (auth?.error) return void send(reply, statusOf(auth.error), errorOf(auth.error));
      // A broken document constraint: refused (strict), or noted and served (warn). True when refused.
      let noted: Violation[] | null = null;
      const broken = (part: RequestPart, body: ErrorBody): boolean => {
        if (!serveBroken) return (send(reply, 400, body), true);
        const to = {
          reply,
          call: `${op.method} ${req.url.split('?')[0]}`,
          correlationId: req.headers['im-correlationid'],
          log: reportViolation,
        };
        noted = noteViolations(noted, part, body, to);
        return false;
      };
      const faults = headerRules(req);
      if (faults) {
        if (faults.missing && !leniency('missing-required-header') && broken('header', missingHeadersBody(faults.missing))) return;
        if (faults.invalid && !leniency('header-beyond-constraints') && broken('header', faults.invalid)) return;
      }
      const q = missingQuery(req.query as Record<string, unknown>, conflict && !strictDocument() ? lenientQuery : op);
      if (q && broken('query', missingQueryBody(q))) return;
      if (op.jsonBody) {
        const ct = req.headers['content-type'];
        if (ct !== undefined && !ct.startsWith('application/json')) return void send(reply, 415, errorOf('jsonRequired'));
        const invalid = req.validationError as (Error & { validation?: BodyError[] }) | undefined;
        if (invalid && !(op.webhook && leniency('invalid-webhook-event')) && broken('body', invalidBodyOf(invalid.validation ?? [])))
          return;
      }
      if (op.webhook && !leniency('wrong-webhook-signature')) {
        const bad = signatureRefusal(req.headers['x-hub-signature'], req.body, webhookSecretOf(ctx.apps, auth?.caller?.clientId));
        if (bad) return void send(reply, 401, bad);
      }
      done();
    };

    /** The handler, synchronous on purpose: no promise per request on the hot path. */
    const handler = (req: FastifyRequest, reply: FastifyReply): FastifyReply => {
      const params = req.params as Record<string, string>;
      const query = req.query as Query;
      const body = (req.body ?? {}) as Record<string, unknown>;
      const outcome: Outcome = businessHandler
        ? businessHandler({
            params,
            query,
            body,
            nowMs: clock.now(),
            state: ctx.state,
            receiveEvent: op.webhook ? (event) => receiveEvent(req, op, env, event) : noEvents,
          })
        : vendorCall(ctx.state, op.id, params);
      if ('error' in outcome) return send(reply, statusOf(outcome.error), errorOf(outcome.error, outcome));
      const override = opts.responseBody?.(op.id, { params, query: query as Record<string, string>, body });
      reply.code(outcome.status);
      if (override !== undefined) return reply.send(override);
      if ('json' in outcome) return reply.type(JSON_TYPE).send(outcome.json);
      if (outcome.immutable) return reply.type(JSON_TYPE).send(serialised(outcome.body as object));
      return reply.send(outcome.body);
    };

    return {
      ...(op.requestSchema ? { schema: { body: { $ref: op.requestSchema } }, attachValidation: true } : {}),
      onRequest,
      ...(op.jsonBody || conflict ? { preValidation } : {}),
      preHandler,
      handler,
    };
  }

  const served = new Map<string, Set<string>>();
  for (const env of ENVIRONMENTS) {
    for (const op of ctx.operations) {
      const url = toFastifyPath(`${familyBase(op.family, env)}${op.path}`);
      if (!served.has(url)) served.set(url, new Set());
      (served.get(url) as Set<string>).add(op.method);
      app.route({ method: op.method, url, ...businessRoute(env, op) });
    }
  }
  // Known paths answer 405 to the methods they do not serve.
  for (const [url, methods] of served) {
    const allowed = [...methods].join(', ');
    for (const m of ALL_METHODS) {
      if (!methods.has(m)) app.route({ method: m, url, handler: (req, reply) => helpers.methodNotAllowed(req, reply, allowed) });
    }
  }

  function receiveEvent(req: FastifyRequest, op: Operation, env: EnvironmentName, ev: Record<string, unknown>): void {
    const caller = req.mockAuth?.caller;
    const eventId = typeof ev.eventId === 'string' && ev.eventId ? ev.eventId : `EVT-${Date.now().toString(36)}`;
    ctx.outbox.receive({ operationId: op.id, environment: env, clientId: caller?.clientId ?? null, event: ev, receivedAtMs: clock.now() });
    const target = req.headers.targeturl;
    if (typeof target === 'string' && target) ctx.outbox.push(target, eventId, ev, webhookSecretOf(ctx.apps, caller?.clientId));
  }

  app.setNotFoundHandler((req, reply) => helpers.notFound(req, reply));
  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return send(reply, 413, errorOf('tooLarge'));
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return send(reply, 415, errorOf('jsonRequired'));
    if (status === 400) return send(reply, 400, errorOf('malformedJson'));
    if (status < 500) return send(reply, status, { errors: [{ field: null, message: err.message }] });
    req.log.error(err);
    return send(reply, 500, errorOf('internal'));
  });

  if (opts.control) registerControlRoutes(app, ctx);
  app.addHook('onClose', async () => ctx.outbox.close());
  return app;
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

/** Generic vendor responses: the spec shows no vendor payloads. */
function vendorCall(state: MockState, operationId: string, params: Record<string, string>): Outcome {
  const ids = Object.values(params);
  const items = ids.length
    ? [{ id: ids[0] }]
    : [...state.orders.values()].slice(0, 3).map((o) => ({ orderNumber: o.ingramOrderNumber, status: o.orderStatus }));
  return { status: 200, body: { operation: operationId, items } };
}

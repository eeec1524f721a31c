/**
 * The embedded mock of the Distributor Commerce API. `buildMockApp` builds the Fastify app
 * (tests use `app.inject()`); `startMock` in server.ts listens on 127.0.0.1.
 *
 * A business call runs along Fastify's lifecycle:
 *   onRequest   disabled routes (drift), caller identified, limiter decision (rate-limit.ts), 429
 *   preHandler  authentication (auth.ts), required headers and query parameters, Content-Type,
 *               the body checked against the published request schema (route schema, attachValidation)
 *   handler     the operation's handler (handlers.ts) on the mock's state (resources.ts)
 *   onSend      X-RateLimit headers from the decision and the final status
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import {
  DEFAULT_VENDOR_OPERATIONS,
  DEFAULT_WINDOW_MS,
  ENVIRONMENTS,
  familyBase,
  GUIDANCE_TOKEN_LIFETIME_S,
  isOperationId,
  limitFor,
  operationsFor,
  SAMPLE_EXPIRES_IN_S,
  type EnvironmentName,
  type Operation,
  type VendorOperationSpec,
} from '../catalogue';
import { DEFAULT_SEED } from '../fixtures';
import { createAjv } from '../clients/ajv';
import type { ValidateFunction } from 'ajv';
import { missingHeadersBody, missingQuery, TokenStore, type AuthResult } from './auth';
import { compileHeaderRules } from './header-rules';
import { DOCUMENT_CONFLICTS, requiredQueryOf } from './document-conflicts';
import { SwitchableClock, systemClock, type Clock } from './clock';
import { DEFAULT_APPS, type MockApp, type MockConfig, type MockContext } from './context';
import { registerControlRoutes } from './control';
import { parseDrift } from './drift';
import { entryOf, errorOf, statusOf, type ErrorBody } from './errors';
import { HANDLERS, type Outcome } from './handlers';
import { FixedWindowLimiter, type Limiter } from './limiter';
import { LimiterSet, type HeaderFamily, type LimiterSetOptions, type PerOperation } from './limiter-algorithms';
import { RateLimits } from './rate-limit';
import { MockState, type Query } from './resources';
import { registerTokenRoutes, type RouteHelpers } from './token-routes';
import { signatureRefusal, webhookSecretOf, WebhookOutbox } from './webhooks';
import { holdTickShape } from './tick-shape';
import { noteViolations, type RequestMode, type RequestPart, type Violation } from './request-violations';

export type { MockApp, MockConfig } from './context';
export { DEFAULT_APPS } from './context';

export type ResponseBodyHook = (
  operationId: string,
  ctx: { params: Record<string, string>; query: Record<string, string>; body: unknown },
) => unknown | undefined;

export interface MockOptions {
  /** Listening port for startMock; 0 (default) picks a free one. */
  port?: number;
  /** Rate-limit fixed window in ms. Default 60000 (the spec's minute); at least 200. */
  windowMs?: number;
  /** Faker seed of the fixtures. Default 1. */
  seed?: number;
  /** Apps that may obtain tokens. Default DEFAULT_APPS. */
  apps?: readonly MockApp[];
  /** Per-operation limit overrides by operation id; key `token` for the token endpoints. */
  limits?: Readonly<Record<string, number>>;
  /** X-RateLimit-Reset as the epoch second of the window end (default) or seconds until it. */
  resetUnit?: 'epoch' | 'seconds';
  /**
   * Token request by GET with query parameters (how the distributor's own clients ask): 'accept'
   * (default) or 'reject' with 405 (the seed's documented way is the form POST).
   */
  tokenGet?: 'reject' | 'accept';
  /** expires_in reported in token responses. Default 2592000 (the spec's sample). */
  expiresInS?: number;
  /** Real token validity in ms. Default 24 h (the spec's guidance). */
  tokenValidityMs?: number;
  /** Clock of token expiry and rate-limit windows. Default the system clock. */
  clock?: Clock;
  /** The limiter (a decision per key and limit). Default a fixed window of `windowMs` on the clock. */
  limiter?: Limiter;
  /**
   * Without `limiter`: the rate-limit algorithms on the mock's clock (fixed, sliding-log,
   * sliding-counter, token-bucket, leaky-bucket), by default and per operation id, and whether a
   * refused call consumes quota. Default a fixed window for every operation.
   */
  algorithms?: LimiterSetOptions;
  /**
   * Rate-limit headers: 'x-ratelimit' (default), 'ietf' (RateLimit, RateLimit-Policy, Retry-After) or 'none',
   * for every operation or per operation (a gateway in front of some routes only).
   */
  headers?: HeaderFamily | PerOperation<HeaderFamily>;
  /** Status of a refused call (default 429); another one comes with a plain HTML body, as from nginx's limit_req (503). */
  refusalStatus?: number;
  /** Serve the /__mock control API. Default false. */
  control?: boolean;
  /** Drift mode ids (mock/drift.ts). Default none. */
  drift?: readonly string[];
  /** Vendor operations served under /vendors/v1. Default the catalogue's list. */
  vendorOperations?: readonly VendorOperationSpec[];
  /** Largest accepted request body in bytes (413 beyond). Default 1 MiB. */
  bodyLimitBytes?: number;
  /** Response bodies from another source (an OpenAPI document); undefined falls back to fixtures. */
  responseBody?: ResponseBodyHook;
  /** Fastify request logging. Default false (the benchmark measures the hot path). */
  logger?: boolean;
  /**
   * Follow the published document alone where the distributor's generated client disagrees with it
   * (mock/document-conflicts.ts). Default false: both forms accepted, each client form reported.
   */
  strictDocument?: boolean;
  /** Told of every client form accepted against the document. Default the Fastify logger (warn). */
  onDocumentConflict?: (message: string) => void;
  /** Let webhook pushes go to non-loopback targets. Default false: loopback only. */
  allowRemoteWebhookTargets?: boolean;
  /**
   * A request that breaks a document constraint (header, query parameter, body schema): 'strict' (default)
   * refuses it with 400; 'warn' serves it and reports each violation (mock/request-violations.ts).
   */
  requests?: RequestMode;
  /** Told one line per violation served in 'warn' mode. Default the Fastify logger (warn; silent unless `logger`); `npm run mock` prints them. */
  onRequestViolation?: (line: string) => void;
}

export const DEFAULT_BODY_LIMIT = 1024 * 1024;
export const MIN_WINDOW_MS = 200;

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
  const windowMs = opts.windowMs ?? DEFAULT_WINDOW_MS;
  if (!Number.isFinite(windowMs) || windowMs < MIN_WINDOW_MS) {
    throw new Error(`windowMs must be a number >= ${MIN_WINDOW_MS} ms, received ${String(opts.windowMs)}`);
  }
  const config: MockConfig = {
    windowMs,
    resetUnit: opts.resetUnit ?? 'epoch',
    tokenGet: opts.tokenGet ?? 'accept',
    expiresInS: opts.expiresInS ?? SAMPLE_EXPIRES_IN_S,
    tokenValidityMs: opts.tokenValidityMs ?? GUIDANCE_TOKEN_LIFETIME_S * 1000,
    drift: new Set(parseDrift(opts.drift ?? [])),
    limits: { ...(opts.limits ?? {}) },
  };
  const clock = new SwitchableClock(opts.clock ?? systemClock);
  const limiter =
    opts.limiter ?? (opts.algorithms ? new LimiterSet(clock, windowMs, opts.algorithms) : new FixedWindowLimiter(clock, windowMs));
  // A conforming mock (no drift mode on) answers every drift question without a lookup: the hot path asks several per request.
  const drift = (id: string): boolean => config.drift.size !== 0 && config.drift.has(id);
  const ctx: MockContext = {
    config,
    clock,
    limiter,
    rate: new RateLimits(limiter, clock, () => config, opts.headers, opts.refusalStatus),
    state: new MockState(opts.seed ?? DEFAULT_SEED),
    tokens: new TokenStore(clock),
    apps: new Map((opts.apps ?? DEFAULT_APPS).map((a) => [a.clientId, a])),
    outbox: new WebhookOutbox({ allowRemote: opts.allowRemoteWebhookTargets ?? false }),
    operations: operationsFor({ vendorOperations: opts.vendorOperations ?? DEFAULT_VENDOR_OPERATIONS }),
    drift,
    limitOf: (op: Operation): number => {
      const l = limitFor(op, config.limits);
      return drift('limits.get-61') && op.method === 'GET' && config.limits[op.id] === undefined ? 61 : l;
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

  const send = (reply: FastifyReply, status: number, body: ErrorBody): FastifyReply => reply.code(status).send(body);
  const disabled = (env: EnvironmentName, version: string | null): boolean =>
    (env === 'sandbox' && drift('routing.no-sandbox')) || (version === 'v6.1' && drift('routing.v61-missing'));
  const helpers: RouteHelpers = {
    disabled,
    notFound: (_req, reply) => send(reply, 404, errorOf('noRoute')),
    methodNotAllowed: (_req, reply, allowed) => {
      reply.header('Allow', allowed);
      return send(reply, 405, errorOf('methodNotAllowed', { message: `Method not allowed; allowed: ${allowed}` }));
    },
  };

  registerTokenRoutes(app, ctx, helpers);
  const strictDocument = (): boolean => opts.strictDocument === true || drift('finding.document-strict');
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
    /** Limiter key by caller (per app and operation unless a drift mode shares the counters). */
    const keys = new Map<string, string>();
    const limiterKey = (who: string): string => {
      if (drift('limits.shared-across-operations')) return who;
      if (drift('limits.shared-across-apps')) return opKey;
      let key = keys.get(who);
      if (key === undefined) keys.set(who, (key = `${who}|${opKey}`));
      return key;
    };

    /** onRequest: disabled routes (drift), the caller identified, the limiter's decision, 429. */
    const onRequest = (req: FastifyRequest, reply: FastifyReply, done: () => void): void => {
      if (disabled(env, op.version)) return void helpers.notFound(req, reply);
      const auth = ctx.tokens.authenticate(req, op.family, drift);
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
        if (faults.missing && !drift('finding.missing-header-accepted') && broken('header', missingHeadersBody(faults.missing))) return;
        if (faults.invalid && !drift('finding.header-constraint-ignored') && broken('header', faults.invalid)) return;
      }
      const q = missingQuery(req.query as Record<string, unknown>, conflict && !strictDocument() ? lenientQuery : op);
      if (q && broken('query', missingQueryBody(q))) return;
      if (op.jsonBody) {
        const ct = req.headers['content-type'];
        if (ct !== undefined && !ct.startsWith('application/json')) return void send(reply, 415, errorOf('jsonRequired'));
        const invalid = req.validationError as (Error & { validation?: BodyError[] }) | undefined;
        if (invalid && !(op.webhook && drift('webhooks.invalid-accepted')) && broken('body', invalidBodyOf(invalid.validation ?? [])))
          return;
      }
      if (op.webhook && !drift('finding.webhook-signature-ignored')) {
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
            drift,
            receiveEvent: op.webhook ? (event) => receiveEvent(req, op, env, event) : noEvents,
          })
        : vendorCall(ctx.state, op.id, params);
      if ('error' in outcome) return send(reply, statusOf(outcome.error), errorOf(outcome.error, outcome));
      const override = opts.responseBody?.(op.id, { params, query: query as Record<string, string>, body });
      reply.code(outcome.status);
      if (override !== undefined) return sendBody(reply, override);
      if ('json' in outcome) return reply.type(drift('routing.non-json-content-type') ? 'text/plain' : JSON_TYPE).send(outcome.json);
      if (outcome.immutable && !drift('routing.non-json-content-type'))
        return reply.type(JSON_TYPE).send(serialised(outcome.body as object));
      return sendBody(reply, outcome.body);
    };

    return {
      ...(op.requestSchema ? { schema: { body: { $ref: op.requestSchema } }, attachValidation: true } : {}),
      onRequest,
      ...(op.jsonBody || conflict ? { preValidation } : {}),
      preHandler,
      handler,
    };
  }

  /** A body as JSON, or as text with the drift mode that breaks the JSON content type. */
  const sendBody = (reply: FastifyReply, body: unknown): FastifyReply =>
    drift('routing.non-json-content-type') ? reply.type('text/plain').send(JSON.stringify(body)) : reply.send(body);

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

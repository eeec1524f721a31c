/**
 * The embedded mock of the Distributor Commerce API. `buildMockApp` builds the Fastify app
 * (tests use `app.inject()`); `startMock` in server.ts listens on 127.0.0.1.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import { randomBytes } from 'node:crypto';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import {
  allSchemas,
  DEFAULT_VENDOR_OPERATIONS,
  ENVIRONMENTS,
  environmentRoot,
  familyBase,
  limitFor,
  resellerOperations,
  tokenEndpoints,
  TOKEN_LIMIT,
  DEFAULT_WINDOW_MS,
  SAMPLE_EXPIRES_IN_S,
  GUIDANCE_TOKEN_LIFETIME_S,
  vendorOperations,
  type EnvironmentName,
  type Family,
  type Operation,
  type VendorOperationSpec,
} from '../catalogue';
import { DEFAULT_SEED } from '../fixtures';
import { SwitchableClock, systemClock, type Clock } from './clock';
import { parseDrift } from './drift';
import { ERRORS, errorBody, type ErrorBody } from './errors';
import type { Decision } from './limiter';
import { LimiterSet, rateLimitHeaders, type HeaderFamily, type LimiterAlgorithm } from './limiter-algorithms';
import { MockState } from './resources';
import { WebhookOutbox } from './webhooks';

export interface MockApp {
  clientId: string;
  clientSecret: string;
  family: Family;
  /** Secret used to sign pushed webhook events; default `<clientId>-webhook-secret`. */
  webhookSecret?: string;
}

/** Public demo credentials of the mock (not secrets of any real deployment). */
export const DEFAULT_APPS: readonly MockApp[] = [
  { clientId: 'demo-reseller', clientSecret: 'demo-reseller-secret', family: 'reseller' },
  { clientId: 'demo-reseller-b', clientSecret: 'demo-reseller-b-secret', family: 'reseller' },
  { clientId: 'demo-vendor', clientSecret: 'demo-vendor-secret', family: 'vendor' },
];

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
  /** Token request by GET with query parameters: 'reject' with 405 (default) or 'accept'. */
  tokenGet?: 'reject' | 'accept';
  /** expires_in reported in token responses. Default 2592000 (the spec's sample). */
  expiresInS?: number;
  /** Real token validity in ms. Default 24 h (the spec's guidance). */
  tokenValidityMs?: number;
  /** Clock of token expiry and rate-limit windows. Default the system clock. */
  clock?: Clock;
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
  /** Let webhook pushes go to non-loopback targets. Default false: loopback only. */
  allowRemoteWebhookTargets?: boolean;
  /** Rate-limit algorithm of every operation (default 'fixed'), and per operation id. */
  limiter?: { default?: LimiterAlgorithm; byOperation?: Record<string, LimiterAlgorithm> };
  /** A refused call consumes quota too. Default false. */
  countRefused?: boolean;
  /** Rate-limit header family: 'x-ratelimit' (default), 'ietf' (RateLimit, RateLimit-Policy, Retry-After) or 'none'. */
  headers?: HeaderFamily;
}

export const DEFAULT_BODY_LIMIT = 1024 * 1024;
export const MIN_WINDOW_MS = 200;

interface TokenRecord {
  clientId: string;
  family: Family;
  expiresAtMs: number;
}

interface Caller {
  clientId: string | null;
  family: Family | null;
}

const HDR_LIMIT = 'X-RateLimit-Limit';
const HDR_REMAINING = 'X-RateLimit-Remaining';
const HDR_RESET = 'X-RateLimit-Reset';

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

const toFastifyPath = (p: string): string => p.replace(/\{([^}]+)\}/g, ':$1');
const ALL_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

/** Mutable settings that the control API may change at run time. */
export interface MockConfig {
  windowMs: number;
  resetUnit: 'epoch' | 'seconds';
  tokenGet: 'reject' | 'accept';
  expiresInS: number;
  tokenValidityMs: number;
  drift: Set<string>;
  limits: Record<string, number>;
}

export async function buildMockApp(opts: MockOptions = {}): Promise<FastifyInstance> {
  const windowMs = opts.windowMs ?? DEFAULT_WINDOW_MS;
  if (!Number.isFinite(windowMs) || windowMs < MIN_WINDOW_MS) {
    throw new Error(`windowMs must be a number >= ${MIN_WINDOW_MS} ms, received ${String(opts.windowMs)}`);
  }
  const config: MockConfig = {
    windowMs,
    resetUnit: opts.resetUnit ?? 'epoch',
    tokenGet: opts.tokenGet ?? 'reject',
    expiresInS: opts.expiresInS ?? SAMPLE_EXPIRES_IN_S,
    tokenValidityMs: opts.tokenValidityMs ?? GUIDANCE_TOKEN_LIFETIME_S * 1000,
    drift: new Set(parseDrift(opts.drift ?? [])),
    limits: { ...(opts.limits ?? {}) },
  };
  const clock = new SwitchableClock(opts.clock ?? systemClock);
  const limiter = new LimiterSet(clock, windowMs, { ...opts.limiter, countRefused: opts.countRefused ?? false });
  const headerFamily: HeaderFamily = opts.headers ?? 'x-ratelimit';
  const state = new MockState(opts.seed ?? DEFAULT_SEED);
  const apps = new Map((opts.apps ?? DEFAULT_APPS).map((a) => [a.clientId, a]));
  const tokens = new Map<string, TokenRecord>();
  const outbox = new WebhookOutbox({ allowRemote: opts.allowRemoteWebhookTargets ?? false });
  const vendorOps = vendorOperations(opts.vendorOperations ?? DEFAULT_VENDOR_OPERATIONS);
  const operations: Operation[] = [...resellerOperations, ...vendorOps];

  const ajv = new Ajv({ strict: true, strictTypes: false, allErrors: false });
  (addFormatsModule as unknown as (a: Ajv) => void)(ajv);
  for (const s of allSchemas) ajv.addSchema(s);
  const requestValidators = new Map<string, ValidateFunction>();
  for (const op of operations) {
    if (op.requestSchema) requestValidators.set(op.id, ajv.getSchema(op.requestSchema) as ValidateFunction);
  }

  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: opts.bodyLimitBytes ?? DEFAULT_BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    return503OnClosing: false,
  });
  await app.register(formbody, { bodyLimit: opts.bodyLimitBytes ?? DEFAULT_BODY_LIMIT });

  const drift = (id: string): boolean => config.drift.has(id);
  const limitOf = (op: Operation): number => {
    const l = limitFor(op, config.limits);
    return drift('limits.get-61') && op.method === 'GET' && config.limits[op.id] === undefined ? 61 : l;
  };

  /** Writes the three headers for a decision, applying the header drift modes. */
  function setRateLimitHeaders(reply: FastifyReply, d: Decision, status: number, isToken: boolean): void {
    if (headerFamily !== 'x-ratelimit') {
      reply.headers(rateLimitHeaders(d, headerFamily, { nowMs: clock.now(), status, windowMs, resetUnit: config.resetUnit }));
      return;
    }
    // Hot path of the conforming mock: no drift, epoch reset.
    if (config.drift.size === 0 && config.resetUnit === 'epoch') {
      reply.header(HDR_LIMIT, String(d.limit));
      reply.header(HDR_REMAINING, status === 429 ? '0' : String(d.remaining));
      reply.header(HDR_RESET, String(Math.ceil(d.windowEndMs / 1000)));
      return;
    }
    if (isToken && drift('token.no-ratelimit-headers')) return;
    if (status === 429 && drift('429.no-headers')) return;
    if (status >= 400 && status < 500 && status !== 429 && drift('headers.all-missing-4xx')) return;
    const now = clock.now();
    let limit = d.limit;
    let remaining = d.remaining;
    if (drift('limits.header-differs')) {
      limit += 5;
      remaining += 5;
    }
    if (d.allowed && drift('headers.remaining-not-decreasing')) remaining = limit - 1;
    if (d.allowed && drift('headers.remaining-rising')) remaining = limit - d.remaining;
    if (status === 429) remaining = drift('429.remaining-positive') ? 1 : 0;
    let reset: string;
    if (drift('headers.reset-in-past')) reset = String(Math.floor(now / 1000) - 30);
    else if (drift('headers.reset-not-integer')) reset = (d.windowEndMs / 1000 + 0.25).toFixed(3);
    else if (config.resetUnit === 'seconds' || drift('finding.reset-seconds'))
      reset = String(Math.max(0, Math.ceil((d.windowEndMs - now) / 1000)));
    else reset = String(Math.ceil(d.windowEndMs / 1000));
    if (!(status < 300 && drift('headers.limit-missing-2xx'))) reply.header(HDR_LIMIT, String(limit));
    reply.header(HDR_REMAINING, String(remaining));
    reply.header(HDR_RESET, reset);
  }

  function sendError(reply: FastifyReply, status: number, body: ErrorBody): FastifyReply {
    return reply.code(status).send(body);
  }

  function sendTooMany(reply: FastifyReply): FastifyReply {
    reply.code(429);
    if (drift('429.non-json')) return reply.type('text/plain').send('Too many requests');
    if (drift('429.no-errors')) return reply.send({ message: 'Too many requests' });
    if (drift('429.message-missing')) return reply.send({ errors: [{ field: null }] });
    if (drift('429.field-missing')) return reply.send({ errors: [{ message: 'Too many requests' }] });
    return reply.send(ERRORS.tooManyRequests());
  }

  const ipKey = (req: FastifyRequest): string => `ip:${req.ip}`;

  /** Identifies the caller of a business call from its bearer token. */
  function authenticate(req: FastifyRequest, family: Family): { caller?: Caller; error?: ErrorBody } {
    const h = req.headers.authorization;
    // The common form first, without a regular expression; other spacing and case next.
    const m = h && h.startsWith('Bearer ') && h.indexOf(' ', 7) === -1 ? [h, h.slice(7)] : h ? /^Bearer\s+(\S+)\s*$/i.exec(h) : null;
    if (!m || !m[1]) {
      if (drift('auth.no-token-accepted')) return { caller: { clientId: null, family } };
      return { error: ERRORS.missingToken() };
    }
    const rec = tokens.get(m[1] as string);
    if (!rec) {
      if (drift('auth.garbage-token-accepted')) return { caller: { clientId: null, family } };
      return { error: ERRORS.invalidToken() };
    }
    if (rec.expiresAtMs <= clock.now() && !drift('auth.expired-accepted')) return { error: ERRORS.invalidToken() };
    if (rec.family !== family && !drift('auth.other-family-accepted')) return { error: ERRORS.wrongFamily() };
    return { caller: { clientId: rec.clientId, family: rec.family } };
  }

  function bucketKey(clientId: string | null, req: FastifyRequest, opKey: string): string {
    const who = clientId ?? ipKey(req);
    if (drift('limits.shared-across-operations')) return who;
    if (drift('limits.shared-across-apps')) return opKey;
    return `${who}|${opKey}`;
  }

  function consume(key: string, limit: number, operationId?: string): Decision {
    return limiter.consume(
      key,
      limit,
      { extra: drift('limits.extra-call') ? 1 : 0, lateRefillMs: drift('limits.late-refill') ? 1500 : 0 },
      operationId,
    );
  }

  function isDisabledRoute(env: EnvironmentName, op: Operation | null): boolean {
    if (env === 'sandbox' && drift('routing.no-sandbox')) return true;
    return op !== null && op.version === 'v6.1' && drift('routing.v61-missing');
  }

  // ---- Token endpoints ------------------------------------------------------------------
  function issueToken(family: Family, fields: Record<string, unknown>, reply: FastifyReply, req: FastifyRequest): FastifyReply {
    const clientId = typeof fields.client_id === 'string' ? fields.client_id : undefined;
    const d = consume(`token|${family}|${clientId ?? ipKey(req)}`, config.limits.token ?? TOKEN_LIMIT);
    const status = (s: number) => (setRateLimitHeaders(reply, d, s, true), s);
    if (!d.allowed) return (status(429), sendTooMany(reply));
    for (const f of ['grant_type', 'client_id', 'client_secret']) {
      if (typeof fields[f] !== 'string' || fields[f] === '') return sendError(reply, status(400), ERRORS.missingField(f));
    }
    if (fields.grant_type !== 'client_credentials') return sendError(reply, status(400), ERRORS.unsupportedGrant());
    const app = apps.get(clientId as string);
    const secretOk = app !== undefined && (app.clientSecret === fields.client_secret || drift('token.wrong-secret-accepted'));
    if (!app || !secretOk || app.family !== family) return sendError(reply, status(401), ERRORS.invalidClient());
    const accessToken = randomBytes(24).toString('base64url');
    tokens.set(accessToken, { clientId: app.clientId, family, expiresAtMs: clock.now() + config.tokenValidityMs });
    const expiresIn = drift('finding.expires-in-long') ? 315_360_000 : config.expiresInS;
    const body: Record<string, unknown> = {
      access_token: accessToken,
      token_type: drift('token.type-not-bearer') ? 'MAC' : 'Bearer',
      expires_in: drift('token.expires-in-string') ? String(expiresIn) : expiresIn,
    };
    if (drift('token.access-token-missing')) delete body.access_token;
    status(200);
    return reply.code(200).send(body);
  }

  for (const env of ENVIRONMENTS) {
    for (const family of ['reseller', 'vendor'] as const) {
      const url = `${environmentRoot[env]}${tokenEndpoints[family].path}`;
      app.post(url, async (req, reply) => {
        if (isDisabledRoute(env, null)) return notFound(req, reply);
        const ct = req.headers['content-type'] ?? '';
        const isForm = ct.startsWith('application/x-www-form-urlencoded');
        const isJson = ct.startsWith('application/json');
        if (!isForm && !(isJson && drift('token.json-body-accepted'))) {
          const d = consume(`token|${family}|${ipKey(req)}`, config.limits.token ?? TOKEN_LIMIT);
          setRateLimitHeaders(reply, d, d.allowed ? 415 : 429, true);
          return d.allowed ? sendError(reply, 415, ERRORS.formRequired()) : sendTooMany(reply);
        }
        return issueToken(family, (req.body ?? {}) as Record<string, unknown>, reply, req);
      });
      app.get(url, async (req, reply) => {
        if (isDisabledRoute(env, null)) return notFound(req, reply);
        if (config.tokenGet === 'accept' || drift('finding.token-get-accepted')) {
          return issueToken(family, req.query as Record<string, unknown>, reply, req);
        }
        return methodNotAllowed(req, reply, 'POST');
      });
      for (const m of ['PUT', 'DELETE', 'PATCH'] as const)
        app.route({ method: m, url, handler: (req, reply) => methodNotAllowed(req, reply, 'POST') });
    }
  }

  // ---- Business operations --------------------------------------------------------------
  const served = new Map<string, Set<string>>();
  for (const env of ENVIRONMENTS) {
    for (const op of operations) {
      const url = toFastifyPath(`${familyBase(op.family, env)}${op.path}`);
      const opKey = `${env}:${op.id}`;
      const validate = requestValidators.get(op.id);
      const limit = () => limitOf(op);
      if (!served.has(url)) served.set(url, new Set());
      (served.get(url) as Set<string>).add(op.method);
      app.route({
        method: op.method,
        url,
        // Synchronous on purpose: no promise per request on the hot path.
        handler: (req, reply) => {
          if (isDisabledRoute(env, op)) return notFound(req, reply);
          const auth = authenticate(req, op.family);
          const d = consume(bucketKey(auth.caller?.clientId ?? null, req, opKey), limit(), op.id);
          if (!d.allowed) {
            setRateLimitHeaders(reply, d, 429, false);
            return sendTooMany(reply);
          }
          if (auth.error) {
            setRateLimitHeaders(reply, d, 401, false);
            return sendError(reply, 401, auth.error);
          }
          if (op.jsonBody) {
            const ct = req.headers['content-type'] ?? '';
            if (!ct.startsWith('application/json')) {
              setRateLimitHeaders(reply, d, 415, false);
              return sendError(reply, 415, ERRORS.jsonRequired());
            }
            if (validate && !(op.webhook && drift('webhooks.invalid-accepted')) && !validate(req.body)) {
              const e = validate.errors?.[0];
              const field = e
                ? e.instancePath.replace(/^\//, '').replace(/\//g, '.') ||
                  (e.params as { missingProperty?: string }).missingProperty ||
                  null
                : null;
              setRateLimitHeaders(reply, d, 400, false);
              return sendError(
                reply,
                400,
                ERRORS.invalidBody(field, `Invalid request body: ${e?.instancePath || '/'} ${e?.message ?? ''}`.trim()),
              );
            }
          }
          const params = req.params as Record<string, string>;
          const query = req.query as Record<string, string>;
          let outcome;
          if (op.webhook) {
            const ev = (req.body ?? {}) as Record<string, unknown>;
            const eventId =
              typeof ev.eventId === 'string' && ev.eventId ? ev.eventId : `EVT-${randomBytes(6).toString('hex').toUpperCase()}`;
            const target = req.headers.targeturl;
            const appCfg = auth.caller?.clientId ? apps.get(auth.caller.clientId) : undefined;
            outbox.receive({
              operationId: op.id,
              environment: env,
              clientId: auth.caller?.clientId ?? null,
              event: ev,
              receivedAtMs: clock.now(),
            });
            if (typeof target === 'string' && target) {
              outbox.push(target, eventId, ev, appCfg?.webhookSecret ?? `${appCfg?.clientId ?? 'anonymous'}-webhook-secret`);
            }
            outcome = { status: 200, body: { received: true, eventId } };
          } else if (op.family === 'vendor') {
            outcome = state.vendorCall(op.id, params);
          } else {
            if (op.id === 'quotes.validate' && !query.quoteNumber) {
              setRateLimitHeaders(reply, d, 400, false);
              return sendError(reply, 400, ERRORS.missingField('quoteNumber'));
            }
            outcome = state.call(op.id, { params, query, body: req.body, nowMs: clock.now() });
          }
          if (outcome.notFound !== undefined) {
            setRateLimitHeaders(reply, d, outcome.status, false);
            return sendError(
              reply,
              outcome.status,
              outcome.status === 404 ? ERRORS.notFound(outcome.notFound) : errorBody(outcome.notFound),
            );
          }
          const override = opts.responseBody?.(op.id, { params, query, body: req.body });
          const body = override === undefined ? outcome.body : override;
          setRateLimitHeaders(reply, d, outcome.status, false);
          reply.code(outcome.status);
          if (drift('routing.non-json-content-type')) return reply.type('text/plain').send(JSON.stringify(body));
          if (override === undefined && outcome.immutable) return reply.type(JSON_TYPE).send(serialised(body as object));
          return reply.send(body);
        },
      });
    }
  }
  // Known paths answer 405 to the methods they do not serve.
  for (const [url, methods] of served) {
    const allowed = [...methods].join(', ');
    for (const m of ALL_METHODS) {
      if (!methods.has(m)) app.route({ method: m, url, handler: (req, reply) => methodNotAllowed(req, reply, allowed) });
    }
  }

  function fallbackHeaders(req: FastifyRequest, reply: FastifyReply, status: number): void {
    const d = consume(`${ipKey(req)}|unrouted`, limitFor({ id: 'unrouted', method: 'GET' }, config.limits));
    setRateLimitHeaders(reply, d, status, false);
  }
  function notFound(req: FastifyRequest, reply: FastifyReply): FastifyReply {
    fallbackHeaders(req, reply, 404);
    return sendError(reply, 404, ERRORS.noRoute());
  }
  function methodNotAllowed(req: FastifyRequest, reply: FastifyReply, allowed: string): FastifyReply {
    fallbackHeaders(req, reply, 405);
    reply.header('Allow', allowed);
    return sendError(reply, 405, ERRORS.methodNotAllowed(allowed));
  }

  app.setNotFoundHandler((req, reply) => notFound(req, reply));
  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, req, reply) => {
    let status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    let body: ErrorBody;
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') body = ERRORS.tooLarge();
    else if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') body = ERRORS.jsonRequired();
    else if (status === 400) body = ERRORS.malformedJson();
    else if (status < 500) body = errorBody(err.message);
    else {
      req.log.error(err);
      status = 500;
      body = errorBody('Internal error of the mock');
    }
    fallbackHeaders(req, reply, status);
    return sendError(reply, status, body);
  });

  // ---- Control API ----------------------------------------------------------------------
  if (opts.control) {
    app.post('/__mock/reset', async () => {
      state.reset();
      limiter.reset();
      tokens.clear();
      outbox.clear();
      return { reset: true };
    });
    app.post('/__mock/clock', async (req, reply) => {
      const b = (req.body ?? {}) as { advanceMs?: unknown; nowMs?: unknown; system?: unknown };
      if (b.system === true) clock.useBase();
      else if (typeof b.nowMs === 'number') clock.setNow(b.nowMs);
      else if (typeof b.advanceMs === 'number') clock.advance(b.advanceMs);
      else return sendError(reply, 400, errorBody('expected {"advanceMs": n}, {"nowMs": n} or {"system": true}', 'advanceMs'));
      return { nowMs: clock.now() };
    });
    app.get('/__mock/limits', async () => {
      const out: Record<string, number> = { token: config.limits.token ?? TOKEN_LIMIT };
      for (const op of operations) out[op.id] = limitOf(op);
      return out;
    });
    app.put('/__mock/limits', async (req, reply) => {
      const b = (req.body ?? {}) as Record<string, unknown>;
      for (const [k, v] of Object.entries(b)) {
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 1)
          return sendError(reply, 400, errorBody(`limit of ${k} must be a positive integer`, k));
        config.limits[k] = v;
      }
      limiter.reset();
      return config.limits;
    });
    app.get('/__mock/webhooks', async () => ({ events: outbox.received, deliveries: outbox.deliveries }));
    app.get('/__mock/drift', async () => ({ modes: [...config.drift] }));
    app.put('/__mock/drift', async (req, reply) => {
      const b = (req.body ?? {}) as { modes?: unknown };
      if (!Array.isArray(b.modes)) return sendError(reply, 400, errorBody('expected {"modes": [ids]}', 'modes'));
      try {
        config.drift = new Set(parseDrift(b.modes as string[]));
      } catch (e) {
        return sendError(reply, 400, errorBody((e as Error).message, 'modes'));
      }
      limiter.reset();
      return { modes: [...config.drift] };
    });
    app.get('/__mock/config', async () => ({
      windowMs: config.windowMs,
      resetUnit: config.resetUnit,
      tokenGet: config.tokenGet,
      expiresInS: config.expiresInS,
      tokenValidityMs: config.tokenValidityMs,
      drift: [...config.drift],
      nowMs: clock.now(),
      operations: operations.map((o) => o.id),
    }));
  }

  app.addHook('onClose', async () => outbox.close());
  return app;
}

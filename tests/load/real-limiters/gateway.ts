/**
 * A gateway on 127.0.0.1 in front of the embedded mock whose routes are guarded by rate-limiting libraries
 * nobody here wrote, one limiter per operation as an API gateway configures them per route: express-rate-limit
 * (in an express app), @fastify/rate-limit (in a Fastify app), limiter's TokenBucket and rolling-rate-limiter's
 * InMemoryRateLimiter (in plain Node handlers). Every limiter is keyed by app (the Authorization header) and
 * endpoint (method and path), like the API's own per-app, per-endpoint limits, and refuses with 429 and the API's
 * JSON error body. Every other path (the token endpoints, the probe's warm-up) passes unlimited.
 *
 * The libraries keep their own clocks (Date.now, microtime): the mock's clock plays no part.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import fastifyRateLimit from '@fastify/rate-limit';
import { RateLimiter, TokenBucket } from 'limiter';
import { InMemoryRateLimiter } from 'rolling-rate-limiter';
import { Agent, createServer, request, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorOf } from '../../../mock/ground/errors';

/** How one operation's route is limited: a library, its configuration, and the path it guards. */
export type RouteLimiter =
  /** Fixed window per key from its first call (MemoryStore); `headers`: which of its header styles it sends. */
  | { library: 'express-rate-limit'; limit: number; windowMs: number; headers: 'legacy' | 'draft-6' | 'draft-7' | 'draft-8' | 'none' }
  /** Fixed window per key from its first call (LocalStore), x-ratelimit-* with the reset in seconds, Retry-After. */
  | { library: '@fastify/rate-limit'; max: number; timeWindowMs: number }
  /** Token bucket: `bucketSize` tokens, refilled continuously at tokensPerInterval per intervalMs; refusals cost nothing. */
  | { library: 'limiter'; bucketSize: number; tokensPerInterval: number; intervalMs: number }
  /** limiter's RateLimiter: a token bucket of tokensPerInterval, and at most tokensPerInterval per interval from its first call. */
  | { library: 'limiter RateLimiter'; tokensPerInterval: number; intervalMs: number }
  /**
   * Sliding log: at most maxInInterval calls in any intervalMs. `countsBlocked`: as its README uses it (`limit()`
   * alone), a blocked call is logged too; otherwise a call is logged only when `wouldLimit()` lets it through.
   */
  | { library: 'rolling-rate-limiter'; maxInInterval: number; intervalMs: number; countsBlocked: boolean };

export interface GatewayRoute {
  /** The path the route guards, as the probe calls it (environment base included), without query. */
  path: string;
  limiter: RouteLimiter;
}

export interface RunningGateway {
  url: string;
  close(): Promise<void>;
}

const TOO_MANY = JSON.stringify(errorOf('tooManyRequests'));
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer']);

/** The upstream's answer, read whole (the mock's bodies are small). */
interface Upstream {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** The key of a call: its app (Authorization) and its endpoint (method and path). */
export function keyOf(headers: IncomingHttpHeaders, method: string | undefined, url: string | undefined): string {
  return `${headers.authorization ?? '-'} ${method ?? 'GET'} ${(url ?? '/').split('?')[0]}`;
}

/** Sends a call on to the upstream (keep-alive) and reads its answer. */
function forward(agent: Agent, upstream: URL, req: IncomingMessage, body?: Buffer): Promise<Upstream> {
  return new Promise((resolve, reject) => {
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !HOP_BY_HOP.has(k) && k !== 'host'));
    const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const kept = Object.entries(res.headers).filter(([k, v]) => v !== undefined && !HOP_BY_HOP.has(k) && k !== 'content-length');
        resolve({ status: res.statusCode ?? 502, headers: Object.fromEntries(kept) as Upstream['headers'], body: Buffer.concat(chunks) });
      });
    });
    out.on('error', reject);
    if (body !== undefined) out.end(body);
    else req.pipe(out);
  });
}

/** Writes an upstream answer on a plain Node response, beside the headers a limiter set on it. */
function answer(res: ServerResponse, u: Upstream): void {
  for (const [k, v] of Object.entries(u.headers)) res.setHeader(k, v);
  res.setHeader('content-length', u.body.length);
  res.writeHead(u.status);
  res.end(u.body);
}

/** The gateway's own failure (the upstream unreachable): 502 with the reason. */
function fail(res: ServerResponse, e: Error): void {
  if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
  res.end(e.message);
}

function refuse(res: ServerResponse): void {
  res.writeHead(429, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(TOO_MANY) });
  res.end(TOO_MANY);
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** One express app holding every express-rate-limit route. */
function expressHandler(routes: GatewayRoute[], pass: (req: IncomingMessage, res: ServerResponse) => Promise<void>): Handler {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  for (const r of routes) {
    const l = r.limiter;
    if (l.library !== 'express-rate-limit') continue;
    app.all(
      r.path,
      rateLimit({
        windowMs: l.windowMs,
        limit: l.limit,
        legacyHeaders: l.headers === 'legacy',
        standardHeaders: l.headers === 'legacy' || l.headers === 'none' ? false : l.headers,
        keyGenerator: (req: Request) => keyOf(req.headers, req.method, req.originalUrl),
        handler: (_req: Request, res: Response) => void res.status(429).type('application/json').send(TOO_MANY),
      }),
    );
  }
  app.use((req: Request, res: Response, next: NextFunction) => void pass(req, res).catch(next));
  return app as unknown as Handler;
}

/** One Fastify app holding every @fastify/rate-limit route (its handler taken from serverFactory, never listening itself). */
async function fastifyHandler(routes: GatewayRoute[], agent: Agent, upstream: URL): Promise<{ handler: Handler; close(): Promise<void> }> {
  let handler: Handler | undefined;
  const app = fastify({
    serverFactory: (h) => {
      handler = h as Handler;
      return createServer(h);
    },
  });
  await app.register(fastifyRateLimit, {
    global: false,
    keyGenerator: (req: FastifyRequest) => keyOf(req.headers, req.method, req.url),
    // Thrown by the plugin: the error handler below answers with the API's body.
    errorResponseBuilder: (_req, context) => ({ statusCode: context.statusCode, message: 'Too many requests' }),
  });
  app.setErrorHandler((err: { statusCode?: number }, _req, reply) => {
    if (err.statusCode === 429) return reply.code(429).type('application/json; charset=utf-8').send(TOO_MANY);
    return reply.code(err.statusCode ?? 500).send(err);
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  for (const r of routes) {
    const l = r.limiter;
    if (l.library !== '@fastify/rate-limit') continue;
    app.route({
      method: ['GET', 'POST', 'PUT', 'DELETE'],
      url: r.path,
      config: { rateLimit: { max: l.max, timeWindow: l.timeWindowMs } },
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const u = await forward(agent, upstream, req.raw, (req.body as Buffer | undefined) ?? Buffer.alloc(0));
        return reply.code(u.status).headers(u.headers).send(u.body);
      },
    });
  }
  await app.ready();
  if (!handler) throw new Error('Fastify did not call its serverFactory');
  return { handler, close: () => app.close() };
}

/** A plain Node handler around a decision per key: limiter's TokenBucket or RateLimiter, or rolling-rate-limiter. */
function plainHandler(l: RouteLimiter, pass: (req: IncomingMessage, res: ServerResponse) => Promise<void>): Handler {
  let allow: (key: string) => Promise<boolean>;
  if (l.library === 'limiter') {
    const buckets = new Map<string, TokenBucket>();
    allow = async (key) => {
      let b = buckets.get(key);
      if (!b) {
        b = new TokenBucket({ bucketSize: l.bucketSize, tokensPerInterval: l.tokensPerInterval, interval: l.intervalMs });
        // A new bucket starts empty in this library; a client's first bucket is full (as its RateLimiter fills it).
        b.content = l.bucketSize;
        buckets.set(key, b);
      }
      return b.tryRemoveTokens(1);
    };
  } else if (l.library === 'limiter RateLimiter') {
    const limiters = new Map<string, RateLimiter>();
    allow = async (key) => {
      let r = limiters.get(key);
      if (!r)
        limiters.set(key, (r = new RateLimiter({ tokensPerInterval: l.tokensPerInterval, interval: l.intervalMs, fireImmediately: true })));
      return r.tryRemoveTokens(1);
    };
  } else if (l.library === 'rolling-rate-limiter') {
    const log = new InMemoryRateLimiter({ interval: l.intervalMs, maxInInterval: l.maxInInterval });
    // One decision at a time per key: between wouldLimit and limit no other call of the key may slip through.
    const queues = new Map<string, Promise<unknown>>();
    const decide = async (key: string) => {
      if (l.countsBlocked) return !(await log.limit(key));
      if (await log.wouldLimit(key)) return false;
      await log.limit(key);
      return true;
    };
    allow = (key) => {
      const next = (queues.get(key) ?? Promise.resolve()).then(() => decide(key));
      queues.set(
        key,
        next.catch(() => undefined),
      );
      return next;
    };
  } else throw new Error(`${l.library} is not a plain handler`);
  return (req, res) => {
    allow(keyOf(req.headers, req.method, req.url))
      .then((ok) => (ok ? pass(req, res) : refuse(res)))
      .catch((e: Error) => fail(res, e));
  };
}

/** Starts the gateway in front of `upstreamUrl` with a limiter per route (port 0: a free one). */
export async function startGateway(upstreamUrl: string, routes: GatewayRoute[], port = 0): Promise<RunningGateway> {
  const upstream = new URL(upstreamUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const pass = async (req: IncomingMessage, res: ServerResponse) => answer(res, await forward(agent, upstream, req));
  const byPath = new Map<string, Handler>();
  const viaExpress = expressHandler(routes, pass);
  const viaFastify = await fastifyHandler(routes, agent, upstream);
  for (const r of routes) {
    const lib = r.limiter.library;
    if (byPath.has(r.path)) throw new Error(`two limiters on ${r.path}`);
    byPath.set(
      r.path,
      lib === 'express-rate-limit' ? viaExpress : lib === '@fastify/rate-limit' ? viaFastify.handler : plainHandler(r.limiter, pass),
    );
  }
  const unlimited: Handler = (req, res) => void pass(req, res).catch((e: Error) => fail(res, e));
  const server: Server = createServer((req, res) => (byPath.get((req.url ?? '/').split('?')[0] as string) ?? unlimited)(req, res));
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await viaFastify.close();
      agent.destroy();
    },
  };
}

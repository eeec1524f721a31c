/**
 * The limiter's side of the mock's request lifecycle: one decision per request (taken in
 * onRequest for business routes, in the handler for token routes once the body names the app),
 * the 429 answer, and the X-RateLimit headers written in onSend from the decision and the final
 * status, with the header drift modes. Sits beside limiter.ts.
 *
 * What a route means to the limiter (its operation, its header family, the limiter's options) is
 * resolved once, when the route is registered (`RateLimits.route`); a request carries that object and
 * its decision, nothing it has to build.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RATE_LIMIT_HEADERS, TOO_MANY_REQUESTS_MESSAGE } from '../catalogue/rules';
import type { Clock } from './clock';
import { errorOf } from './errors';
import type { ConsumeOptions, Decision, Limiter } from './limiter';
import { rateLimitHeaders, type HeaderFamily, type PerOperation } from './limiter-algorithms';

// Lower case, as Fastify stores reply headers: it lower-cases every name it is given, which for these
// constants would be a new string per header and request.
const HDR_LIMIT = RATE_LIMIT_HEADERS.limit.toLowerCase();
const HDR_REMAINING = RATE_LIMIT_HEADERS.remaining.toLowerCase();
const HDR_RESET = RATE_LIMIT_HEADERS.reset.toLowerCase();

export interface RateLimitSettings {
  resetUnit: 'epoch' | 'seconds';
  windowMs: number;
  drift: ReadonlySet<string>;
  limits: Readonly<Record<string, number>>;
}

/** What the limiter knows of a route, resolved when the route is registered. */
export interface RateRoute {
  /** The operation decisions are taken for (the limiter's algorithm and the header family by operation). */
  readonly operationId?: string;
  /** Token endpoint responses (a drift mode drops their headers). */
  readonly token: boolean;
  /** No rate-limit headers at all (control API). */
  readonly none: boolean;
  /** The route's header family. */
  readonly family: HeaderFamily;
  /** The limiter's options without drift modes (one object per route, not one per request). */
  readonly options: ConsumeOptions;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The rate-limit side of the request's route (decorated by the mock; null on routes without one). */
    mockRoute: RateRoute | null;
    /** The limiter's decision for the request (null until one is taken). */
    mockDecision: Decision | null;
  }
}

export class RateLimits {
  constructor(
    private readonly limiter: Limiter,
    private readonly clock: Clock,
    private readonly settings: () => RateLimitSettings,
    /** Which rate-limit headers the mock sends, for all operations or per operation (the drift modes apply to x-ratelimit). */
    private readonly families: HeaderFamily | PerOperation<HeaderFamily> = 'x-ratelimit',
    /** The status of a refused call: 429, or another as gateways answer (503 is nginx limit_req's default), with an empty body. */
    private readonly refusalStatus = 429,
  ) {
    this.unrouted = this.route();
  }

  /** Responses of no route of ours (404). */
  private readonly unrouted: RateRoute;

  private familyOf(operationId: string | undefined): HeaderFamily {
    const f = this.families;
    if (typeof f === 'string') return f;
    return (operationId !== undefined ? f.byOperation[operationId] : undefined) ?? f.default ?? 'x-ratelimit';
  }

  private drift(id: string): boolean {
    return this.settings().drift.has(id);
  }

  /** The limiter's side of a route: an operation's, a token endpoint's or none at all (control API). */
  route(o: { operationId?: string; token?: boolean; none?: boolean } = {}): RateRoute {
    return {
      ...(o.operationId !== undefined ? { operationId: o.operationId } : {}),
      token: o.token ?? false,
      none: o.none ?? false,
      family: this.familyOf(o.operationId),
      options: o.operationId !== undefined ? { operationId: o.operationId } : {},
    };
  }

  /** Takes the decision for a request on a route and remembers it for the headers. */
  consume(req: FastifyRequest, route: RateRoute, key: string, limit: number): Decision {
    const drift = this.settings().drift;
    const options =
      drift.size === 0
        ? route.options
        : { ...route.options, extra: drift.has('limits.extra-call') ? 1 : 0, lateRefillMs: drift.has('limits.late-refill') ? 1500 : 0 };
    const d = this.limiter.consume(key, limit, options);
    req.mockRoute = route;
    req.mockDecision = d;
    return d;
  }

  /** The 429 answer, with the body drift modes. */
  tooMany(reply: FastifyReply): FastifyReply {
    if (this.refusalStatus !== 429)
      return reply.code(this.refusalStatus).type('text/html').send('<html><body>Service Temporarily Unavailable</body></html>');
    reply.code(429);
    if (this.drift('429.non-json')) return reply.type('text/plain').send(TOO_MANY_REQUESTS_MESSAGE);
    if (this.drift('429.no-errors')) return reply.send({ message: TOO_MANY_REQUESTS_MESSAGE });
    if (this.drift('429.message-missing')) return reply.send({ errors: [{ field: null }] });
    if (this.drift('429.field-missing')) return reply.send({ errors: [{ message: TOO_MANY_REQUESTS_MESSAGE }] });
    return reply.send(errorOf('tooManyRequests'));
  }

  /** onSend: writes the headers of the request's decision (a fallback bucket when none was taken). */
  writeHeaders(req: FastifyRequest, reply: FastifyReply): void {
    const route = req.mockRoute ?? this.unrouted;
    if (route.none) return;
    const d = req.mockDecision ?? this.limiter.consume(`ip:${req.ip}|unrouted`, this.settings().limits.unrouted ?? 60);
    this.setHeaders(reply, d, reply.statusCode, route.token, route.family);
  }

  private setHeaders(reply: FastifyReply, d: Decision, status: number, isToken: boolean, family: HeaderFamily): void {
    const { drift, resetUnit, windowMs } = this.settings();
    if (family !== 'x-ratelimit') {
      reply.headers(rateLimitHeaders(d, family, { nowMs: this.clock.now(), status, windowMs, resetUnit }));
      return;
    }
    // Hot path of the conforming mock: no drift, epoch reset.
    if (drift.size === 0 && resetUnit === 'epoch') {
      reply.header(HDR_LIMIT, String(d.limit));
      reply.header(HDR_REMAINING, status === 429 ? '0' : String(d.remaining));
      reply.header(HDR_RESET, String(Math.ceil(d.windowEndMs / 1000)));
      return;
    }
    const on = (id: string) => drift.has(id);
    if (isToken && on('token.no-ratelimit-headers')) return;
    if (status === 429 && on('429.no-headers')) return;
    if (status >= 400 && status < 500 && status !== 429 && on('headers.all-missing-4xx')) return;
    const now = this.clock.now();
    let limit = d.limit;
    let remaining = d.remaining;
    if (on('limits.header-differs')) {
      limit += 5;
      remaining += 5;
    }
    if (status === 429 && on('429.limit-differs')) limit += 1;
    if (d.allowed && on('headers.remaining-not-decreasing')) remaining = limit - 1;
    if (d.allowed && on('headers.remaining-rising')) remaining = limit - d.remaining;
    if (d.allowed && on('headers.remaining-step-two') && remaining >= 2 && remaining <= limit - 3) remaining -= 1;
    if (d.allowed && on('headers.remaining-after-zero')) remaining = Math.max(0, remaining - 1);
    if (status === 429) remaining = on('429.remaining-positive') ? 1 : 0;
    let reset: string;
    if (on('headers.reset-in-past')) reset = String(Math.floor(now / 1000) - 30);
    else if (on('headers.reset-not-integer')) reset = (d.windowEndMs / 1000 + 0.25).toFixed(3);
    else if (resetUnit === 'seconds' || on('finding.reset-seconds')) reset = String(Math.max(0, Math.ceil((d.windowEndMs - now) / 1000)));
    else reset = String(Math.ceil(d.windowEndMs / 1000));
    if (!(status < 300 && on('headers.limit-missing-2xx'))) reply.header(HDR_LIMIT, String(limit));
    reply.header(HDR_REMAINING, String(remaining));
    reply.header(HDR_RESET, reset);
  }
}

/**
 * The limiter's side of the mock's request lifecycle: one decision per request (taken in
 * onRequest for business routes, in the handler for token routes once the body names the app),
 * the 429 answer, and the X-RateLimit headers written in onSend from the decision and the final
 * status. Sits beside limiter.ts.
 *
 * What a route means to the limiter (its operation, its header style, the limiter's options) is
 * resolved once, when the route is registered (`RateLimits.route`); a request carries that object and
 * its decision, nothing it has to build.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RATE_LIMIT_HEADERS, resetHeaderValue } from '../../catalogue/rules';
import type { Clock } from '../ground/clock';
import { errorOf } from '../ground/errors';
import type { Leniency } from '../ground/mock-layer';
import type { ConsumeOptions, Decision, Limiter } from './limiter';
import type { PerOperation } from './per-operation-specs';
import { decisionHeaders, type HeaderStyle } from './decision-headers';

// Lower case, as Fastify stores reply headers: it lower-cases every name it is given, which for these
// constants would be a new string per header and request.
const HDR_LIMIT = RATE_LIMIT_HEADERS.limit.toLowerCase();
const HDR_REMAINING = RATE_LIMIT_HEADERS.remaining.toLowerCase();
const HDR_RESET = RATE_LIMIT_HEADERS.reset.toLowerCase();

export interface RateLimitSettings {
  resetUnit: 'epoch' | 'seconds';
  windowMs: number;
  limits: Readonly<Record<string, number>>;
}

/** How late the quota comes back under the 'refill-after-reset' leniency. */
const LATE_REFILL_MS = 1500;

/** What the limiter knows of a route, resolved when the route is registered. */
export interface RateRoute {
  /** The operation decisions are taken for (the limiter's algorithm and the header style by operation). */
  readonly operationId?: string;
  /** Token endpoint responses. */
  readonly token: boolean;
  /** No rate-limit headers at all (control API). */
  readonly none: boolean;
  /** The route's header style. */
  readonly headerStyle: HeaderStyle;
  /** The limiter's options (one object per route, not one per request). */
  readonly options: ConsumeOptions;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The rate-limit side of the request's route (decorated by the mock; null on routes without one). */
    rateRoute: RateRoute | null;
    /** The limiter's decision for the request (null until one is taken). */
    mockDecision: Decision | null;
  }
}

export class RateLimits {
  constructor(
    private readonly limiter: Limiter,
    private readonly clock: Clock,
    private readonly settings: () => RateLimitSettings,
    /** Asked where the limiter decides: how many calls, and when the quota comes back. */
    private readonly leniency: Leniency,
    /** Which rate-limit headers the mock sends, for all operations or per operation. */
    private readonly headerStyles: HeaderStyle | PerOperation<HeaderStyle> = 'x-ratelimit',
    /** The status of a refused call: 429, or another as gateways answer (503 is nginx limit_req's default), with an empty body. */
    private readonly refusalStatus = 429,
  ) {
    this.unrouted = this.route();
  }

  /** Responses of no route of ours (404). */
  private readonly unrouted: RateRoute;

  private headerStyleOf(operationId: string | undefined): HeaderStyle {
    const f = this.headerStyles;
    if (typeof f === 'string') return f;
    return (operationId !== undefined ? f.byOperation[operationId] : undefined) ?? f.default ?? 'x-ratelimit';
  }

  /** The limiter's side of a route: an operation's, a token endpoint's or none at all (control API). */
  route(o: { operationId?: string; token?: boolean; none?: boolean } = {}): RateRoute {
    return {
      ...(o.operationId !== undefined ? { operationId: o.operationId } : {}),
      token: o.token ?? false,
      none: o.none ?? false,
      headerStyle: this.headerStyleOf(o.operationId),
      options: o.operationId !== undefined ? { operationId: o.operationId } : {},
    };
  }

  /** Takes the decision for a request on a route and remembers it for the headers. */
  consume(req: FastifyRequest, route: RateRoute, key: string, limit: number): Decision {
    const extra = this.leniency('call-beyond-limit') ? 1 : 0;
    const lateRefillMs = this.leniency('refill-after-reset') ? LATE_REFILL_MS : 0;
    const options = extra === 0 && lateRefillMs === 0 ? route.options : { ...route.options, extra, lateRefillMs };
    const d = this.limiter.consume(key, limit, options);
    req.rateRoute = route;
    req.mockDecision = d;
    return d;
  }

  /** The refusal: 429 with the spec's error body, or a gateway's status with its HTML page. */
  tooMany(reply: FastifyReply): FastifyReply {
    if (this.refusalStatus !== 429)
      return reply.code(this.refusalStatus).type('text/html').send('<html><body>Service Temporarily Unavailable</body></html>');
    return reply.code(429).send(errorOf('tooManyRequests'));
  }

  /** onSend: writes the headers of the request's decision (a fallback bucket when none was taken). */
  writeHeaders(req: FastifyRequest, reply: FastifyReply): void {
    const route = req.rateRoute ?? this.unrouted;
    if (route.none) return;
    const d = (req.mockDecision ??= this.limiter.consume(`ip:${req.ip}|unrouted`, this.settings().limits.unrouted ?? 60));
    this.setHeaders(reply, d, reply.statusCode, route.headerStyle);
  }

  private setHeaders(reply: FastifyReply, d: Decision, status: number, style: HeaderStyle): void {
    const { resetUnit, windowMs } = this.settings();
    if (style !== 'x-ratelimit') {
      reply.headers(decisionHeaders(d, style, { nowMs: this.clock.now(), status, windowMs, resetUnit }));
      return;
    }
    const reset = resetHeaderValue(d.windowEndMs, this.clock.now(), resetUnit);
    reply.header(HDR_LIMIT, String(d.limit));
    reply.header(HDR_REMAINING, status === 429 ? '0' : String(d.remaining));
    reply.header(HDR_RESET, String(reset));
  }
}

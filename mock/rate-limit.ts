/**
 * The limiter's side of the mock's request lifecycle: one decision per request (taken in
 * onRequest for business routes, in the handler for token routes once the body names the app),
 * the 429 answer, and the X-RateLimit headers written in onSend from the decision and the final
 * status, with the header drift modes. Sits beside limiter.ts.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RATE_LIMIT_HEADERS, TOO_MANY_REQUESTS_MESSAGE } from '../catalogue/rules';
import type { Clock } from './clock';
import { errorOf } from './errors';
import type { Decision, Limiter } from './limiter';
import { rateLimitHeaders, type HeaderFamily, type PerOperation } from './limiter-algorithms';

const HDR_LIMIT = RATE_LIMIT_HEADERS.limit;
const HDR_REMAINING = RATE_LIMIT_HEADERS.remaining;
const HDR_RESET = RATE_LIMIT_HEADERS.reset;

export interface RateLimitSettings {
  resetUnit: 'epoch' | 'seconds';
  windowMs: number;
  drift: ReadonlySet<string>;
  limits: Readonly<Record<string, number>>;
}

/** What the onSend hook needs to know about a request. */
export interface RateState {
  decision?: Decision;
  /** Token endpoint responses (a drift mode drops their headers). */
  token?: boolean;
  /** No rate-limit headers at all (control API). */
  none?: boolean;
  /** The operation the decision was taken for (per-operation header families). */
  operationId?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The rate-limit state of the request (decorated by the mock; null until a step sets it). */
    mockRate: RateState | null;
  }
}

/** The rate-limit state of a request (the app decorates requests with `mockRate`). */
export const rateState = (req: FastifyRequest): RateState => (req.mockRate ??= {});

export class RateLimits {
  constructor(
    private readonly limiter: Limiter,
    private readonly clock: Clock,
    private readonly settings: () => RateLimitSettings,
    /** Which rate-limit headers the mock sends, for all operations or per operation (the drift modes apply to x-ratelimit). */
    private readonly families: HeaderFamily | PerOperation<HeaderFamily> = 'x-ratelimit',
    /** The status of a refused call: 429, or another as gateways answer (503 is nginx limit_req's default), with an empty body. */
    private readonly refusalStatus = 429,
  ) {}

  private familyOf(operationId: string | undefined): HeaderFamily {
    const f = this.families;
    if (typeof f === 'string') return f;
    return (operationId !== undefined ? f.byOperation[operationId] : undefined) ?? f.default ?? 'x-ratelimit';
  }

  private drift(id: string): boolean {
    return this.settings().drift.has(id);
  }

  /** Takes the decision for a request and remembers it for the headers. */
  consume(req: FastifyRequest, key: string, limit: number, operationId?: string): Decision {
    const d = this.limiter.consume(key, limit, {
      extra: this.drift('limits.extra-call') ? 1 : 0,
      lateRefillMs: this.drift('limits.late-refill') ? 1500 : 0,
      ...(operationId !== undefined ? { operationId } : {}),
    });
    const state = rateState(req);
    state.decision = d;
    if (operationId !== undefined) state.operationId = operationId;
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
    const s = req.mockRate ?? {};
    if (s.none) return;
    const d = s.decision ?? this.limiter.consume(`ip:${req.ip}|unrouted`, this.settings().limits.unrouted ?? 60);
    this.setHeaders(reply, d, reply.statusCode, s.token === true, this.familyOf(s.operationId));
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

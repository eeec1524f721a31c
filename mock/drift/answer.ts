/**
 * An answer of the mock as the drift layer's transforms see it: after the mock wrote it (status,
 * rate-limit headers, serialised body), before it leaves. A transform reads and rewrites it here.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RATE_LIMIT_HEADERS } from '../../catalogue/rules';
import type { Decision } from '../limits/limiter';

/** The rate-limit header names as Fastify stores them (lower case). */
export const HDR = {
  limit: RATE_LIMIT_HEADERS.limit.toLowerCase(),
  remaining: RATE_LIMIT_HEADERS.remaining.toLowerCase(),
  reset: RATE_LIMIT_HEADERS.reset.toLowerCase(),
} as const;

const JSON_TYPE = 'application/json; charset=utf-8';

export class Answer {
  private parsed: { value: unknown } | null = null;

  constructor(
    private readonly req: FastifyRequest,
    private readonly reply: FastifyReply,
    private body: unknown,
    /** The mock's clock when the answer leaves. */
    readonly nowMs: number,
  ) {}

  get status(): number {
    return this.reply.statusCode;
  }

  set status(code: number) {
    this.reply.code(code);
  }

  get method(): string {
    return this.req.method;
  }

  /** The request path, without its query. */
  get path(): string {
    const url = this.req.url;
    const q = url.indexOf('?');
    return q === -1 ? url : url.slice(0, q);
  }

  /** The first value of a query parameter of the request (undefined when it has none). */
  queryValue(name: string): string | undefined {
    const v = (this.req.query as Record<string, unknown> | undefined)?.[name];
    const one = Array.isArray(v) ? (v[0] as unknown) : v;
    return typeof one === 'string' ? one : undefined;
  }

  /** The request's query without its parameters named in `omit`, in a stable order (a key for answers to the same search). */
  queryWithout(omit: readonly string[]): string {
    const q = (this.req.query as Record<string, unknown> | undefined) ?? {};
    return JSON.stringify(
      Object.keys(q)
        .filter((k) => !omit.includes(k))
        .sort()
        .map((k) => [k, q[k]]),
    );
  }

  /** The request's parsed body (undefined without one). */
  get requestBody(): unknown {
    return this.req.body;
  }

  /** The catalogued operation answered (undefined for token endpoints and unknown paths). */
  get operationId(): string | undefined {
    return this.req.rateRoute?.operationId;
  }

  /** The request's Authorization header, when it has one. */
  get authorization(): string | undefined {
    const v = this.req.headers.authorization;
    return typeof v === 'string' ? v : undefined;
  }

  /** An answer of a token endpoint. */
  get token(): boolean {
    return this.req.rateRoute?.token ?? false;
  }

  /** The limiter's decision behind the rate-limit headers. */
  get decision(): Decision | null {
    return this.req.mockDecision;
  }

  header(name: string): string | undefined {
    const v = this.reply.getHeader(name);
    return v === undefined ? undefined : String(v);
  }

  setHeader(name: string, value: string | number): void {
    this.reply.header(name, String(value));
  }

  removeHeader(name: string): void {
    this.reply.removeHeader(name);
  }

  /** The rate-limit headers, all three removed. */
  removeRateLimitHeaders(): void {
    for (const h of Object.values(HDR)) this.reply.removeHeader(h);
  }

  /** The body as JSON (undefined when it is not JSON). */
  json(): unknown {
    if (this.parsed === null) {
      let value: unknown;
      try {
        value = typeof this.body === 'string' ? JSON.parse(this.body) : undefined;
      } catch {
        value = undefined;
      }
      this.parsed = { value };
    }
    return this.parsed.value;
  }

  /** The body as an object (undefined when it is not a JSON object). */
  object(): Record<string, unknown> | undefined {
    const v = this.json();
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  }

  /** Rewrites the body in place when it is a JSON object. */
  editObject(edit: (body: Record<string, unknown>) => void): void {
    const b = this.object();
    if (b === undefined) return;
    edit(b);
    this.setJson(b);
  }

  /** Replaces the body with this JSON value. */
  setJson(value: unknown): void {
    this.parsed = { value };
    this.body = JSON.stringify(value);
    this.reply.header('content-type', JSON_TYPE);
  }

  /** Replaces the body with text of this content type. */
  setText(type: string, text: string): void {
    this.parsed = { value: undefined };
    this.body = text;
    this.reply.header('content-type', type);
  }

  /** The payload that leaves. */
  payload(): unknown {
    return this.body;
  }
}

/** A drift mode that rewrites answers: applied to every answer of the mock's own routes. */
export type AnswerTransform = (a: Answer) => void;

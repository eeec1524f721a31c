/**
 * HTTP helper of the contract suite over a transport (fetcher.ts: node:http, or Playwright's APIRequestContext): a request budget,
 * timeouts, a body size limit, and failures classified so a broken target yields a clear verdict
 * instead of a hang or a stack trace.
 */
import { randomBytes } from 'node:crypto';
import { correlationIdOf, IM_HEADERS } from '../catalogue/rules';
import { redact } from './redact';
import type { FetchedResponse, Fetcher } from './fetcher';
import { sentRequestOf, type SentRequestRecord } from './sent-request';

export type { SentRequestRecord } from './sent-request';
export { evidenceOf } from './sent-request';

export type FailureKind = 'timeout' | 'network' | 'server-error' | 'malformed-body' | 'oversized' | 'budget';

/** A failure of the target or of the environment, not of a contract check. */
export class TargetFailure extends Error {
  override name = 'TargetFailure';
  constructor(
    readonly kind: FailureKind,
    message: string,
  ) {
    super(redact(`[${kind}] ${message}`));
  }
}

/** Draws one request from a budget; throws (or stops the check) when it is spent. */
export interface Budget {
  take(what: string): void;
  /** Requests this holder sent. */
  readonly spent: number;
}

/** A connection closed before any answer came: the target dropped a kept-alive connection, or reset it. */
const droppedConnection = (e: unknown): boolean => /socket hang up|ECONNRESET/.test(String((e as Error)?.message ?? e));

/** A budget held by one process (the run-wide one lives in contracts/plan/run-budget.ts). */
export class RequestBudget implements Budget {
  private used = 0;
  constructor(readonly limit: number) {}
  take(what: string): void {
    if (this.used >= this.limit) {
      throw new TargetFailure(
        'budget',
        `request budget of ${this.limit} requests is spent; ${what} was not sent. Raise REQUEST_BUDGET or certify fewer environments/families.`,
      );
    }
    this.used += 1;
  }
  get spent(): number {
    return this.used;
  }
}

/** Where a request is broken on purpose: a location as the catalogue's constraints name it (`query pageSize`, `body lines[].notes`). */
export interface BrokenAt {
  at: string;
}

export interface ApiRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** Path from {base_url}, starting with "/". */
  path: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string>;
  /** Raw body; set Content-Type in headers. */
  raw?: string;
  /** Bearer token (sent as Authorization; never logged). */
  token?: string;
  /** Header names not to send (e.g. a required IM-* header, to see whether the target refuses the call). */
  omitHeaders?: readonly string[];
  /** The catalogue operation the request calls, when it calls one (for validation against a document). */
  operationId?: string;
  /**
   * A request a check breaks on purpose: `true`, never validated before sending; `{ at }`, validated, and only what
   * the document refuses at that location (`query pageSize`, `body lines[].notes`) let through.
   */
  deliberatelyInvalid?: true | BrokenAt;
}

export interface ApiResponse {
  method: string;
  url: string;
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  text: string;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  json: unknown;
  durationMs: number;
  /** Epoch ms when the request was sent and when its body was read: the target decided in between. */
  sentAtMs: number;
  receivedAtMs: number;
  /** The IM-CorrelationID sent with the request, to quote to the distributor's support. */
  correlationId: string;
  /** The request that got this answer, as sent (absent on answers built by hand). */
  request?: SentRequestRecord;
}

export interface ApiClientOptions {
  baseUrl: string;
  budget: Budget;
  timeoutMs: number;
  maxBodyBytes: number;
  extraHeaders: Record<string, string>;
  /** The published IM-* headers sent with every request (from the configuration). */
  imHeaders?: Record<string, string>;
  /** A fresh correlation id per request. Default 32 random hexadecimal characters (a UUID without dashes: the document allows 32). */
  correlationId?: () => string;
  /**
   * Called with every request as it will be sent (headers final), before it is sent: throws to stop a
   * request the harness should not send (one its OPENAPI document refuses). Default none.
   */
  beforeSend?: (req: ApiRequest, headers: Readonly<Record<string, string>>) => void;
  /** Called with every answer (the suite keeps the last correlation ids of a check for its evidence). */
  onExchange?: (res: ApiResponse) => void;
  /** Called with every request sent that got no usable answer (a timeout, a network error, a body over the limit). */
  onFailure?: (sent: Pick<ApiResponse, 'method' | 'url' | 'correlationId' | 'sentAtMs' | 'request'>, failure: TargetFailure) => void;
}

/** A fresh IM-CorrelationID: a random v4 UUID without its dashes (32 characters). */
export const newCorrelationId = (): string => correlationIdOf(randomBytes(16));

function classifyError(e: unknown, method: string, url: string, timeoutMs: number): TargetFailure {
  const msg = (e as Error)?.message ?? String(e);
  if (/timeout|timed out/i.test(msg)) {
    return new TargetFailure('timeout', `${method} ${url} got no complete answer within ${timeoutMs} ms (REQUEST_TIMEOUT_MS)`);
  }
  const code = /\b(E[A-Z]{4,}|socket hang up)\b/.exec(msg)?.[1] ?? 'network error';
  return new TargetFailure('network', `${method} ${url} failed before a response: ${code}. Is the target up and reachable?`);
}

export class ApiClient {
  constructor(
    private readonly ctx: Fetcher,
    readonly opts: ApiClientOptions,
  ) {}

  url(path: string): string {
    return `${this.opts.baseUrl}${path}`;
  }

  async send(req: ApiRequest): Promise<ApiResponse> {
    const url = this.url(req.path);
    const correlationId = (this.opts.correlationId ?? newCorrelationId)();
    const headers = this.headersFor(req, correlationId);
    this.opts.beforeSend?.(req, headers);
    this.opts.budget.take(`${req.method} ${req.path}`);
    let data: string | undefined;
    if (req.json !== undefined) {
      data = JSON.stringify(req.json);
      headers['Content-Type'] ??= 'application/json';
    } else if (req.raw !== undefined) data = req.raw;
    const request = sentRequestOf(url, req, headers, data);
    const started = performance.now();
    const sentAtMs = Date.now();
    const where = `${url} (IM-CorrelationID ${correlationId})`;
    const fetch = (fresh = false) =>
      this.ctx.fetch(url, {
        method: req.method,
        headers,
        data,
        form: req.form,
        params: req.query,
        timeout: this.opts.timeoutMs,
        failOnStatusCode: false,
        maxRedirects: 0,
        ...(fresh ? { freshConnection: true } : {}),
      });
    const classified = (e: unknown) => classifyError(e, req.method, where, this.opts.timeoutMs);
    const failed = (e: unknown): never => {
      if (e instanceof TargetFailure) this.opts.onFailure?.({ method: req.method, url, correlationId, sentAtMs, request }, e);
      throw e;
    };
    return this.exchange(fetch, classified, req, { url, where, started, sentAtMs, correlationId, request }).catch(failed);
  }

  /** Sends a prepared request once (once more on a connection closed as it went out) and reads its answer. */
  private async exchange(
    fetch: (fresh?: boolean) => Promise<FetchedResponse>,
    classified: (e: unknown) => TargetFailure,
    req: ApiRequest,
    at: { url: string; where: string; started: number; sentAtMs: number; correlationId: string; request: SentRequestRecord },
  ): Promise<ApiResponse> {
    const { url, where, started, sentAtMs, correlationId, request } = at;
    let res: FetchedResponse;
    try {
      res = await fetch();
    } catch (e) {
      if (!droppedConnection(e)) throw classified(e);
      // An idle kept-alive connection the target closed as the request went out: sent once more, on a new one (a
      // stalled client may find every connection of its pool closed so).
      this.opts.budget.take(`${req.method} ${req.path} (again: the connection was closed before an answer)`);
      res = await fetch(true).catch((again: unknown) => {
        throw classified(again);
      });
    }
    const h = res.headers();
    const body = await this.readBody(res, h, req.method, url, where);
    const durationMs = performance.now() - started;
    const receivedAtMs = Date.now();
    if (body.length > this.opts.maxBodyBytes) throw this.oversized(req.method, url, body.length);
    const text = body.toString('utf8');
    const out: ApiResponse = {
      method: req.method,
      url,
      status: res.status(),
      headers: h,
      text,
      json: jsonOrUndefined(text),
      durationMs,
      sentAtMs,
      receivedAtMs,
      correlationId,
      request,
    };
    this.opts.onExchange?.(out);
    return out;
  }

  /** The headers of a request: Accept, the IM-* headers, a fresh correlation id, the extra headers, the request's own, its token; less those it omits. */
  private headersFor(req: ApiRequest, correlationId: string): Record<string, string> {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      ...(this.opts.imHeaders ?? {}),
      [IM_HEADERS.correlationId]: correlationId,
      ...this.opts.extraHeaders,
      ...(req.headers ?? {}),
    };
    if (req.token) headers.Authorization = `Bearer ${req.token}`;
    if (req.omitHeaders?.length) {
      const omit = new Set(req.omitHeaders.map((h) => h.toLowerCase()));
      for (const k of Object.keys(headers)) if (omit.has(k.toLowerCase())) delete headers[k];
    }
    return headers;
  }

  /** The response body; refused unread when its declared length is over the limit. */
  private async readBody(res: FetchedResponse, h: Record<string, string>, method: string, url: string, where: string): Promise<Buffer> {
    const declared = Number(h['content-length']);
    if (Number.isFinite(declared) && declared > this.opts.maxBodyBytes) {
      await res.dispose();
      throw this.oversized(method, url, declared);
    }
    try {
      return await res.body();
    } catch (e) {
      throw classifyError(e, method, where, this.opts.timeoutMs);
    }
  }

  /** The failure of a body over MAX_BODY_BYTES. */
  private oversized(method: string, url: string, bytes: number): TargetFailure {
    return new TargetFailure(
      'oversized',
      `${method} ${url} answered a ${bytes}-byte body; the limit is ${this.opts.maxBodyBytes} (MAX_BODY_BYTES)`,
    );
  }
}

/** The body parsed as JSON; undefined when it is empty or not JSON. */
function jsonOrUndefined(text: string): unknown {
  try {
    return text.length ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Throws a classified TargetFailure when a response cannot be judged as a contract answer:
 * an HTML page (a gateway's error page, whatever its status), a 5xx, or a body that claims JSON but
 * does not parse.
 */
export function assertUsable(res: ApiResponse): void {
  const where = `${res.method} ${res.url}`;
  const ct = res.headers['content-type'] ?? '';
  if (/html/i.test(ct) || /^\s*<(!doctype|html)/i.test(res.text)) {
    throw new TargetFailure(
      'malformed-body',
      `${where} answered an HTML page (status ${res.status}) where JSON was expected: ${res.text.slice(0, 120)}`,
    );
  }
  if (res.status >= 500) {
    throw new TargetFailure('server-error', `${where} answered ${res.status}; body: ${res.text.slice(0, 200)}`);
  }
  if (res.text.length && res.json === undefined && /json/i.test(ct)) {
    throw new TargetFailure(
      'malformed-body',
      `${where} answered status ${res.status} with Content-Type ${ct} but a body that is not JSON: ${res.text.slice(0, 120)}`,
    );
  }
}

/**
 * The transport under the harness's HTTP client (http.ts): one request, its status, headers and body. Two
 * implement it: Playwright's APIRequestContext (its `fetch`) and NodeFetcher, node:http(s) over a keep-alive
 * connection pool. The certification's workers send with NodeFetcher: Playwright's context passes every call
 * through its protocol layer, several times the CPU per call (on two cores, 500 calls at 32 at once: about
 * 1.6 ms of CPU a call against 0.3 ms), which an exhaustion of a 500-call bucket within a 2 s window cannot
 * afford when two certifications share the host.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** The parts of a request the client sends (Playwright's `fetch` options it uses). */
export interface FetchOptions {
  method: string;
  headers: Record<string, string>;
  data?: string | Buffer;
  /** Sent URL-encoded (Content-Type application/x-www-form-urlencoded unless the headers set one). */
  form?: Record<string, string>;
  /** Query parameters set on the URL. */
  params?: Record<string, string>;
  /** Longest wait for the whole answer, body included, ms. */
  timeout: number;
  failOnStatusCode: false;
  maxRedirects: 0;
  /**
   * Sent on a connection of its own, not one kept alive in the pool: a request sent again after the target closed a
   * kept connection, whose pool may hold more it closed (node:http only; Playwright keeps its own).
   */
  freshConnection?: boolean;
}

/** An answer: its body read on demand, or dropped unread. */
export interface FetchedResponse {
  status(): number;
  /** Lower-case header names. */
  headers(): Record<string, string>;
  body(): Promise<Buffer>;
  dispose(): Promise<void>;
}

export interface Fetcher {
  fetch(url: string, o: FetchOptions): Promise<FetchedResponse>;
}

/** Connections kept per origin: the most calls in flight at once of an exhaustion, with room for other checks. */
const MAX_SOCKETS = 64;

/**
 * The answer's headers as Playwright gives them: a repeated header's values joined (Set-Cookie's by a line break),
 * every one kept (`headersDistinct`: `headers` keeps only the first of a repeated Retry-After or Content-Type).
 */
function headersOf(res: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headersDistinct)) {
    if (v !== undefined) out[k] = v.join(k === 'set-cookie' ? '\n' : ', ');
  }
  return out;
}

/** Who sends, as Playwright's context names itself: a gateway may refuse a request that names no client. */
const USER_AGENT = `distributor-api-harness (node ${process.version})`;

/** The request's headers, with a User-Agent, the body's Content-Type (a form's) and Content-Length. */
function headersWithBody(o: FetchOptions, body: string | Buffer | undefined): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = { ...o.headers };
  const has = (name: string) => Object.keys(headers).some((k) => k.toLowerCase() === name);
  if (!has('user-agent')) headers['user-agent'] = USER_AGENT;
  if (o.form && !has('content-type')) headers['content-type'] = 'application/x-www-form-urlencoded';
  if (body !== undefined && !has('content-length')) headers['content-length'] = Buffer.byteLength(body);
  return headers;
}

/** node:http(s) with a keep-alive connection pool per protocol; `close` ends its connections. */
export class NodeFetcher implements Fetcher {
  private readonly http = new HttpAgent({ keepAlive: true, maxSockets: MAX_SOCKETS });
  private readonly https = new HttpsAgent({ keepAlive: true, maxSockets: MAX_SOCKETS });

  fetch(url: string, o: FetchOptions): Promise<FetchedResponse> {
    const u = new URL(url);
    for (const [k, v] of Object.entries(o.params ?? {})) u.searchParams.set(k, v);
    const body = o.form ? new URLSearchParams(o.form).toString() : o.data;
    const secure = u.protocol === 'https:';
    let timedOut: Error | undefined;
    return new Promise((resolve, reject) => {
      const req = (secure ? httpsRequest : httpRequest)(
        u,
        { method: o.method, headers: headersWithBody(o, body), agent: o.freshConnection ? false : secure ? this.https : this.http },
        (res) =>
          resolve(
            answerOf(
              res,
              () => clearTimeout(timer),
              () => timedOut,
            ),
          ),
      );
      // One deadline for the whole answer: a target that drips its body slowly times out as a silent one does.
      const timer = setTimeout(() => {
        timedOut = new Error(`Timeout ${o.timeout}ms exceeded`);
        req.destroy(timedOut);
      }, o.timeout);
      req.on('error', (e) => {
        clearTimeout(timer);
        reject(timedOut ?? e);
      });
      req.end(body);
    });
  }

  close(): void {
    this.http.destroy();
    this.https.destroy();
  }
}

/** An answer whose body is read once asked for; `done` when it ended, or was dropped; `timeout`: the deadline's error once it passed. */
function answerOf(res: IncomingMessage, done: () => void, timeout: () => Error | undefined): FetchedResponse {
  const headers = headersOf(res);
  const body = new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => {
      done();
      resolve(Buffer.concat(chunks));
    });
    const fail = (e: Error) => {
      done();
      reject(timeout() ?? e);
    };
    res.on('error', fail);
    res.on('aborted', () => fail(new Error('socket hang up')));
    res.on('close', () => fail(new Error('socket hang up')));
  });
  // Read by `body()`; a body dropped unread must not be an unhandled rejection.
  body.catch(() => undefined);
  return {
    status: () => res.statusCode ?? 0,
    headers: () => headers,
    body: () => body,
    dispose: async () => {
      done();
      res.destroy();
    },
  };
}

/**
 * Loopback targets for the certify end-to-end tests: small proxies in front of a mock that change
 * one thing a real gateway may do differently, and count every request on the server side.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export type ProxyMode =
  /** Forwards unchanged (counting only). */
  | 'pass-through'
  /** Drops every X-RateLimit-*, RateLimit-* and Retry-After header. */
  | 'strip-rate-limit-headers'
  /** Answers each 429 of the upstream with a plain-text body (headers kept). */
  | 'plain-text-429'
  /** Answers every request itself with 503 and a JSON error body: every check fails. */
  | 'fail-all'
  /**
   * Refuses a token with 401 on its use after REFUSE_TOKEN_AFTER_USES, long before its expires_in, as a
   * gateway that loses its token cache does: the call still reaches the upstream, whose limiter counts it,
   * and the 401 keeps its rate-limit headers.
   */
  | 'refuse-tokens-early'
  /**
   * Drops `recordsFound` from each successful product search answer (GET /resellers/v6/catalog): a field no
   * document requires, which a client relies on (finding shapes.expected-field-absent).
   */
  | 'drop-records-found';

/** The product search, in either environment, with or without a query. */
const PRODUCT_SEARCH = /^(\/sandbox)?\/resellers\/v6\/catalog(\?|$)/;

/** Forwards the upstream's JSON answer without `recordsFound`. */
function withoutRecordsFound(upRes: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  upRes.on('data', (c: Buffer) => chunks.push(c));
  upRes.on('end', () => {
    const { 'content-length': _cl, ...rest } = upRes.headers;
    const { recordsFound: _dropped, ...body } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    res.writeHead(upRes.statusCode ?? 502, rest).end(JSON.stringify(body));
  });
}

/** Calls a token serves before the 'refuse-tokens-early' proxy refuses it (fewer than a GET limit of 60). */
export const REFUSE_TOKEN_AFTER_USES = 40;

export interface ProxyOptions {
  /** Added before each request is forwarded: a remote deployment's round trip. Default 0. */
  delayMs?: number;
}

export interface CountingTarget {
  url: string;
  /** Requests received so far (server side). */
  requests(): number;
  /** Method and path (with its query) of each request received so far, in order. */
  seen(): string[];
  close(): Promise<void>;
}

const RATE_LIMIT_HEADER = /^(x-ratelimit-|ratelimit|retry-after)/i;

function keptHeaders(h: IncomingHttpHeaders, mode: ProxyMode): IncomingHttpHeaders {
  if (mode !== 'strip-rate-limit-headers') return h;
  return Object.fromEntries(Object.entries(h).filter(([k]) => !RATE_LIMIT_HEADER.test(k)));
}

/** Tells, per call, whether the 'refuse-tokens-early' proxy refuses its token (each bearer's use after the limit). */
function tokenRefusals(mode: ProxyMode): (req: IncomingMessage) => boolean {
  const uses = new Map<string, number>();
  return (req) => {
    const bearer = req.headers.authorization;
    if (mode !== 'refuse-tokens-early' || !bearer) return false;
    const n = (uses.get(bearer) ?? 0) + 1;
    uses.set(bearer, n);
    return n === REFUSE_TOKEN_AFTER_USES + 1;
  };
}

/** Starts a proxy on 127.0.0.1 in front of `upstream` (not needed for `fail-all`). */
export async function startProxy(mode: ProxyMode, upstream?: string, opts: ProxyOptions = {}): Promise<CountingTarget> {
  const seen: string[] = [];
  const up = upstream ? new URL(upstream) : undefined;
  const refuses = tokenRefusals(mode);
  const server: Server = createServer(async (req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
    const refuse = refuses(req);
    if (mode === 'fail-all' || !up) {
      req.resume();
      res
        .writeHead(503, { 'content-type': 'application/json' })
        .end(JSON.stringify({ errors: [{ field: null, message: 'service unavailable' }] }));
      return;
    }
    const fwd = httpRequest(
      { host: up.hostname, port: up.port, method: req.method, path: req.url, headers: { ...req.headers, host: up.host } },
      (upRes) => {
        const status = upRes.statusCode ?? 502;
        if (refuse) {
          upRes.resume();
          const { 'content-type': _ct, 'content-length': _cl, ...rest } = upRes.headers;
          res
            .writeHead(401, { ...rest, 'content-type': 'application/json' })
            .end(JSON.stringify({ errors: [{ field: null, message: 'invalid token' }] }));
          return;
        }
        if (mode === 'plain-text-429' && status === 429) {
          upRes.resume();
          const { 'content-type': _ct, 'content-length': _cl, ...rest } = upRes.headers;
          res.writeHead(429, { ...rest, 'content-type': 'text/plain' }).end('Too Many Requests');
          return;
        }
        if (mode === 'drop-records-found' && status === 200 && req.method === 'GET' && PRODUCT_SEARCH.test(req.url ?? ''))
          return withoutRecordsFound(upRes, res);
        res.writeHead(status, keptHeaders(upRes.headers, mode));
        upRes.pipe(res);
      },
    );
    fwd.on('error', () => res.writeHead(502, { 'content-type': 'text/plain' }).end('upstream unreachable'));
    req.pipe(fwd);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => seen.length,
    seen: () => [...seen],
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

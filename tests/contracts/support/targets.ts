/**
 * Loopback targets for the certify end-to-end tests: small proxies in front of a mock that change
 * one thing a real gateway may do differently, and count every request on the server side.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ProxyMode =
  /** Forwards unchanged (counting only). */
  | 'pass-through'
  /** Drops every X-RateLimit-*, RateLimit-* and Retry-After header. */
  | 'strip-rate-limit-headers'
  /** Answers each 429 of the upstream with a plain-text body (headers kept). */
  | 'plain-text-429'
  /** Answers every request itself with 503 and a JSON error body: every check fails. */
  | 'fail-all';

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

/** Starts a proxy on 127.0.0.1 in front of `upstream` (not needed for `fail-all`). */
export async function startProxy(mode: ProxyMode, upstream?: string): Promise<CountingTarget> {
  const seen: string[] = [];
  const up = upstream ? new URL(upstream) : undefined;
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
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
        if (mode === 'plain-text-429' && status === 429) {
          upRes.resume();
          const { 'content-type': _ct, 'content-length': _cl, ...rest } = upRes.headers;
          res.writeHead(429, { ...rest, 'content-type': 'text/plain' }).end('Too Many Requests');
          return;
        }
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

/** Shim of `k6/http` for the k6 double: synchronous requests through a worker bridge. */
import type { SyncRequest, SyncResponse } from '../sync-http';
import { rt } from './bridge';
import { canonicalHeader } from '../../../../clients/header-names';

// Go's CanonicalMIMEHeaderKey, as k6 exposes response headers: the same rule the probes read headers by.
export { canonicalHeader as canonical } from '../../../../clients/header-names';

interface Params {
  headers?: Record<string, string>;
  tags?: Record<string, string>;
  timeout?: string | number;
}

function timeoutMs(t: string | number | undefined): number {
  if (t === undefined) return 60_000;
  if (typeof t === 'number') return t;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(t);
  if (!m) return 60_000;
  const n = Number(m[1]);
  return m[2] === 'ms' ? n : m[2] === 'm' ? n * 60_000 : n * 1000;
}

export class Response {
  status: number;
  headers: Record<string, string>;
  body: string | null;
  error: string;
  error_code: number;
  timings: { duration: number; waiting: number };
  url: string;
  request: { method: string; url: string };
  constructor(req: SyncRequest, r: SyncResponse) {
    this.status = r.status;
    this.headers = {};
    for (const [k, v] of Object.entries(r.headers)) this.headers[canonicalHeader(k)] = v;
    this.body = r.body;
    this.error = r.error;
    this.error_code = r.errorCode;
    this.timings = { duration: r.durationMs, waiting: r.durationMs };
    this.url = req.url;
    this.request = { method: req.method, url: req.url };
  }
  json(selector?: string): unknown {
    const v = JSON.parse(this.body ?? '');
    return selector ? (v as Record<string, unknown>)[selector] : v;
  }
}

function toReq(method: string, url: string, body: unknown, params: Params = {}): SyncRequest {
  return {
    method: method.toUpperCase(),
    url,
    body: body === null || body === undefined ? null : String(body),
    headers: params.headers ?? {},
    timeoutMs: timeoutMs(params.timeout),
  };
}

function finish(req: SyncRequest, r: SyncResponse, tags: Record<string, string> = {}): Response {
  // k6's system tags; a response outside 200..399 is not an expected response.
  const failed = r.status === 0 || r.status >= 400;
  const all = { method: req.method, url: req.url, name: req.url, status: String(r.status), expected_response: String(!failed), ...tags };
  rt().record('http_reqs', 'counter', 1, all);
  rt().record('http_req_duration', 'trend', r.durationMs, all);
  rt().record('http_req_failed', 'rate', failed ? 1 : 0, all);
  return new Response(req, r);
}

/** k6 sends no request from the init context. */
function inVuContext(): void {
  if (rt().phase() === 'init') throw new Error('Making http requests in the init context is not supported');
}

export function request(method: string, url: string, body?: unknown, params?: Params): Response {
  inVuContext();
  const req = toReq(method, url, body, params);
  return finish(req, rt().requestSync([req])[0] as SyncResponse, params?.tags);
}
export const get = (url: string, params?: Params) => request('GET', url, null, params);
export const post = (url: string, body?: unknown, params?: Params) => request('POST', url, body, params);
export const put = (url: string, body?: unknown, params?: Params) => request('PUT', url, body, params);
export const del = (url: string, body?: unknown, params?: Params) => request('DELETE', url, body, params);

type BatchEntry = [string, string, unknown?, Params?] | { method: string; url: string; body?: unknown; params?: Params };

export function batch(reqs: BatchEntry[]): Response[] {
  inVuContext();
  const params = reqs.map((r) => (Array.isArray(r) ? r[3] : r.params));
  const list = reqs.map((r, i) => (Array.isArray(r) ? toReq(r[0], r[1], r[2], params[i]) : toReq(r.method, r.url, r.body, params[i])));
  const res = rt().requestSync(list);
  return list.map((req, i) => finish(req, res[i] as SyncResponse, params[i]?.tags));
}

export default { request, get, post, put, del, batch };

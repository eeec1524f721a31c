/** Load on a server: its measured calls (the mock's GET and POST, and the ceilings' sides of them), a load's round and CPU per request. */
import autocannon from 'autocannon';
import { knownIds, requestBody, validQuery } from '../fixtures';
import { imHeadersFrom } from '../config/headers';
import { DEMO_RESELLER } from '../catalogue/apps';
import { cpuSeconds, type Server } from './proc';
import { CONNECTIONS, FIXED_RATE, SMOKE_REQUESTS, type BenchOptions } from './bench-options';

/** The reseller demo app the benchmark's token comes from. */
const RESELLER_APP = DEMO_RESELLER;

export interface Round {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
}

/** One round of load on a server (autocannon): its throughput and latencies. */
export async function loadRound(
  opts: BenchOptions,
  url: string,
  headers: Record<string, string>,
  o: { method?: 'GET' | 'POST'; body?: string; rate?: number; durationS?: number } = {},
): Promise<Round> {
  const r = await autocannon({
    url,
    connections: CONNECTIONS,
    // The smoke run sends a fixed number of requests: on a busy machine 0.3 s may hold too few for the
    // server's CPU time (counted in 10 ms ticks) to show. autocannon ends a run at its next sample: every
    // 100 ms there, not every second.
    ...(opts.byAmount ? { amount: SMOKE_REQUESTS, sampleInt: 100 } : { duration: o.durationS ?? opts.durationS }),
    headers,
    method: o.method ?? 'GET',
    ...(o.body ? { body: o.body } : {}),
    ...(o.rate ? { overallRate: o.rate } : {}),
  });
  if (r.non2xx > 0) throw new Error(`${url}: ${r.non2xx} non-2xx answers during the benchmark (a 429 means the limits were too low)`);
  // Requests over the run's measured duration (the mean of the samples would depend on their interval).
  return { rps: r.requests.total / r.duration, p50: r.latency.p50, p99: r.latency.p99, requests: r.requests.total };
}

async function token(base: string): Promise<string> {
  const r = await fetch(`${base}/oauth/oauth20/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    // The mock's reseller demo app, from its one home.
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: RESELLER_APP.clientId,
      client_secret: RESELLER_APP.clientSecret,
    }).toString(),
  });
  return ((await r.json()) as { access_token: string }).access_token;
}

export interface Side {
  url: string;
  headers: Record<string, string>;
  server: Server;
  method: 'GET' | 'POST';
  body?: string;
}

export const loadOf = (opts: BenchOptions, s: Side, rate?: number) =>
  loadRound(opts, s.url, s.headers, { method: s.method, ...(s.body ? { body: s.body } : {}), ...(rate ? { rate } : {}) });

/** Server CPU microseconds per request at a fixed rate. */
export async function cpuPerRequest(opts: BenchOptions, s: Side): Promise<number> {
  const before = cpuSeconds(s.server.pid);
  const r = await loadOf(opts, s, FIXED_RATE[s.method]);
  return ((cpuSeconds(s.server.pid) - before) / r.requests) * 1e6;
}

/** The measured calls on a running mock (its token, or `given` for a server that is not the mock): an authenticated GET of catalog.details and a POST of catalog.priceAndAvailability. */
export async function mockSides(server: Server, given?: string): Promise<{ get: Side; post: Side; token: string }> {
  // The published IM-* headers (mock defaults), so the measured path is the 2xx one, not the missing-header 400.
  const bearer = given ?? (await token(server.url));
  const headers = {
    ...imHeadersFrom({}),
    'IM-CorrelationID': '0000000000004000800000000000b0b0',
    authorization: `Bearer ${bearer}`,
  };
  const query = new URLSearchParams(validQuery('catalog.priceAndAvailability')).toString();
  return {
    token: bearer,
    get: { server, method: 'GET', url: `${server.url}/resellers/v6/catalog/details/${knownIds().partNumber}`, headers },
    post: {
      server,
      method: 'POST',
      url: `${server.url}/resellers/v6/catalog/priceandavailability?${query}`,
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(requestBody('catalog.priceAndAvailability')),
    },
  };
}

/** A server's side of a mock's call: the same path, method and body, none of the mock's headers. */
export const headerlessSide = (server: Server, mock: Side): Side => ({
  ...mock,
  server,
  url: `${server.url}${new URL(mock.url).pathname}`,
  headers: mock.body ? { 'content-type': 'application/json' } : {},
});

/**
 * A server's side of the mock's very request: the same path, query, headers and body. The bare server
 * reads none of the headers, but it receives them as the mock does (Node parses them either way).
 */
export const sameRequestSide = (server: Server, mock: Side): Side => {
  const u = new URL(mock.url);
  return { ...mock, server, url: `${server.url}${u.pathname}${u.search}` };
};

/** The size of a call's answer. */
export const answerSize = async (s: Side): Promise<number> =>
  (await (await fetch(s.url, { method: s.method, headers: s.headers, ...(s.body ? { body: s.body } : {}) })).text()).length;

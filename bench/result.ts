/** bench.json: the rounds' figures and ratios against the ceilings, the goals met, the tools' figures. */
import { cpus } from 'node:os';
import { CONNECTIONS, GOALS, type BenchOptions } from './bench-options';
import { spread } from './spread';
import type { Round } from './server-load';
import type { measureServers, RoundOf } from './server-rounds';
import type { measureTools } from './tool-figures';

type Rounds = RoundOf<string>[];
const roundOf = (r: RoundOf<string>, name: string) => r[name] as { load: Round; cpu: number };

/** A server's own figures over the rounds. */
const sideFigures = (rs: Rounds, name: string) => ({
  rps: spread(rs.map((r) => roundOf(r, name).load.rps)),
  p50: spread(rs.map((r) => roundOf(r, name).load.p50)),
  p99: spread(rs.map((r) => roundOf(r, name).load.p99)),
  cpuUsPerRequest: spread(rs.map((r) => roundOf(r, name).cpu)),
});

/** Ratios of a server to a reference, each taken within a round. */
const ratios = (rs: Rounds, name = 'mock', ref = 'bare') => ({
  throughputRatio: spread(rs.map((r) => roundOf(r, name).load.rps / roundOf(r, ref).load.rps)),
  cpuPerRequestRatio: spread(rs.map((r) => roundOf(r, name).cpu / roundOf(r, ref).cpu)),
});

/** What each ceiling is given, as bench.json states it. */
export const CEILINGS = {
  headline: "a bare node:http server given the mock's very request (the same path, query, headers and body; it reads none of the headers)",
  headerless: "the same bare server given the mock's path and body with no request headers",
} as const;

/** bench.json: every ratio against the headline ceiling, the header-less one beside it. */
export function summarise(
  opts: BenchOptions,
  servers: Awaited<ReturnType<typeof measureServers>>,
  tools: Awaited<ReturnType<typeof measureTools>>,
) {
  const { get, post } = servers;
  const headline = { get: ratios(get), post: ratios(post) };
  return {
    machine: {
      cores: cpus().length,
      node: process.version,
      preset: opts.smoke ? 'smoke' : opts.quick ? 'quick' : 'full',
      rounds: opts.rounds,
      durationS: opts.durationS,
      connections: CONNECTIONS,
    },
    ceilings: CEILINGS,
    goals: {
      ...GOALS,
      met: {
        getThroughput: headline.get.throughputRatio.median >= GOALS.get.minThroughputRatio,
        getCpuPerRequest: headline.get.cpuPerRequestRatio.median <= GOALS.get.maxCpuPerRequestRatio,
        postThroughput: headline.post.throughputRatio.median >= GOALS.post.minThroughputRatio,
      },
    },
    // GET catalog.details against the headline ceiling (the figures of the goals).
    ...headline.get,
    mock: { ...sideFigures(get, 'mock'), rssMb: servers.rssMb.mock, startMs: servers.startMs },
    bare: { ...sideFigures(get, 'bare'), rssMb: servers.rssMb.bare },
    headerless: { ...ratios(get, 'mock', 'bare, no headers'), bare: sideFigures(get, 'bare, no headers') },
    // POST catalog.priceAndAvailability; the bare server reads and parses the same JSON body.
    post: {
      ...headline.post,
      mock: sideFigures(post, 'mock'),
      bare: sideFigures(post, 'bare'),
      headerless: { ...ratios(post, 'mock', 'bare, no headers'), bare: sideFigures(post, 'bare, no headers') },
    },
    // A one-route Fastify server against the bare one (GET), both given the same request: the framework's
    // own share of the ratios, spent before any of the mock's code runs.
    fastifyFloor: {
      ...ratios(get, 'minimal Fastify'),
      fastify: sideFigures(get, 'minimal Fastify'),
      headerless: ratios(get, 'minimal Fastify, no headers', 'bare, no headers'),
    },
    ...tools,
  };
}
export type Result = ReturnType<typeof summarise>;

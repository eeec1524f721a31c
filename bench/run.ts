/** The benchmark's measuring: the servers' rounds, the tools' figures, the table (scripts/bench.ts reads its settings). */
import autocannon from 'autocannon';
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median } from '../catalogue/statistics';
import { knownIds, requestBody, validQuery } from '../fixtures';
import { imHeadersFrom } from '../clients/config-headers';
import { K6_DOUBLE_BIN } from '../tools/k6-node';
import { bundledCli, k6DoubleBin } from '../tools/harness-bin';
import { startServer, cpuSeconds, rssMb, type Server } from './proc';
import { probeFiguresStand, unresolvedProbes } from './probe-figures';
import { formatSummary, sourceMapOf, summariseProfile, type CpuProfile, type ProfileSummary } from './profile';
import { writeLargeOpenApi } from './openapi-doc';
import { countInstructions, hasCallgrind, type InstructionCount } from './instructions';
import { loadOpenApi } from '../openapi/import';
import { buildLoadScripts } from '../runner/bundles';
import { DEFAULT_APPS } from '../mock/app/apps';

/** The reseller demo app the benchmark's token comes from. */
const RESELLER_APP = DEFAULT_APPS.find((a) => a.family === 'reseller') as (typeof DEFAULT_APPS)[number];

/** The run's settings, read from its command line by scripts/bench.ts. */
export interface Settings {
  smoke: boolean;
  quick: boolean;
  json: boolean;
  /** Folder of bench.json (and of profile/); default reports/. */
  out: string;
  profile: boolean;
  instructions: boolean;
  /** Alternating rounds of each ratio. */
  rounds: number;
  /** Seconds of load per server and round. */
  durationS: number;
  /** Rounds of the figures that are not ratios (bundling, OpenAPI import): the smoke run's two suffice. */
  figureRounds: number;
  /** Loads of a fixed number of requests: the smoke preset, unless a duration is given. */
  byAmount: boolean;
  /** Seconds of load per profile (the smoke preset: a fixed number of requests). */
  profileS: number;
  /**
   * The probe's compressed window: the smoke run only proves the figure is produced, in a shorter window.
   * Not shorter than a second: the smoke run waits at a low priority beside the harness tests, and a stall
   * as long as a 400 ms window left the probe with no result (seen once, in a fresh-clone CI run).
   */
  probeWindowMs: number;
  /** Answers before the counters start, and answers counted, per server (--instructions). */
  instructionPreset: { warm: number; count: number };
}

/** Requests per load of a smoke run (about 0.1 s on a quiet machine; enough 10 ms ticks of server CPU to show). */
const SMOKE_REQUESTS = 500;
const CONNECTIONS = 50;
/** The fixed rate of the CPU-per-request figures: GET, and POST (a body to read, parse and validate). */
const FIXED_RATE = { GET: 15_000, POST: 10_000 } as const;
/** The goals, against the headline ceiling (a bare node:http server given the mock's very request). */
export const GOALS = { get: { minThroughputRatio: 0.8, maxCpuPerRequestRatio: 1.25 }, post: { minThroughputRatio: 0.6 } } as const;
const TSX = 'node_modules/tsx/dist/cli.mjs';
/**
 * A command line as Node's arguments: its TypeScript through tsx, as `npm run` starts it. The smoke run
 * inside the harness tests takes the bundles their global setup built (HARNESS_BIN): its figures mean
 * little, and tsx would cost each child about a second of CPU on a machine the other tests share.
 */
const cli = (name: 'certify' | 'load', cfg: Settings): string[] => {
  const bundle = cfg.smoke ? bundledCli(name) : undefined;
  return bundle ? [bundle] : [TSX, `scripts/${name}.ts`];
};

interface Round {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
}

/** A figure measured in several rounds: median and range, with every value. */
export interface Spread {
  median: number;
  min: number;
  max: number;
  values: number[];
}

function spread(values: number[]): Spread {
  if (!values.length || values.some((v) => !Number.isFinite(v)))
    throw new Error(`bench: a figure has no finite values: [${values.join(', ')}]`);
  return { median: median(values) as number, min: Math.min(...values), max: Math.max(...values), values };
}

const fmt = (s: Spread, digits = 2) =>
  `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)}, ${s.values.length} rounds)`;

async function load(
  cfg: Settings,
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
    ...(cfg.byAmount ? { amount: SMOKE_REQUESTS, sampleInt: 100 } : { duration: o.durationS ?? cfg.durationS }),
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

/** Prints a line of progress (stderr). */
type Progress = (m: string) => void;

interface Side {
  url: string;
  headers: Record<string, string>;
  server: Server;
  method: 'GET' | 'POST';
  body?: string;
}

const loadOf = (cfg: Settings, s: Side, rate?: number) =>
  load(cfg, s.url, s.headers, { method: s.method, ...(s.body ? { body: s.body } : {}), ...(rate ? { rate } : {}) });

/** Server CPU microseconds per request at a fixed rate. */
async function cpuPerRequest(cfg: Settings, s: Side): Promise<number> {
  const before = cpuSeconds(s.server.pid);
  const r = await loadOf(cfg, s, FIXED_RATE[s.method]);
  return ((cpuSeconds(s.server.pid) - before) / r.requests) * 1e6;
}

/** One round of several servers: each one's load at full speed and its CPU µs per request at the fixed rate. */
type RoundOf<K extends string> = Record<K, { load: Round; cpu: number }>;

/**
 * Throughput and CPU per request of several servers in alternating rounds (the order is reversed every
 * round, so a drift of the machine does not favour one side): every ratio is taken within a round.
 */
async function serverRounds<K extends string>(cfg: Settings, sides: [K, Side][], progress: Progress): Promise<RoundOf<K>[]> {
  const rounds: RoundOf<K>[] = [];
  for (let i = 0; i < cfg.rounds; i++) {
    const order = i % 2 ? [...sides].reverse() : sides;
    const load: Partial<Record<K, Round>> = {};
    const cpu: Partial<Record<K, number>> = {};
    for (const [name, side] of order) {
      progress(`round ${i + 1}/${cfg.rounds}: ${name} ${side.method} throughput`);
      load[name] = await loadOf(cfg, side);
    }
    for (const [name, side] of order) {
      progress(`round ${i + 1}/${cfg.rounds}: ${name} ${side.method} CPU per request at ${FIXED_RATE[side.method]} req/s`);
      cpu[name] = await cpuPerRequest(cfg, side);
    }
    rounds.push(Object.fromEntries(sides.map(([name]) => [name, { load: load[name] as Round, cpu: cpu[name] as number }])) as RoundOf<K>);
  }
  return rounds;
}

/** The smoke run certifies one check: it proves the figure is produced, not its size. */
const SMOKE_CERTIFY_GREP = 'reseller token requests as documented \\(production\\)';

function certifyWallTime(cfg: Settings, work: string) {
  const out = join(work, 'certify');
  const started = Date.now();
  const c = spawnSync(process.execPath, [...cli('certify', cfg), ...(cfg.smoke ? ['-g', SMOKE_CERTIFY_GREP] : [])], {
    env: { ...process.env, REPORTS_DIR: out, CI: '' },
    encoding: 'utf8',
  });
  const wallS = (Date.now() - started) / 1000;
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
    durationMs: number;
    timings: Record<string, number>;
    verdict: string;
  };
  return {
    wallS,
    suiteS: summary.durationMs / 1000,
    verdict: summary.verdict,
    perFileS: Object.fromEntries(Object.entries(summary.timings).map(([k, v]) => [k, v / 1000])),
    exit: c.status,
  };
}

function probeEfficiency(cfg: Settings, work: string, bundleDir: string) {
  const out = join(work, 'load');
  const ops = cfg.smoke ? ['--ops', 'catalog.search'] : [];
  const p = spawnSync(
    process.execPath,
    [
      ...cli('load', cfg),
      'probe-reset',
      '--window-ms',
      String(cfg.probeWindowMs),
      '--random-limits',
      '11',
      '--reports-dir',
      out,
      '--bundle-dir',
      bundleDir,
      '--skip-build',
      ...ops,
    ],
    // The k6 test double, driven like k6: the figure is the probe's requests, not a load engine's speed.
    { encoding: 'utf8', env: { ...process.env, K6_BIN: cfg.smoke ? k6DoubleBin() : K6_DOUBLE_BIN } },
  );
  if (!probeFiguresStand(p.status, existsSync(join(out, 'limits.json'))))
    // The probe's table (stdout) says which operation had no result and why; stderr says how k6 ended.
    throw new Error(`probe-reset exited ${p.status}:\n${p.stdout.slice(-2000)}\n${p.stderr.slice(-1000)}`);
  const manifest = JSON.parse(readFileSync(join(out, 'limits.json'), 'utf8')) as {
    operations: {
      id: string;
      advertisedLimit: number;
      resetErrorMs: number | null;
      windowMs: number | null;
      verdict?: string | null;
      uncertain?: string[] | null;
    }[];
    durationMs: number;
    requests: number;
  };
  const unresolved = unresolvedProbes(manifest.operations);
  const timeline = JSON.parse(readFileSync(join(out, 'probe-timeline.json'), 'utf8')) as {
    operations: { samples: { status: number }[] }[];
  };
  // Requests of the exhaustion phase (up to the first 429) versus the bound L+1.
  const exhaustion = timeline.operations.map((o) => o.samples.findIndex((x) => x.status === 429) + 1).reduce((a, b) => a + b, 0);
  const resetErrors = manifest.operations.map((e) => e.resetErrorMs ?? NaN);
  return {
    exit: p.status,
    unresolved,
    operations: manifest.operations.length,
    requests: manifest.requests,
    durationMs: manifest.durationMs,
    windowMs: cfg.probeWindowMs,
    exhaustionRequests: exhaustion,
    exhaustionBoundLPlus1: manifest.operations.reduce((a, e) => a + e.advertisedLimit + 1, 0),
    pollRequests: manifest.requests - exhaustion,
    maxAbsWindowErrorMs: Math.max(...manifest.operations.map((e) => Math.abs((e.windowMs ?? NaN) - cfg.probeWindowMs))),
    resetErrorMs: { min: Math.min(...resetErrors), max: Math.max(...resetErrors) },
  };
}

async function bundleTimes(cfg: Settings, bundleDir: string): Promise<Spread> {
  const ms: number[] = [];
  for (let i = 0; i < cfg.figureRounds; i++) ms.push((await buildLoadScripts(bundleDir)).ms);
  return spread(ms);
}

async function openApiImportTimes(cfg: Settings, work: string) {
  const file = join(work, 'big-openapi.yaml');
  writeLargeOpenApi(file);
  const ms: number[] = [];
  await loadOpenApi(file); // warm-up: the parser's own modules load once
  for (let i = 0; i < cfg.figureRounds; i++) {
    const started = performance.now();
    await loadOpenApi(file);
    ms.push(performance.now() - started);
  }
  return { sizeMb: statSync(file).size / 1024 / 1024, ms: spread(ms) };
}

/** The mock bundled to plain JavaScript, with its source map (the profile names frames by their source). */
async function bundleMock(work: string): Promise<string> {
  const mockJs = join(work, 'mock-server.mjs');
  await build({
    entryPoints: ['bench/mock-server.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile: mockJs,
    sourcemap: 'external',
    logLevel: 'error',
    absWorkingDir: process.cwd(),
  });
  // The bundle's package imports resolve from the project's node_modules, seen from the temporary folder.
  symlinkSync(join(process.cwd(), 'node_modules'), join(work, 'node_modules'), 'dir');
  return mockJs;
}

/** The measured calls on a running mock (its token, or `given` for a server that is not the mock): an authenticated GET of catalog.details and a POST of catalog.priceAndAvailability. */
async function mockSides(server: Server, given?: string): Promise<{ get: Side; post: Side; token: string }> {
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
const headerlessSide = (server: Server, mock: Side): Side => ({
  ...mock,
  server,
  url: `${server.url}${new URL(mock.url).pathname}`,
  headers: mock.body ? { 'content-type': 'application/json' } : {},
});

/**
 * A server's side of the mock's very request: the same path, query, headers and body. The bare server
 * reads none of the headers, but it receives them as the mock does (Node parses them either way).
 */
const sameRequestSide = (server: Server, mock: Side): Side => {
  const u = new URL(mock.url);
  return { ...mock, server, url: `${server.url}${u.pathname}${u.search}` };
};

/** The size of a call's answer. */
const answerSize = async (s: Side): Promise<number> =>
  (await (await fetch(s.url, { method: s.method, headers: s.headers, ...(s.body ? { body: s.body } : {}) })).text()).length;

/** Monotonic µs, the clock of a CPU profile's samples (the same clock in every process of the machine). */
const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

/**
 * --profile: the mock under GET load, then a fresh mock under POST load, each in Node's --cpu-prof, and
 * the bare server likewise for reference; the profiles and a summary of their samples during the load
 * (top frames, busy µs per request) go to <out>/profile/.
 */
async function profileMock(cfg: Settings, mockJs: string, progress: Progress): Promise<void> {
  const dir = join(cfg.out, 'profile');
  mkdirSync(dir, { recursive: true });
  const maps = new Map([[pathToFileURL(mockJs).href, sourceMapOf(`${mockJs}.map`)]]);
  type Profiled = ProfileSummary & { rps: number; requests: number; busyUsPerRequest: number; file: string };
  const summaries: Record<string, Profiled> = {};
  const profiled = async (name: string, args: string[], sideOf: (s: Server) => Promise<Side>): Promise<Profiled> => {
    const file = join(dir, `${name}.cpuprofile`);
    rmSync(file, { force: true });
    const server = await startServer(['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-name', `${name}.cpuprofile`, ...args]);
    let r: Round;
    let span: { fromUs: number; toUs: number };
    try {
      const side = await sideOf(server);
      if (!cfg.smoke) await loadOf(cfg, side); // warm-up: the profile shows the steady state, not the JIT
      progress(`profiling ${name} (${cfg.byAmount ? `${SMOKE_REQUESTS} requests` : `${cfg.profileS} s`})`);
      const fromUs = monotonicUs();
      r = await load(cfg, side.url, side.headers, {
        method: side.method,
        ...(side.body ? { body: side.body } : {}),
        durationS: cfg.profileS,
      });
      span = { fromUs, toUs: monotonicUs() };
    } finally {
      await server.stop(); // the profile is written when the process exits
    }
    const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
    const s = summariseProfile(profile, { root: process.cwd(), sourceMaps: maps, top: 20, span });
    return { ...s, rps: r.rps, requests: r.requests, busyUsPerRequest: (s.busyMs * 1000) / r.requests, file };
  };
  for (const method of ['GET', 'POST'] as const) {
    // The mock's call, and the size of its answer (the bare server answers as much).
    let mock: { side: Side; size: number } | undefined;
    summaries[`mock ${method}`] = await profiled(`mock-${method.toLowerCase()}`, [mockJs], async (server) => {
      const sides = await mockSides(server);
      const side = method === 'GET' ? sides.get : sides.post;
      mock = { side, size: await answerSize(side) };
      return side;
    });
    const { side, size } = mock as { side: Side; size: number };
    summaries[`bare ${method}`] = await profiled(
      `bare-${method.toLowerCase()}`,
      ['bench/bare-server.mjs', String(size), String(size)],
      async (server) => headerlessSide(server, side),
    );
  }
  for (const [name, s] of Object.entries(summaries))
    console.log(
      `\n${formatSummary(`${name} under load: ${s.rps.toFixed(0)} req/s, ${s.busyUsPerRequest.toFixed(1)} µs busy per request (${s.file})`, s)}`,
    );
  writeFileSync(join(dir, 'profile.json'), JSON.stringify(summaries, null, 2));
  console.log(`\nbench: wrote ${join(dir, 'profile.json')}`);
}

/**
 * --instructions: the mock, the bare server (with the goals' request, and with the mock's very request) and,
 * for the GET, the minimal Fastify server given the mock's request, each counted under callgrind, two at a time.
 */
async function instructionCounts(cfg: Settings, mockJs: string, progress: Progress): Promise<void> {
  if (!hasCallgrind()) throw new Error('--instructions needs valgrind with callgrind_control (apt-get install valgrind)');
  // The answers' sizes, from a mock run natively (the bare and Fastify servers answer as many bytes).
  const probe = await startServer([mockJs]);
  let size: { get: number; post: number };
  try {
    const sides = await mockSides(probe);
    size = { get: await answerSize(sides.get), post: await answerSize(sides.post) };
  } finally {
    await probe.stop();
  }
  type Job = [name: string, args: string[], method: 'GET' | 'POST', sideOf: (mock: Side, server: Server) => Side];
  const bareArgs = ['bench/bare-server.mjs', String(size.get), String(size.post)];
  const jobs: Job[] = [];
  for (const method of ['GET', 'POST'] as const) {
    jobs.push(
      [`mock ${method}`, [mockJs], method, (mock) => mock],
      [`bare ${method}`, bareArgs, method, (mock, server) => headerlessSide(server, mock)],
      [`bare ${method}, same request`, bareArgs, method, (mock, server) => sameRequestSide(server, mock)],
    );
  }
  jobs.push(['minimal Fastify GET, same request', ['bench/fastify-floor.mjs', String(size.get)], 'GET', (m, s) => sameRequestSide(s, m)]);
  // The mock's request (its token is the mock's own; the other servers read none of it).
  let token: string | undefined;
  const counts: Record<string, InstructionCount> = {};
  const run = async ([name, args, method, sideOf]: Job): Promise<void> => {
    progress(`callgrind: ${name} (${cfg.instructionPreset.warm} answers, then ${cfg.instructionPreset.count} counted)`);
    counts[name] = await countInstructions(
      args,
      async (server) => {
        const isMock = args[0] === mockJs;
        const sides = await mockSides(server, isMock ? undefined : (token ?? 'x'.repeat(32)));
        if (isMock) token = sides.token;
        const mock = method === 'GET' ? sides.get : sides.post;
        const side = sideOf(mock, server);
        return { url: side.url, method: side.method, headers: side.headers, ...(side.body ? { body: side.body } : {}) };
      },
      cfg.instructionPreset,
    );
  };
  // The mock first (its token), then two at a time: callgrind runs one thread, the machine has two cores.
  await run(jobs[0] as Job);
  const rest = jobs.slice(1);
  for (let i = 0; i < rest.length; i += 2) await Promise.all(rest.slice(i, i + 2).map(run));
  reportInstructions(cfg, counts);
}

/** Prints the instruction counts and their ratios; with --json, writes instructions.json. */
function reportInstructions(cfg: Settings, counts: Record<string, InstructionCount>): void {
  const k = (n: number) => `${(n / 1000).toFixed(1)}k`;
  /** Instructions per request without the optimising compiler's (it only runs while the JIT settles). */
  const of = (name: string) => {
    const c = counts[name] as InstructionCount;
    return { perRequest: c.perRequest - c.compilerPerRequest };
  };
  const rows: [string, string][] = [
    ['callgrind window', `${cfg.instructionPreset.count} requests after ${cfg.instructionPreset.warm}, one connection`],
    ...Object.entries(counts).map(([name, c]): [string, string] => [
      name,
      `${k(c.perRequest)} instructions per request (of which ${k(c.gcPerRequest)} garbage collection${c.compilerPerRequest >= 50 ? `, ${k(c.compilerPerRequest)} TurboFan` : ''})`,
    ]),
  ];
  for (const method of ['GET', 'POST'] as const) {
    const mock = of(`mock ${method}`).perRequest;
    rows.push([
      `${method} instructions mock/bare (no TurboFan)`,
      `${(mock / of(`bare ${method}`).perRequest).toFixed(2)}; given the same request ${(mock / of(`bare ${method}, same request`).perRequest).toFixed(2)}`,
    ]);
  }
  rows.push([
    'minimal Fastify/bare, same request (no TurboFan)',
    (of('minimal Fastify GET, same request').perRequest / of('bare GET, same request').perRequest).toFixed(2),
  ]);
  const w = Math.max(...rows.map(([r]) => r.length));
  console.log(`\n${rows.map(([r, v]) => `${r.padEnd(w)}  ${v}`).join('\n')}`);
  if (cfg.json) {
    mkdirSync(cfg.out, { recursive: true });
    writeFileSync(join(cfg.out, 'instructions.json'), JSON.stringify({ preset: cfg.instructionPreset, counts }, null, 2));
    console.log(`bench: wrote ${join(cfg.out, 'instructions.json')}`);
  }
}

/** The measured servers, started from the bundled mock, and the mock's GET and POST calls. */
interface Servers {
  mock: Server;
  bare: Server;
  floor: Server;
  get: Side;
  post: Side;
}

async function startServers(mockJs: string): Promise<Servers> {
  const mock = await startServer([mockJs]);
  const { get, post } = await mockSides(mock);
  const bare = await startServer(['bench/bare-server.mjs', String(await answerSize(get)), String(await answerSize(post))]);
  const floor = await startServer(['bench/fastify-floor.mjs', String(await answerSize(get))]);
  return { mock, bare, floor, get, post };
}

async function stopServers(s: Servers): Promise<void> {
  await s.mock.stop().catch(() => undefined);
  await s.floor.stop().catch(() => undefined);
  await s.bare.stop().catch(() => undefined);
}

/**
 * The servers' rounds. The headline ceiling is the bare server given the mock's very request (`bare`); the
 * same server given no headers (`bare, no headers`) is the second row, and a minimal Fastify server (the
 * framework's floor) is measured given either request.
 */
async function measureServers(cfg: Settings, s: Servers, progress: Progress) {
  if (!cfg.smoke) {
    // Warm-up of every server, so the JIT is not measured.
    for (const side of [s.get, sameRequestSide(s.bare, s.get), s.post, sameRequestSide(s.bare, s.post), sameRequestSide(s.floor, s.get)])
      await loadOf(cfg, side);
  }
  const get = await serverRounds(
    cfg,
    [
      ['mock', s.get],
      ['bare', sameRequestSide(s.bare, s.get)],
      ['bare, no headers', headerlessSide(s.bare, s.get)],
      ['minimal Fastify', sameRequestSide(s.floor, s.get)],
      ['minimal Fastify, no headers', headerlessSide(s.floor, s.get)],
    ],
    progress,
  );
  const post = await serverRounds(
    cfg,
    [
      ['mock', s.post],
      ['bare', sameRequestSide(s.bare, s.post)],
      ['bare, no headers', headerlessSide(s.bare, s.post)],
    ],
    progress,
  );
  const rssMbOf = { mock: rssMb(s.mock.pid), bare: rssMb(s.bare.pid) };
  const startMs = Number(/startMs=([\d.]+)/.exec(s.mock.extra)?.[1] ?? NaN);
  return { get, post, rssMb: rssMbOf, startMs };
}

/** The figures of the harness's own tools: certify, bundling, the probe and the OpenAPI import. */
async function measureTools(cfg: Settings, work: string, progress: Progress) {
  progress('certify wall time on the embedded mock');
  const certify = certifyWallTime(cfg, work);
  progress('bundle times');
  const bundleDir = join(work, 'bundles');
  const bundleMs = await bundleTimes(cfg, bundleDir);
  progress(`probe efficiency (probe-reset in the k6 test double, window ${cfg.probeWindowMs} ms, random limits)`);
  const probe = probeEfficiency(cfg, work, bundleDir);
  progress('OpenAPI import of a 1 MB document');
  const openapiImport = await openApiImportTimes(cfg, work);
  return { certify, probe, bundleMs, openapiImport };
}

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
const CEILINGS = {
  headline: "a bare node:http server given the mock's very request (the same path, query, headers and body; it reads none of the headers)",
  headerless: "the same bare server given the mock's path and body with no request headers",
} as const;

/** bench.json: every ratio against the headline ceiling, the header-less one beside it. */
function summarise(cfg: Settings, servers: Awaited<ReturnType<typeof measureServers>>, tools: Awaited<ReturnType<typeof measureTools>>) {
  const { get, post } = servers;
  const headline = { get: ratios(get), post: ratios(post) };
  return {
    machine: {
      cores: cpus().length,
      node: process.version,
      preset: cfg.smoke ? 'smoke' : cfg.quick ? 'quick' : 'full',
      rounds: cfg.rounds,
      durationS: cfg.durationS,
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
type Result = ReturnType<typeof summarise>;

const rpsOf = (s: { rps: Spread }) => `${s.rps.median.toFixed(0)} req/s (${s.rps.min.toFixed(0)}–${s.rps.max.toFixed(0)})`;
const ratiosOf = (r: { throughputRatio: Spread; cpuPerRequestRatio: Spread }) =>
  `throughput ratio ${fmt(r.throughputRatio)}, CPU per request ratio ${fmt(r.cpuPerRequestRatio)}`;

/** The table's rows of the servers: the headline figures against their goals, the header-less row beside. */
function serverRows(cfg: Settings, r: Result): [string, string][] {
  const { mock: m, bare: b, post } = r;
  return [
    [
      'machine',
      `${r.machine.cores} cores, Node ${r.machine.node}, ${cfg.rounds} alternating rounds of ${cfg.byAmount ? `${SMOKE_REQUESTS} requests` : `${cfg.durationS} s`} (${r.machine.preset})`,
    ],
    ['ceiling (headline)', `${CEILINGS.headline}; second row: ${CEILINGS.headerless}`],
    ["bare node:http GET, the mock's request", `${rpsOf(b)}, p99 ${b.p99.median} ms, RSS ${b.rssMb.toFixed(0)} MB`],
    ['mock GET catalog.details', `${rpsOf(m)}, p99 ${m.p99.median} ms, RSS ${m.rssMb.toFixed(0)} MB`],
    ['throughput ratio mock/bare', `${fmt(r.throughputRatio)} (goal >= ${GOALS.get.minThroughputRatio})`],
    [
      `CPU per request at ${FIXED_RATE.GET / 1000}k req/s`,
      `mock ${m.cpuUsPerRequest.median.toFixed(1)} us, bare ${b.cpuUsPerRequest.median.toFixed(1)} us; ratio ${fmt(r.cpuPerRequestRatio)} (goal <= ${GOALS.get.maxCpuPerRequestRatio})`,
    ],
    [
      'GET, bare given no headers',
      `bare ${r.headerless.bare.cpuUsPerRequest.median.toFixed(1)} us per request; mock/bare ${ratiosOf(r.headerless)}`,
    ],
    [
      'minimal Fastify GET / bare',
      `${ratiosOf(r.fastifyFloor)} (the framework's floor, both given the mock's request); both given no headers: ${fmt(r.fastifyFloor.headerless.throughputRatio)}, ${fmt(r.fastifyFloor.headerless.cpuPerRequestRatio)}`,
    ],
    ["bare node:http POST, the mock's request", `${rpsOf(post.bare)}, p99 ${post.bare.p99.median} ms`],
    ['mock POST priceAndAvailability', `${rpsOf(post.mock)}, p50 ${post.mock.p50.median} ms, p99 ${post.mock.p99.median} ms`],
    ['POST throughput ratio mock/bare', `${fmt(post.throughputRatio)} (goal >= ${GOALS.post.minThroughputRatio})`],
    [
      `POST CPU per request at ${FIXED_RATE.POST / 1000}k req/s`,
      `mock ${post.mock.cpuUsPerRequest.median.toFixed(1)} us, bare ${post.bare.cpuUsPerRequest.median.toFixed(1)} us; ratio ${fmt(post.cpuPerRequestRatio)}`,
    ],
    [
      'POST, bare given no headers',
      `bare ${post.headerless.bare.cpuUsPerRequest.median.toFixed(1)} us per request; mock/bare ${ratiosOf(post.headerless)}`,
    ],
    ['mock start', `${m.startMs.toFixed(0)} ms`],
  ];
}

/** The table's rows of the harness's own tools. */
function toolRows(cfg: Settings, r: Result): [string, string][] {
  const { certify, probe } = r;
  return [
    [
      'certify wall time (mock)',
      `${certify.wallS.toFixed(1)} s (suite ${certify.suiteS.toFixed(1)} s; ${Object.entries(certify.perFileS)
        .map(([k, v]) => `${k} ${v.toFixed(1)} s`)
        .join(', ')})${cfg.smoke ? ' one check only' : ''}`,
    ],
    [
      'probe all operations',
      `${probe.operations} ops, ${probe.requests} requests, ${probe.durationMs} ms for a ${cfg.probeWindowMs} ms window; exhaustion ${probe.exhaustionRequests} requests for a bound of ${probe.exhaustionBoundLPlus1} (sum of L+1), ${probe.pollRequests} reset polls; window error <= ${probe.maxAbsWindowErrorMs} ms; reset error ${probe.resetErrorMs.min}..${probe.resetErrorMs.max} ms${probe.unresolved.length ? `; exit 99: ${probe.unresolved.join(', ')}` : ''}`,
    ],
    ['bundle all load scripts', `${fmt(r.bundleMs, 0)} ms`],
    ['import a 1 MB OpenAPI document', `${r.openapiImport.sizeMb.toFixed(2)} MB in ${fmt(r.openapiImport.ms, 0)} ms`],
  ];
}

/** Prints the table; with --json, writes bench.json. */
function report(cfg: Settings, result: Result): void {
  const rows = [...serverRows(cfg, result), ...toolRows(cfg, result)];
  const w = Math.max(...rows.map(([k]) => k.length));
  console.log(`\n${'figure'.padEnd(w)}  value\n${rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`).join('\n')}`);
  if (cfg.json) {
    mkdirSync(cfg.out, { recursive: true });
    writeFileSync(join(cfg.out, 'bench.json'), JSON.stringify(result, null, 2));
    console.log(`bench: wrote ${join(cfg.out, 'bench.json')}`);
  }
}

/** The default run: the servers' rounds, then the tools' figures, then the table. */
async function benchmark(cfg: Settings, mockJs: string, work: string, progress: Progress): Promise<void> {
  const servers = await startServers(mockJs);
  try {
    const measured = await measureServers(cfg, servers, progress);
    await stopServers(servers);
    report(cfg, summarise(cfg, measured, await measureTools(cfg, work, progress)));
  } finally {
    await stopServers(servers);
  }
}

/** Runs the benchmark the settings ask for: the default table, --profile or --instructions. */
export async function runBench(cfg: Settings): Promise<void> {
  const progress: Progress = (m) => process.stderr.write(`bench: ${m}\n`);
  const work = mkdtempSync(join(tmpdir(), 'bench-'));
  try {
    // The mock is bundled to plain JavaScript first: no TypeScript loader in the measured process, and
    // the pid read from /proc is the server's own.
    const mockJs = await bundleMock(work);
    if (cfg.profile) await profileMock(cfg, mockJs, progress);
    else if (cfg.instructions) await instructionCounts(cfg, mockJs, progress);
    else await benchmark(cfg, mockJs, work, progress);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

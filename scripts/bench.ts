/**
 * `npm run bench [-- --quick] [--json]`: mock throughput against a bare node:http ceiling (same load
 * generator, alternating rounds), server CPU per request at a fixed rate, certify wall time, probe
 * efficiency and bundle time. Prints one table; --json writes reports/bench.json. Never a CI gate.
 */
import autocannon from 'autocannon';
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { knownIds, requestBody, validQuery } from '../fixtures';
import { imHeadersFrom } from '../clients/config';
import { startServer, cpuSeconds, rssMb, type Server } from '../bench/proc';
import { buildLoadScripts } from './load-build';
import { K6_DOUBLE_BIN } from '../tools/k6-node';

const QUICK = process.argv.includes('--quick');
const JSON_OUT = process.argv.includes('--json');
const ROUNDS = QUICK ? 1 : 3;
const DURATION_S = QUICK ? 2 : 8;
const CONNECTIONS = 50;
const FIXED_RATE = 15_000;
const TSX = 'node_modules/tsx/dist/cli.mjs';

interface Round {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function load(
  url: string,
  headers: Record<string, string>,
  opts: { method?: 'GET' | 'POST'; body?: string; rate?: number } = {},
): Promise<Round> {
  const r = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION_S,
    headers,
    method: opts.method ?? 'GET',
    ...(opts.body ? { body: opts.body } : {}),
    ...(opts.rate ? { overallRate: opts.rate } : {}),
  });
  if (r.non2xx > 0) throw new Error(`${url}: ${r.non2xx} non-2xx answers during the benchmark (a 429 means the limits were too low)`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, requests: r.requests.total };
}

async function token(base: string): Promise<string> {
  const r = await fetch(`${base}/oauth/oauth20/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&client_id=demo-reseller&client_secret=demo-reseller-secret',
  });
  return ((await r.json()) as { access_token: string }).access_token;
}

async function cpuPerRequest(s: Server, url: string, headers: Record<string, string>): Promise<number> {
  const before = cpuSeconds(s.pid);
  const r = await load(url, headers, { rate: FIXED_RATE });
  return ((cpuSeconds(s.pid) - before) / r.requests) * 1e6;
}

async function main(): Promise<void> {
  const progress = (m: string) => process.stderr.write(`bench: ${m}\n`);
  // The mock is bundled to plain JavaScript first: no TypeScript loader in the measured process, and
  // the pid read from /proc is the server's own.
  const mockJs = join('dist', 'bench', 'mock-server.mjs');
  await build({
    entryPoints: ['bench/mock-server.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile: mockJs,
    logLevel: 'error',
    absWorkingDir: process.cwd(),
  });
  const mock = await startServer([mockJs]);
  // The published IM-* headers (mock defaults), so the measured path is the 2xx one, not the missing-header 400.
  const bearer = {
    ...imHeadersFrom({}),
    'IM-CorrelationID': '00000000-0000-4000-8000-00000000b0b0',
    authorization: `Bearer ${await token(mock.url)}`,
  };
  const path = `/resellers/v6/catalog/details/${knownIds().partNumber}`;
  const sample = await fetch(`${mock.url}${path}`, { headers: bearer });
  const size = (await sample.text()).length;
  const bare = await startServer(['bench/bare-server.mjs', String(size)]);
  const mockRounds: Round[] = [];
  const bareRounds: Round[] = [];
  try {
    await load(`${mock.url}${path}`, bearer); // warm-up of both, so the JIT is not measured
    await load(`${bare.url}${path}`, {});
    for (let i = 0; i < ROUNDS; i++) {
      progress(`round ${i + 1}/${ROUNDS}: bare node:http`);
      bareRounds.push(await load(`${bare.url}${path}`, {}));
      progress(`round ${i + 1}/${ROUNDS}: mock (GET catalog.details, accounting on)`);
      mockRounds.push(await load(`${mock.url}${path}`, bearer));
    }
    progress(`POST catalog.priceAndAvailability on the mock`);
    const post = await load(
      `${mock.url}/resellers/v6/catalog/priceandavailability?${new URLSearchParams(validQuery('catalog.priceAndAvailability')).toString()}`,
      { ...bearer, 'content-type': 'application/json' },
      { method: 'POST', body: JSON.stringify(requestBody('catalog.priceAndAvailability')) },
    );
    progress(`CPU per request at ${FIXED_RATE} req/s`);
    const cpuBare = await cpuPerRequest(bare, `${bare.url}${path}`, {});
    const cpuMock = await cpuPerRequest(mock, `${mock.url}${path}`, bearer);
    const rss = { mock: rssMb(mock.pid), bare: rssMb(bare.pid) };
    await mock.stop();
    await bare.stop();

    progress('certify wall time on the embedded mock');
    const out = mkdtempSync(join(tmpdir(), 'bench-certify-'));
    const started = Date.now();
    const c = spawnSync(process.execPath, [TSX, 'scripts/certify.ts'], {
      env: { ...process.env, REPORTS_DIR: out, CI: '' },
      encoding: 'utf8',
    });
    const certifyS = (Date.now() - started) / 1000;
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
      durationMs: number;
      timings: Record<string, number>;
      verdict: string;
    };

    progress('probe efficiency (probe-reset in the k6 test double, window 2000 ms, random limits)');
    const lout = mkdtempSync(join(tmpdir(), 'bench-load-'));
    const windowMs = 2000;
    const p = spawnSync(
      process.execPath,
      [
        TSX,
        'scripts/load.ts',
        'probe-reset',
        '--window-ms',
        String(windowMs),
        '--random-limits',
        '11',
        '--reports-dir',
        lout,
        '--bundle-dir',
        join(lout, 'bundles'),
      ],
      { encoding: 'utf8', env: { ...process.env, K6_BIN: K6_DOUBLE_BIN } },
    );
    const manifest = JSON.parse(readFileSync(join(lout, 'limits.json'), 'utf8')) as {
      operations: {
        id: string;
        observedLimit: number;
        advertisedLimit: number;
        requestsSpent: number;
        resetErrorMs: number | null;
        windowMs: number | null;
      }[];
      durationMs: number;
      requests: number;
    };
    const timeline = JSON.parse(readFileSync(join(lout, 'probe-timeline.json'), 'utf8')) as {
      operations: { samples: { status: number }[] }[];
    };
    // Requests of the exhaustion phase (up to the first 429) versus the bound L+1.
    const exhaustion = timeline.operations.map((o) => o.samples.findIndex((x) => x.status === 429) + 1);
    const bound = manifest.operations.reduce((a, e) => a + e.advertisedLimit + 1, 0);
    const bundle = await buildLoadScripts(join(lout, 'bundle-timing'));

    const mockMed = median(mockRounds.map((r) => r.rps));
    const bareMed = median(bareRounds.map((r) => r.rps));
    const result = {
      machine: {
        cores: cpus().length,
        node: process.version,
        quick: QUICK,
        rounds: ROUNDS,
        durationS: DURATION_S,
        connections: CONNECTIONS,
      },
      throughputRatio: mockMed / bareMed,
      cpuPerRequestRatio: cpuMock / cpuBare,
      mock: {
        rps: mockMed,
        p50: median(mockRounds.map((r) => r.p50)),
        p99: median(mockRounds.map((r) => r.p99)),
        rssMb: rss.mock,
        cpuUsPerRequest: cpuMock,
        startMs: Number(/startMs=([\d.]+)/.exec(mock.extra)?.[1] ?? NaN),
      },
      bare: {
        rps: bareMed,
        p50: median(bareRounds.map((r) => r.p50)),
        p99: median(bareRounds.map((r) => r.p99)),
        rssMb: rss.bare,
        cpuUsPerRequest: cpuBare,
      },
      post: { rps: post.rps, p50: post.p50, p99: post.p99 },
      certify: {
        wallS: certifyS,
        suiteS: summary.durationMs / 1000,
        verdict: summary.verdict,
        perFileS: Object.fromEntries(Object.entries(summary.timings).map(([k, v]) => [k, v / 1000])),
        exit: c.status,
      },
      probe: {
        exit: p.status,
        operations: manifest.operations.length,
        requests: manifest.requests,
        durationMs: manifest.durationMs,
        windowMs,
        exhaustionRequests: exhaustion.reduce((a, b) => a + b, 0),
        exhaustionBoundLPlus1: bound,
        pollRequests: manifest.requests - exhaustion.reduce((a, b) => a + b, 0),
        maxAbsWindowErrorMs: Math.max(...manifest.operations.map((e) => Math.abs((e.windowMs ?? NaN) - windowMs))),
        resetErrorMs: {
          min: Math.min(...manifest.operations.map((e) => e.resetErrorMs ?? NaN)),
          max: Math.max(...manifest.operations.map((e) => e.resetErrorMs ?? NaN)),
        },
      },
      bundleMs: bundle.ms,
    };
    const rows: [string, string][] = [
      ['machine', `${result.machine.cores} cores, Node ${result.machine.node}${QUICK ? ' (quick)' : ''}`],
      [
        'bare node:http GET',
        `${bareMed.toFixed(0)} req/s, p50 ${result.bare.p50} ms, p99 ${result.bare.p99} ms, RSS ${rss.bare.toFixed(0)} MB`,
      ],
      [
        'mock GET catalog.details',
        `${mockMed.toFixed(0)} req/s, p50 ${result.mock.p50} ms, p99 ${result.mock.p99} ms, RSS ${rss.mock.toFixed(0)} MB`,
      ],
      ['throughput ratio mock/bare', `${result.throughputRatio.toFixed(2)} (goal >= 0.8)`],
      [
        'CPU per request at 15k req/s',
        `mock ${cpuMock.toFixed(1)} us, bare ${cpuBare.toFixed(1)} us, ratio ${result.cpuPerRequestRatio.toFixed(2)} (goal <= 1.25)`,
      ],
      ['mock POST priceAndAvailability', `${post.rps.toFixed(0)} req/s, p50 ${post.p50} ms, p99 ${post.p99} ms`],
      ['mock start', `${result.mock.startMs.toFixed(0)} ms`],
      [
        'certify wall time (mock)',
        `${certifyS.toFixed(1)} s (suite ${result.certify.suiteS.toFixed(1)} s; ${Object.entries(result.certify.perFileS)
          .map(([k, v]) => `${k} ${v.toFixed(1)} s`)
          .join(', ')})`,
      ],
      [
        'probe all operations',
        `${manifest.operations.length} ops, ${manifest.requests} requests, ${manifest.durationMs} ms for a ${windowMs} ms window; exhaustion ${result.probe.exhaustionRequests} requests for a bound of ${bound} (sum of L+1), ${result.probe.pollRequests} reset polls; window error <= ${result.probe.maxAbsWindowErrorMs} ms; reset error ${result.probe.resetErrorMs.min}..${result.probe.resetErrorMs.max} ms`,
      ],
      ['bundle all load scripts', `${bundle.ms.toFixed(0)} ms`],
    ];
    const w = Math.max(...rows.map(([k]) => k.length));
    console.log(`\n${'figure'.padEnd(w)}  value\n${rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`).join('\n')}`);
    if (JSON_OUT) {
      mkdirSync('reports', { recursive: true });
      writeFileSync('reports/bench.json', JSON.stringify(result, null, 2));
      console.log('bench: wrote reports/bench.json');
    }
  } finally {
    await mock.stop().catch(() => undefined);
    await bare.stop().catch(() => undefined);
  }
}

main().catch((e: Error) => {
  console.error(`bench: ${e.message}`);
  process.exit(1);
});

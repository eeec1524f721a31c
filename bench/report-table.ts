/** The benchmark's table (and bench.json with --json). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXED_RATE, GOALS, SMOKE_REQUESTS, type BenchOptions } from './bench-options';
import { fmt, type Spread } from './spread';
import { CEILINGS, type Result } from './result';

const rpsOf = (s: { rps: Spread }) => `${s.rps.median.toFixed(0)} req/s (${s.rps.min.toFixed(0)}–${s.rps.max.toFixed(0)})`;
const ratiosOf = (r: { throughputRatio: Spread; cpuPerRequestRatio: Spread }) =>
  `throughput ratio ${fmt(r.throughputRatio)}, CPU per request ratio ${fmt(r.cpuPerRequestRatio)}`;

/** The table's rows of the servers: the headline figures against their goals, the header-less row beside. */
function serverRows(opts: BenchOptions, r: Result): [string, string][] {
  const { mock: m, bare: b, post } = r;
  return [
    [
      'machine',
      `${r.machine.cores} cores, Node ${r.machine.node}, ${opts.rounds} alternating rounds of ${opts.byAmount ? `${SMOKE_REQUESTS} requests` : `${opts.durationS} s`} (${r.machine.preset})`,
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
function toolRows(opts: BenchOptions, r: Result): [string, string][] {
  const { certify, probe } = r;
  return [
    [
      'certify wall time (mock)',
      `${certify.wallS.toFixed(1)} s (suite ${certify.suiteS.toFixed(1)} s; ${Object.entries(certify.perFileS)
        .map(([k, v]) => `${k} ${v.toFixed(1)} s`)
        .join(', ')})${opts.smoke ? ' one check only' : ''}`,
    ],
    ...r.remoteCertify.map((f): [string, string] => [
      `certify wall time (${f.delayMs} ms away)`,
      `${f.wallS.toFixed(1)} s, exit ${f.exit}, ${f.failed} failed of ${f.judged} judged; ${f.requests.sent} requests (planned ${f.requests.planned}); ` +
        `${f.pace ? `${f.pace.workers} workers, up to ${f.pace.atOnce} calls at once, median RTT ${Math.round(f.pace.medianRttMs ?? 0)} ms` : 'no pace'}; ` +
        `critical path ${f.criticalPath ? `${f.criticalPath.s.toFixed(1)} s (${f.criticalPath.test.slice(0, 60)})` : '—'}; ` +
        `start-up ${f.timeline.startUpS} s, tests ${f.timeline.testsS} s (per worker busy ${f.timeline.workers.map((w) => w.busyS).join('/')} s, ` +
        `idle between tests ${f.timeline.workers.map((w) => w.gapsS).join('/')} s)${opts.smoke ? ' one check only' : ''}`,
    ]),
    [
      'probe all operations',
      `${probe.operations} ops, ${probe.requests} requests, ${probe.durationMs} ms for a ${opts.probeWindowMs} ms window; exhaustion ${probe.exhaustionRequests} requests for a bound of ${probe.exhaustionBoundLPlus1} (sum of L+1), ${probe.pollRequests} reset polls; window error <= ${probe.maxAbsWindowErrorMs} ms; reset error ${probe.resetErrorMs.min}..${probe.resetErrorMs.max} ms${probe.unresolved.length ? `; exit 99: ${probe.unresolved.join(', ')}` : ''}`,
    ],
    ['bundle all load scripts', `${fmt(r.bundleMs, 0)} ms`],
    ['import a 1 MB OpenAPI document', `${r.openapiImport.sizeMb.toFixed(2)} MB in ${fmt(r.openapiImport.ms, 0)} ms`],
  ];
}

/** Prints the table; with --json, writes bench.json. */
export function reportTable(opts: BenchOptions, result: Result): void {
  const rows = [...serverRows(opts, result), ...toolRows(opts, result)];
  const w = Math.max(...rows.map(([k]) => k.length));
  console.log(`\n${'figure'.padEnd(w)}  value\n${rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`).join('\n')}`);
  if (opts.json) {
    mkdirSync(opts.out, { recursive: true });
    writeFileSync(join(opts.out, 'bench.json'), JSON.stringify(result, null, 2));
    console.log(`bench: wrote ${join(opts.out, 'bench.json')}`);
  }
}

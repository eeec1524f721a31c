/** --profile: the mock and the bare server under load in Node's CPU profiler. */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startServer, type Server } from './proc';
import { formatSummary, sourceMapOf, summariseProfile, type CpuProfile, type ProfileSummary } from './profile';
import { SMOKE_REQUESTS, type Progress, type BenchOptions } from './bench-options';
import { answerSize, headerlessSide, loadRound, loadOf, mockSides, type Round, type Side } from './server-load';

/** Monotonic µs, the clock of a CPU profile's samples (the same clock in every process of the machine). */
const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

/**
 * --profile: the mock under GET load, then a fresh mock under POST load, each in Node's --cpu-prof, and
 * the bare server likewise for reference; the profiles and a summary of their samples during the load
 * (top frames, busy µs per request) go to <out>/profile/.
 */
export async function profileMock(opts: BenchOptions, mockJs: string, progress: Progress): Promise<void> {
  const dir = join(opts.out, 'profile');
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
      if (!opts.smoke) await loadOf(opts, side); // warm-up: the profile shows the steady state, not the JIT
      progress(`profiling ${name} (${opts.byAmount ? `${SMOKE_REQUESTS} requests` : `${opts.profileS} s`})`);
      const fromUs = monotonicUs();
      r = await loadRound(opts, side.url, side.headers, {
        method: side.method,
        ...(side.body ? { body: side.body } : {}),
        durationS: opts.profileS,
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

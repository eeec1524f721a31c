/** The servers' rounds: the mock, the bare server and the minimal Fastify server, started, loaded in alternating rounds, stopped. */
import { startServer, rssMb, type Server } from './proc';
import { FIXED_RATE, type Progress, type BenchOptions } from './bench-options';
import { answerSize, cpuPerRequest, headerlessSide, loadOf, mockSides, sameRequestSide, type Round, type Side } from './server-load';

/** One round of several servers: each one's load at full speed and its CPU µs per request at the fixed rate. */
export type RoundOf<K extends string> = Record<K, { load: Round; cpu: number }>;

/**
 * Throughput and CPU per request of several servers in alternating rounds (the order is reversed every
 * round, so a drift of the machine does not favour one side): every ratio is taken within a round.
 */
async function serverRounds<K extends string>(opts: BenchOptions, sides: [K, Side][], progress: Progress): Promise<RoundOf<K>[]> {
  const rounds: RoundOf<K>[] = [];
  for (let i = 0; i < opts.rounds; i++) {
    const order = i % 2 ? [...sides].reverse() : sides;
    const load: Partial<Record<K, Round>> = {};
    const cpu: Partial<Record<K, number>> = {};
    for (const [name, side] of order) {
      progress(`round ${i + 1}/${opts.rounds}: ${name} ${side.method} throughput`);
      load[name] = await loadOf(opts, side);
    }
    for (const [name, side] of order) {
      progress(`round ${i + 1}/${opts.rounds}: ${name} ${side.method} CPU per request at ${FIXED_RATE[side.method]} req/s`);
      cpu[name] = await cpuPerRequest(opts, side);
    }
    rounds.push(Object.fromEntries(sides.map(([name]) => [name, { load: load[name] as Round, cpu: cpu[name] as number }])) as RoundOf<K>);
  }
  return rounds;
}

/** The measured servers, started from the bundled mock, and the mock's GET and POST calls. */
interface Servers {
  mock: Server;
  bare: Server;
  floor: Server;
  get: Side;
  post: Side;
}

export async function startServers(mockJs: string): Promise<Servers> {
  const mock = await startServer([mockJs]);
  const { get, post } = await mockSides(mock);
  const bare = await startServer(['bench/bare-server.mjs', String(await answerSize(get)), String(await answerSize(post))]);
  const floor = await startServer(['bench/fastify-floor.mjs', String(await answerSize(get))]);
  return { mock, bare, floor, get, post };
}

export async function stopServers(s: Servers): Promise<void> {
  await s.mock.stop().catch(() => undefined);
  await s.floor.stop().catch(() => undefined);
  await s.bare.stop().catch(() => undefined);
}

/**
 * The servers' rounds. The headline ceiling is the bare server given the mock's very request (`bare`); the
 * same server given no headers (`bare, no headers`) is the second row, and a minimal Fastify server (the
 * framework's floor) is measured given either request.
 */
export async function measureServers(opts: BenchOptions, s: Servers, progress: Progress) {
  if (!opts.smoke) {
    // Warm-up of every server, so the JIT is not measured.
    for (const side of [s.get, sameRequestSide(s.bare, s.get), s.post, sameRequestSide(s.bare, s.post), sameRequestSide(s.floor, s.get)])
      await loadOf(opts, side);
  }
  const get = await serverRounds(
    opts,
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
    opts,
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

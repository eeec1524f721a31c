/** --instructions: the mock and its ceilings counted under callgrind, and the counts' table. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type Server } from './proc';
import { countInstructions, hasCallgrind, type InstructionCount } from './instructions';
import type { Progress, BenchOptions } from './bench-options';
import { answerSize, headerlessSide, mockSides, sameRequestSide, type Side } from './server-load';

/**
 * --instructions: the mock, the bare server (with the goals' request, and with the mock's very request) and,
 * for the GET, the minimal Fastify server given the mock's request, each counted under callgrind, two at a time.
 */
export async function instructionCounts(opts: BenchOptions, mockJs: string, progress: Progress): Promise<void> {
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
    progress(`callgrind: ${name} (${opts.instructionPreset.warm} answers, then ${opts.instructionPreset.count} counted)`);
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
      opts.instructionPreset,
    );
  };
  // The mock first (its token), then two at a time: callgrind runs one thread, the machine has two cores.
  await run(jobs[0] as Job);
  const rest = jobs.slice(1);
  for (let i = 0; i < rest.length; i += 2) await Promise.all(rest.slice(i, i + 2).map(run));
  reportInstructions(opts, counts);
}

/** Prints the instruction counts and their ratios; with --json, writes instructions.json. */
function reportInstructions(opts: BenchOptions, counts: Record<string, InstructionCount>): void {
  const k = (n: number) => `${(n / 1000).toFixed(1)}k`;
  /** Instructions per request without the optimising compiler's (it only runs while the JIT settles). */
  const of = (name: string) => {
    const c = counts[name] as InstructionCount;
    return { perRequest: c.perRequest - c.compilerPerRequest };
  };
  const rows: [string, string][] = [
    ['callgrind window', `${opts.instructionPreset.count} requests after ${opts.instructionPreset.warm}, one connection`],
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
  if (opts.json) {
    mkdirSync(opts.out, { recursive: true });
    writeFileSync(join(opts.out, 'instructions.json'), JSON.stringify({ preset: opts.instructionPreset, counts }, null, 2));
    console.log(`bench: wrote ${join(opts.out, 'instructions.json')}`);
  }
}

/**
 * Instructions per request of a server: a figure that does not depend on what else the machine runs.
 *
 * The server runs under valgrind's callgrind; one connection sends requests back to back (one request per
 * wake-up of the server, as at a modest fixed rate); after `warm` answers the counters are zeroed, after
 * `count` more they are dumped, so start-up, the JIT's warm-up and the connection's set-up stay out. Until
 * the counters are zeroed callgrind does not instrument at all, so start-up and warm-up run about three times
 * faster (the bare server's GET then read 62.7k instructions where instrumenting from the start read 63.1k). The
 * figure counts user-space instructions of every thread (the garbage collector's too), not the kernel's, nor
 * cache misses: it ranks changes of the code exactly (runs agree within about 1 %), it is not time.
 * V8's optimising compiler (TurboFan), when it still runs in the window, is counted apart, and so is the
 * garbage collector (a major collection inside a short window shows there, not spread as it is in a long run).
 */
import autocannon from 'autocannon';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type Server } from './proc';

export interface InstructionCount {
  /** Instructions per request in the measured window. */
  perRequest: number;
  /** Of which V8's optimising compiler (functions of its `compiler::` namespace). */
  compilerPerRequest: number;
  /** Of which the garbage collector (V8's heap functions: scavenges, marking, sweeping). */
  gcPerRequest: number;
  requests: number;
}

/** V8's garbage collector: its heap namespace and the collectors' classes. */
const GC_FUNCTION =
  /v8::internal::(heap::|Heap::|Scaveng|MarkCompact|MinorMarkCompact|ConcurrentMarking|Sweeper|MarkingVisitor|IncrementalMarking)/;

/** Totals of a callgrind dump: every instruction, and those of V8's optimising compiler and of its garbage collector. */
export function callgrindTotals(text: string): { total: number; compiler: number; gc: number } {
  let total = 0;
  let compiler = 0;
  let gc = 0;
  let inCompiler = false;
  let inGc = false;
  let afterCalls = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('fn=')) {
      inCompiler = line.includes('compiler::');
      inGc = !inCompiler && GC_FUNCTION.test(line);
      continue;
    }
    if (line.startsWith('calls=')) {
      afterCalls = true; // the next cost line is a call's inclusive cost, not the function's own
      continue;
    }
    const c = /^[+\-*]?\d+ (\d+)/.exec(line);
    if (!c) continue;
    if (afterCalls) {
      afterCalls = false;
      continue;
    }
    const n = Number(c[1]);
    total += n;
    if (inCompiler) compiler += n;
    if (inGc) gc += n;
  }
  return { total, compiler, gc };
}

/** The load's request: where to, and what to send. */
export interface Call {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

/** Is callgrind here? */
export const hasCallgrind = (): boolean =>
  spawnSync('valgrind', ['--version'], { encoding: 'utf8' }).status === 0 &&
  spawnSync('callgrind_control', ['--version'], { encoding: 'utf8' }).status === 0;

/**
 * Counts the instructions per request of `node <args>` under callgrind, for the call `callOf` gives once
 * the server listens.
 */
export async function countInstructions(
  args: string[],
  callOf: (s: Server) => Promise<Call>,
  o: { warm: number; count: number; lowPriority?: boolean },
): Promise<InstructionCount> {
  const dir = mkdtempSync(join(tmpdir(), 'callgrind-'));
  const server = await startServer(args, {
    // nice execs valgrind: the process stays the server's.
    wrapper: [
      ...(o.lowPriority ? ['nice', '-n', '19'] : []),
      'valgrind',
      '-q',
      '--tool=callgrind',
      `--callgrind-out-file=${join(dir, 'out')}`,
      '--dump-instr=no',
      '--compress-strings=no',
      // Nothing before the counters start is counted: no need to pay for simulating it.
      '--instr-atstart=no',
    ],
    startS: 180,
  });
  const control = (flag: '--instr=on' | '-z' | '-d'): void => {
    const c = spawnSync('callgrind_control', [flag, String(server.pid)], { encoding: 'utf8', timeout: 120_000 });
    if (c.status !== 0) throw new Error(`callgrind_control ${flag} ${server.pid}: ${c.stdout}${c.stderr}`);
  };
  try {
    const call = await callOf(server);
    let answered = 0;
    // The harness blocks in callgrind_control at each mark: the request then in flight straddles it (one in `count`).
    await new Promise<void>((resolve, reject) => {
      const instance = autocannon(
        {
          url: call.url,
          method: call.method,
          headers: call.headers,
          ...(call.body ? { body: call.body } : {}),
          connections: 1,
          amount: o.warm + o.count + 10,
          timeout: 120,
        },
        (err) => (err ? reject(err) : reject(new Error(`the load ended after ${answered} answers`))),
      );
      instance.on('response', (_client: unknown, status: number) => {
        if (status >= 300) {
          instance.stop();
          return reject(new Error(`${call.method} ${call.url}: status ${status}`));
        }
        answered += 1;
        try {
          if (answered === o.warm) {
            control('--instr=on');
            control('-z');
          }
          if (answered === o.warm + o.count) {
            control('-d');
            resolve();
            instance.stop();
          }
        } catch (e) {
          instance.stop();
          reject(e as Error);
        }
      });
    });
    const dumps = readdirSync(dir).filter((f) => f.startsWith('out.'));
    if (dumps.length !== 1) throw new Error(`callgrind wrote ${dumps.length} dumps in ${dir}, expected one`);
    const { total, compiler, gc } = callgrindTotals(readFileSync(join(dir, dumps[0] as string), 'utf8'));
    return { perRequest: total / o.count, compilerPerRequest: compiler / o.count, gcPerRequest: gc / o.count, requests: o.count };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Stalls injected into a running probe: the embedded mock (a child process of `npm run load`) is stopped with
 * SIGSTOP for a few hundred ms at random moments, then continued (SIGCONT), as a busy machine or a stalled
 * gateway would hold its answers. Bounded: at most `maxStalls` stalls, each at most `maxMs`, never after the
 * run ends; the mock is always continued.
 *
 * By hand, with a real k6 (the figures in BENCHMARKS.md):
 *   K6_BIN=/path/to/k6 npx tsx tests/load/stall-injector.ts -- probe-reset --window-ms 2000 ...
 * runs `npm run load -- <args>` with stalls and prints the stalls it injected.
 */
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

export interface StallOptions {
  /** Shortest and longest stall, ms. Default 150..500. */
  minMs?: number;
  maxMs?: number;
  /** Shortest and longest gap between stalls, ms. Default 1000..4000. */
  minGapMs?: number;
  maxGapMs?: number;
  /** Most stalls in one run. Default 40. */
  maxStalls?: number;
  /** A number in [0, 1) per call: seeded in tests. */
  random?: () => number;
}

export interface Stall {
  /** ms after the injector found the mock. */
  atMs: number;
  ms: number;
}

/** The child processes of `pid` (Linux /proc). */
function childrenOf(pid: number): { pid: number; cmdline: string }[] {
  const out: { pid: number; cmdline: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push({ pid: Number(entry), cmdline: readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ') });
    } catch {
      // The process ended meanwhile.
    }
  }
  return out;
}

/** The embedded mock among the children of a `npm run load` process (it is started with `--window-ms`). */
export function findMock(loadPid: number): number | null {
  return childrenOf(loadPid).find((c) => /\bmock\b/.test(c.cmdline) && c.cmdline.includes('--window-ms'))?.pid ?? null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Stops and continues the mock of the `npm run load` process `loadPid` until `running()` turns false or the
 * stalls are spent. Resolves with the stalls injected.
 */
export async function injectStalls(loadPid: number, running: () => boolean, o: StallOptions = {}): Promise<Stall[]> {
  const random = o.random ?? Math.random;
  const between = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  let mock: number | null = null;
  // The mock starts while the bundles are built: look for it for up to 20 s.
  for (let i = 0; i < 200 && running() && mock === null; i++) {
    mock = findMock(loadPid);
    if (mock === null) await sleep(100);
  }
  const stalls: Stall[] = [];
  if (mock === null) return stalls;
  const t0 = Date.now();
  while (running() && stalls.length < (o.maxStalls ?? 40)) {
    await sleep(between(o.minGapMs ?? 1000, o.maxGapMs ?? 4000));
    if (!running()) break;
    const ms = between(o.minMs ?? 150, o.maxMs ?? 500);
    try {
      process.kill(mock, 'SIGSTOP');
    } catch {
      break; // the mock ended
    }
    stalls.push({ atMs: Date.now() - t0, ms });
    try {
      await sleep(ms);
    } finally {
      try {
        process.kill(mock, 'SIGCONT');
      } catch {
        // ended while stopped
      }
    }
  }
  return stalls;
}

export interface StalledRun {
  code: number | null;
  stdout: string;
  stderr: string;
  stalls: Stall[];
}

/** Runs `cmd args` (a `npm run load` command line) with stalls injected into its mock; killed after `timeoutMs`. */
export function runWithStalls(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  o: StallOptions = {},
): Promise<StalledRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env });
    let stdout = '';
    let stderr = '';
    let running = true;
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const injected = injectStalls(child.pid as number, () => running, o);
    child.on('error', reject);
    child.on('close', (code) => {
      running = false;
      clearTimeout(timer);
      void injected.then((stalls) => resolve({ code, stdout, stderr, stalls }));
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--');
  const args = process.argv.slice(at === -1 ? 2 : at + 1);
  runWithStalls(process.execPath, ['--import', 'tsx', 'scripts/load.ts', ...args], process.env, 30 * 60_000)
    .then((r) => {
      process.stdout.write(r.stdout);
      process.stderr.write(r.stderr);
      console.log(`stalls injected into the mock (${r.stalls.length}): ${r.stalls.map((s) => `${s.ms} ms at +${s.atMs} ms`).join(', ')}`);
      process.exitCode = r.code ?? 1;
    })
    .catch((e: Error) => {
      console.error(e.message);
      process.exitCode = 1;
    });
}

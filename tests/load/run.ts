/**
 * Runs `npm run load` (scripts/load.ts) and k6 as child processes, with the k6 under test as K6_BIN: the one
 * K6_BIN names in the environment (a real k6), else the double.
 */
import { spawn } from 'node:child_process';
import { cliArgs, inBackground, k6DoubleBin, k6UnderTest } from '../cli-bundles';

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Spawns and collects; killed after timeoutMs. `background`: at a lower priority (cli-bundles.ts inBackground). */
export function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 90_000, background = false): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: { ...process.env, K6_BIN: k6UnderTest(), ...env } });
    if (background) inBackground(child.pid);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * `npm run load -- <args>` with reports under `dir`. Bundles: the run's own when LOAD_BUNDLE_DIR is
 * set (built once, reused with --skip-build), else built into `dir`.
 */
export function load(dir: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  const shared = process.env.LOAD_BUNDLE_DIR;
  const bundles = shared ? ['--bundle-dir', shared, '--skip-build'] : ['--bundle-dir', `${dir}/bundles`];
  const reports = args.includes('--reports-dir') ? [] : ['--reports-dir', `${dir}/reports`];
  return run(process.execPath, [...cliArgs('load'), ...args, ...bundles, ...reports], env);
}

/** The k6 double's command line. */
export const k6 = (args: string[], env: NodeJS.ProcessEnv = {}) => run(k6UnderTest(), args, env);

/**
 * Whether the load tests run on the double (no K6_BIN given). A test whose exact figure only the double can promise
 * (its single-threaded schedule) asserts it there, and on a real k6 asserts what k6 promises instead.
 */
export const onDouble = (): boolean => k6UnderTest() === k6DoubleBin();

/** k6 itself: where it is, its command line, its process (spawned asynchronously; the exit code is k6's). */
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { LoadOptions } from './load-options';

export const K6_HELP = [
  'k6 was not found: set K6_BIN to the k6 binary or put k6 on PATH (k6 v0.46 or later, v1.x included).',
  '  Install: https://grafana.com/docs/k6/latest/set-up/install-k6/',
  '  Docker:  docker run --rm -i --network host -v "$PWD:/work" -w /work grafana/k6 run dist/load/<script>.js',
  '  GitHub Actions: grafana/setup-k6-action',
].join('\n');

/** The k6 executable: K6_BIN when set (it must exist and be executable), else `k6` on PATH. */
export function findK6(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const executable = (p: string) => {
    try {
      accessSync(p, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (env.K6_BIN) return executable(env.K6_BIN) ? env.K6_BIN : undefined;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    const p = join(dir, 'k6');
    if (dir && executable(p)) return p;
  }
  return undefined;
}

/** k6's command line for one run. */
export function k6Args(bundle: string, o: LoadOptions, summaryExport: string): string[] {
  // --address '': no REST API, so runs at once do not contend for k6's default port 6565.
  const args = ['run', '--quiet', '--address', '', '--summary-export', summaryExport];
  for (const out of o.out) args.push('--out', out);
  if (o.executionSegment) args.push('--execution-segment', o.executionSegment);
  if (o.executionSegmentSequence) args.push('--execution-segment-sequence', o.executionSegmentSequence);
  args.push(bundle);
  return args;
}

/** k6's exit code for a run stopped from outside (ExternalAbort). */
const EXTERNAL_ABORT = 105;

/**
 * Runs k6 as a child process and resolves with its exit code; the event loop stays free meanwhile.
 * A run longer than maxMs is stopped (SIGTERM, then SIGKILL 10 s later) and ends with 105.
 */
export function runK6(bin: string, args: string[], env: NodeJS.ProcessEnv, maxMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: 'inherit', env });
    let timedOut = false;
    const stop = () => {
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      console.error(`load: k6 ran longer than ${maxMs / 1000} s (--max-duration); stopping it`);
      stop();
    }, maxMs);
    process.once('SIGTERM', stop);
    child.on('error', (e) => reject(new Error(`could not start k6 (${bin}): ${e.message}`)));
    child.on('exit', (code) => {
      clearTimeout(timer);
      process.off('SIGTERM', stop);
      resolve(timedOut ? EXTERNAL_ABORT : (code ?? EXTERNAL_ABORT));
    });
  });
}

/** The k6 environment: the system's, with the web dashboard options asked for. */
export function k6Environment(o: LoadOptions, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  if (o.webDashboard || o.webDashboardExport) env.K6_WEB_DASHBOARD = 'true';
  if (o.webDashboardExport) env.K6_WEB_DASHBOARD_EXPORT = o.webDashboardExport;
  // Only the report asked for: no dashboard server, so k6 exits when the run ends (k6's advice for CI).
  if (o.webDashboardExport && !o.webDashboard && env.K6_WEB_DASHBOARD_PORT === undefined) env.K6_WEB_DASHBOARD_PORT = '-1';
  return env;
}

/**
 * The mock in its own process, for callers that hand the event loop to something else: `npm run
 * load` starts k6 (or the k6 test double, which waits synchronously for answers) beside it, and a
 * mock sharing their process would stall whenever they block.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { DEFAULT_WINDOW_MS } from '../catalogue';
import { DEFAULT_SEED } from '../fixtures/build-world';
import { MOCK_MAIN } from '../mock/app/main';
import type { RunningMock } from '../mock/app/server';

export interface MockProcessOptions {
  windowMs?: number;
  limits?: Record<string, number>;
  control?: boolean;
  seed?: number;
  /** OpenAPI document whose schemas and examples give the response bodies. */
  openapi?: string;
  /** More `npm run mock` arguments, e.g. `['--reset-unit', 'seconds']`. */
  extraArgs?: string[];
  /**
   * The module the process runs: MOCK_MAIN (default), or a JavaScript bundle of the mock's command line.
   * TypeScript runs through tsx, JavaScript as it is.
   */
  main?: string;
  /** Longest wait for the mock to listen. Default 20 s. */
  startTimeoutMs?: number;
}

/** Node's arguments to run `main`: TypeScript through tsx as an import hook rather than its CLI (one process, which close() stops directly). */
function entry(main: string): string[] {
  if (!main.endsWith('.ts')) return [main];
  const require = createRequire(import.meta.url);
  return ['--import', pathToFileURL(require.resolve('tsx')).href, main];
}

export async function spawnMock(o: MockProcessOptions = {}): Promise<Omit<RunningMock, 'app'>> {
  const args = [
    ...entry(o.main ?? MOCK_MAIN),
    '--port',
    '0',
    '--window-ms',
    String(o.windowMs ?? DEFAULT_WINDOW_MS),
    '--seed',
    String(o.seed ?? DEFAULT_SEED),
  ];
  if (o.limits) args.push('--limits', JSON.stringify(o.limits));
  if (o.control) args.push('--control');
  if (o.openapi) args.push('--openapi', o.openapi);
  if (o.extraArgs) args.push(...o.extraArgs);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the mock did not start within ${o.startTimeoutMs ?? 20_000} ms; output: ${out.slice(-500)}`));
    }, o.startTimeoutMs ?? 20_000);
    const onData = (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1] as string);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the mock exited with code ${code} before listening: ${out.slice(-500)}`));
    });
  });
  return {
    url,
    close: async () => {
      if (child.exitCode !== null) return;
      await new Promise<void>((r) => {
        child.once('exit', () => r());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      });
    },
  };
}

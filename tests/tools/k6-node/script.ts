/** The script: built with its k6 imports re-linked to the shims, imported, and the shape of what it exports. */
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ScenarioConfig } from './executors';
import { EXIT, RunError, TestAbort } from './run-result';

const here = dirname(fileURLToPath(import.meta.url));
const SHIMS: Record<string, string> = {
  k6: join(here, 'modules/k6.ts'),
  'k6/http': join(here, 'modules/http.ts'),
  'k6/metrics': join(here, 'modules/metrics.ts'),
  'k6/execution': join(here, 'modules/execution.ts'),
};

export type ScriptOptions = NonNullable<ScriptModule['options']>;

export interface ScriptModule {
  options?: {
    iterations?: number;
    vus?: number;
    duration?: string;
    scenarios?: Record<string, ScenarioConfig>;
    thresholds?: Record<string, (string | { threshold: string })[]>;
    summaryTrendStats?: string[];
    setupTimeout?: string;
    teardownTimeout?: string;
  };
  setup?: () => unknown;
  teardown?: (d: unknown) => void;
  handleSummary?: (d: unknown) => Record<string, string>;
  [exec: string]: unknown;
}

/**
 * Builds the script with the k6 modules shimmed and imports it. The built file is removed once imported:
 * a run stopped by a signal (k6's --max-duration, a CI timeout) leaves nothing in the temporary folder.
 */
async function load(bundle: string): Promise<ScriptModule> {
  const tmp = mkdtempSync(join(tmpdir(), 'k6-node-'));
  const outfile = join(tmp, 'script.mjs');
  try {
    await build({
      entryPoints: [resolve(bundle)],
      bundle: true,
      format: 'esm',
      platform: 'node',
      outfile,
      logLevel: 'error',
      plugins: [
        {
          name: 'k6-shims',
          setup(b) {
            b.onResolve({ filter: /^k6(\/.*)?$/ }, (args) => {
              const p = SHIMS[args.path];
              if (!p) throw new Error(`k6-node does not implement ${args.path} (see tests/tools/k6-node/README.md)`);
              return { path: p };
            });
          },
        },
      ],
    });
    return (await import(pathToFileURL(outfile).href)) as ScriptModule;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Imports the script; a failure in its init context ends the run as k6's does. */
export async function loadScript(bundle: string): Promise<ScriptModule> {
  try {
    return await load(bundle);
  } catch (e) {
    if (e instanceof TestAbort) throw new RunError(e.message, EXIT.scriptAborted);
    throw new RunError(`the script failed in its init context: ${(e as Error).message}`, EXIT.scriptException);
  }
}

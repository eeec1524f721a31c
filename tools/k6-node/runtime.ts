/**
 * Runs a k6 bundle in Node (test double, see README.md): re-links its k6 imports to the shims,
 * runs setup → iterations of default → teardown → handleSummary and writes the files it returns.
 */
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { configureBridge, stopBridge, requestSync, sleepSync } from './sync-http';
import { execution, metrics, record, resetState, summaryMetrics } from './modules/state';

const here = dirname(fileURLToPath(import.meta.url));
const SHIMS: Record<string, string> = {
  k6: join(here, 'modules/k6.ts'),
  'k6/http': join(here, 'modules/http.ts'),
  'k6/metrics': join(here, 'modules/metrics.ts'),
  'k6/execution': join(here, 'modules/execution.ts'),
};

export interface RunOptions {
  /** __ENV of the script. */
  env: Record<string, string>;
  /** Directory relative file names of handleSummary are written to. Default the process cwd. */
  cwd?: string;
}

export interface RunResult {
  stdout: string;
  files: string[];
  setupData: unknown;
  metrics: ReturnType<typeof summaryMetrics>;
}

export async function runBundle(bundle: string, opts: RunOptions): Promise<RunResult> {
  const outDir = mkdtempSync(join(tmpdir(), 'k6-node-'));
  const outfile = join(outDir, 'script.mjs');
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
            if (!p) throw new Error(`k6-node does not implement ${args.path} (see tools/k6-node/README.md)`);
            return { path: p };
          });
        },
      },
    ],
  });
  resetState();
  configureBridge();
  const g = globalThis as unknown as { __ENV: Record<string, string> };
  g.__ENV = { ...opts.env };
  (globalThis as unknown as { __k6node: unknown }).__k6node = { requestSync, sleepSync, record, execution };
  try {
    const mod = (await import(pathToFileURL(outfile).href)) as {
      options?: { iterations?: number; vus?: number; scenarios?: Record<string, unknown> };
      setup?: () => unknown;
      default?: (d: unknown) => void;
      teardown?: (d: unknown) => void;
      handleSummary?: (d: unknown) => Record<string, string>;
    };
    const o = mod.options ?? {};
    if (o.scenarios)
      throw new Error('k6-node runs one VU without scenarios; arrival-rate scenarios need real k6 (see tools/k6-node/README.md)');
    if ((o.vus ?? 1) > 1) throw new Error(`k6-node runs one VU; the script asks for ${o.vus}`);
    const data = mod.setup?.();
    for (let i = 0; i < (o.iterations ?? 1); i++) mod.default?.(data);
    mod.teardown?.(data);
    const summary = {
      metrics: summaryMetrics(),
      setup_data: data,
      options: o,
      state: { testRunDurationMs: 0 },
      root_group: { name: '', checks: [], groups: [] },
    };
    const files: string[] = [];
    let stdout = '';
    for (const [name, content] of Object.entries(mod.handleSummary?.(summary) ?? {})) {
      if (name === 'stdout' || name === 'stderr') {
        stdout += content;
        continue;
      }
      const p = resolve(opts.cwd ?? process.cwd(), name);
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, content);
      files.push(p);
    }
    return { stdout, files, setupData: data, metrics: summaryMetrics() };
  } finally {
    metrics.clear();
    await stopBridge();
  }
}

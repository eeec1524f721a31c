/**
 * `npm run load:build`: bundles each k6 script of load/scripts into dist/load/<name>.js.
 */
import { build, type BuildOptions } from 'esbuild';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export const LOAD_SCRIPTS = ['probe-limits', 'probe-reset', 'capacity', 'smoke'] as const;
/** Where bundles go: LOAD_BUNDLE_DIR (bundles prepared by the caller, e.g. once per test run), default dist/load. */
export const OUT_DIR = process.env.LOAD_BUNDLE_DIR || 'dist/load';

export const buildOptions: BuildOptions = {
  entryPoints: LOAD_SCRIPTS.map((s) => join('load/scripts', `${s}.ts`)),
  outdir: OUT_DIR,
  bundle: true,
  // k6 loads scripts as ES modules.
  format: 'esm',
  // k6 is neither Node nor a browser; 'neutral' keeps esbuild from assuming either's built-ins.
  platform: 'neutral',
  // k6 v0.46 runs goja, which rejects ?., ?? and object spread in modules: down-level to ES2017.
  target: 'es2017',
  // k6 built-ins are provided by the k6 binary at run time, never bundled.
  external: ['k6', 'k6/*'],
  // Source maps let k6 report errors at TypeScript lines.
  sourcemap: 'inline',
  // Keep names readable in k6 stack traces; bundles stay small without minification.
  minify: false,
  mainFields: ['module', 'main'],
  logLevel: 'warning',
};

export async function buildLoadScripts(outdir: string = OUT_DIR): Promise<{ files: string[]; ms: number }> {
  const started = performance.now();
  await build({ ...buildOptions, outdir });
  const ms = performance.now() - started;
  return {
    files: readdirSync(outdir)
      .filter((f) => f.endsWith('.js'))
      .map((f) => join(outdir, f)),
    ms,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  buildLoadScripts()
    .then(({ files, ms }) => console.log(`load:build: ${files.length} bundles in ${ms.toFixed(0)} ms → ${files.join(', ')}`))
    .catch((e: Error) => {
      console.error(`load:build failed: ${e.message}`);
      process.exit(1);
    });
}

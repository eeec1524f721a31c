/** The k6 bundles: each k6 script of load/scripts bundled into <dir>/<name>.js (default LOAD_BUNDLE_DIR, else dist/load). */
import { Command } from 'commander';
import { build, type BuildOptions } from 'esbuild';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULTS, setting } from '../config/settings';

export const LOAD_SCRIPTS = ['probe-limits', 'probe-reset', 'verify-pacing', 'capacity', 'smoke'] as const;
export type LoadScript = (typeof LOAD_SCRIPTS)[number];

/** Default bundle directory. */
export const OUT_DIR = DEFAULTS.bundleDir;

/** The command line of `npm run load:build` and `npm run load:archive` (`name`): the bundle directory. */
export function bundleDirProgram(name: string): Command {
  return new Command().name(name).option('--bundle-dir <dir>', 'bundle directory (default LOAD_BUNDLE_DIR, else dist/load)');
}

/** The bundle directory: the given one, else LOAD_BUNDLE_DIR (default dist/load). */
export function bundleDir(dir?: string, env: NodeJS.ProcessEnv = process.env): string {
  return dir ?? setting(env, 'LOAD_BUNDLE_DIR');
}

const here = dirname(fileURLToPath(import.meta.url));

export const buildOptions: BuildOptions = {
  entryPoints: LOAD_SCRIPTS.map((s) => join(here, '../load/scripts', `${s}.ts`)),
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

export async function buildLoadScripts(dir?: string): Promise<{ dir: string; files: string[]; ms: number }> {
  const outdir = bundleDir(dir);
  const started = performance.now();
  await build({ ...buildOptions, outdir });
  const ms = performance.now() - started;
  return {
    dir: outdir,
    files: readdirSync(outdir)
      .filter((f) => f.endsWith('.js'))
      .map((f) => join(outdir, f)),
    ms,
  };
}

/**
 * The harness's command lines (certify, load, the mock, openapi, the k6 test double, the benchmark) bundled once per test run
 * into the run folder (global setup sets HARNESS_BIN). The tests start some sixty such processes; run
 * through tsx, each one spends 0.5–0.8 s of CPU compiling and resolving TypeScript before its first
 * line, on a two-core machine that also runs the tests.
 *
 * A bundle behaves as its source run by tsx: `import.meta.url` is the source file's URL in every
 * module (so paths relative to it resolve inside the project), `process.argv[1]` is the source path
 * (the main-module checks), and packages resolve from the project's node_modules (linked beside the
 * bundles). Without HARNESS_BIN (a test run by hand without the global setup), tsx runs the sources.
 */
import { build, type Plugin } from 'esbuild';
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { K6_DOUBLE_BIN } from './tools/k6-node';
import type { MockProcessOptions } from '../runner/mock-process';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The mock's main module, which the runner starts in a process of its own (runner/mock-process.ts). */
const MOCK_MAIN_SOURCE = join(ROOT, 'mock/app/main.ts');
const TSX_CLI = join(ROOT, 'node_modules/tsx/dist/cli.mjs');

/** Command line → its source. */
const ENTRIES = {
  bench: 'scripts/bench.ts',
  certify: 'scripts/certify.ts',
  load: 'scripts/load.ts',
  mock: 'scripts/mock.ts',
  openapi: 'scripts/openapi.ts',
  'k6-node': 'tests/tools/k6-node/cli.ts',
} as const;
export type Cli = keyof typeof ENTRIES;

/** The bundle of a command line in this run (HARNESS_BIN), or undefined in a test run by hand. */
function bundledCli(name: Cli): string | undefined {
  const bin = process.env.HARNESS_BIN;
  return bin ? join(bin, `${name}.mjs`) : undefined;
}

/**
 * Every project module sees its own source URL as import.meta.url, as under tsx; but for the mock's main
 * module, which sees the bundled mock (`dir/mock.mjs`, the same command line): a bundled `npm run load`
 * then starts its mock process as JavaScript, not as TypeScript through tsx.
 */
const sourceImportMetaUrl = (dir: string): Plugin => ({
  name: 'source-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      const url = args.path === MOCK_MAIN_SOURCE ? pathToFileURL(join(dir, 'mock.mjs')) : pathToFileURL(args.path);
      return { contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(url.href)), loader: 'ts' };
    });
  },
});

/** Bundles every command line into `dir`, with a `k6` executable for the double; returns the time taken. */
export async function buildCliBundles(dir: string): Promise<number> {
  const started = performance.now();
  mkdirSync(dir, { recursive: true });
  // Packages stay external: they resolve from the project's node_modules, seen from the bundles' folder.
  symlinkSync(join(ROOT, 'node_modules'), join(dirname(dir), 'node_modules'), 'dir');
  await Promise.all(
    Object.entries(ENTRIES).map(([name, source]) =>
      build({
        entryPoints: { [name]: join(ROOT, source) },
        bundle: true,
        // Split: a module the source imports on demand (the OpenAPI parser of `mock --openapi`) stays a
        // chunk loaded on demand. In one file its packages became imports at the top, loaded by every start.
        splitting: true,
        chunkNames: `${name}-chunks/[name]-[hash]`,
        outExtension: { '.js': '.mjs' },
        platform: 'node',
        format: 'esm',
        target: 'node20',
        packages: 'external',
        outdir: dir,
        // In its chunks too, where it sets the same path again when one loads.
        banner: { js: `process.argv[1] = ${JSON.stringify(join(ROOT, source))};` },
        plugins: [sourceImportMetaUrl(dir)],
        logLevel: 'error',
      }),
    ),
  );
  const k6 = join(dir, 'k6');
  writeFileSync(
    k6,
    `#!/bin/sh\n# The k6 test double (tests/tools/k6-node), bundled.\nexec "${process.execPath}" "${join(dir, 'k6-node.mjs')}" "$@"\n`,
  );
  chmodSync(k6, 0o755);
  return performance.now() - started;
}

/**
 * Node's arguments to run a command line: its bundle when the run has them, else its source through
 * tsx. Relative to nothing: usable from any working directory.
 */
export function cliArgs(name: Exclude<Cli, 'k6-node'>): string[] {
  const bundle = bundledCli(name);
  return bundle ? [bundle] : [TSX_CLI, resolve(ROOT, ENTRIES[name])];
}

/** The options of a mock in its own process started by a test: the bundled mock when the run has it. */
export function testMockMain(): Pick<MockProcessOptions, 'main'> {
  const bundle = bundledCli('mock');
  return bundle ? { main: bundle } : {};
}

/** The k6 double's executable: the bundled one in a harness test run, else tests/tools/k6-node/bin/k6. */
export function k6DoubleBin(): string {
  const bin = process.env.HARNESS_BIN;
  return bin ? join(bin, 'k6') : K6_DOUBLE_BIN;
}

/**
 * The k6 the load tests run: K6_BIN from the environment when it is set (a real k6, to run the very same
 * tests on it), else the double.
 */
export function k6UnderTest(): string {
  return process.env.K6_BIN || k6DoubleBin();
}

/** Niceness of the CPU-heavy runs the tests start: certify runs, the benchmark, the detection matrix. */
const BACKGROUND_NICENESS = 10;
/**
 * Niceness of a background run's own scheduling group (a detached run: the detection matrix). At 10 the
 * group got so little of the CPU that the matrix ran alone at the end of the test run; at 5 (about a
 * quarter of a core's time against the test run's group) it ends with the rest.
 */
const BACKGROUND_GROUP_NICENESS = 5;

/**
 * Lowers a started process's priority (its children inherit it), so that on a busy machine the
 * timing-sensitive tests beside it (probes and fingerprints in compressed windows, timeouts) keep the
 * CPU. Only the schedule changes: what the process does and reports is the same. Where priorities
 * cannot be set, the process runs at normal priority.
 */
export function inBackground(pid: number | undefined, ownSession = false): void {
  if (pid === undefined) return;
  try {
    setPriority(pid, BACKGROUND_NICENESS);
    // A process started in its own session (detached) has its own scheduling group where the kernel groups
    // by session (autogroup): its niceness then weighs only against its own children, and the group
    // competes with the test run's as an equal. The group's niceness is what lowers it.
    if (ownSession && existsSync(`/proc/${pid}/autogroup`)) writeFileSync(`/proc/${pid}/autogroup`, String(BACKGROUND_GROUP_NICENESS));
  } catch (e) {
    process.stderr.write(`harness tests: pid ${pid} keeps normal priority (${(e as Error).message})\n`);
  }
}

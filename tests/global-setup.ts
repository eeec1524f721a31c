/**
 * Once per `npm test` run: bundles the k6 scripts into this run's folder and passes it to every test
 * (LOAD_BUNDLE_DIR), so no test rebuilds a shared `dist/load` while another reads it, and nothing is
 * written into the working tree; bundles the harness's command lines beside them (HARNESS_BIN,
 * cli-bundles.ts), so the processes the tests start load no TypeScript. The teardown removes the run folder, unless a failing test left its
 * output there (then the matrix run's files stay beside it too).
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildLoadScripts } from '../runner/bundles';
import { spawnSync } from 'node:child_process';
import { buildCliBundles, k6UnderTest } from './cli-bundles';
import { matrixDir, stopMatrixRun } from './contracts/matrix/matrix-runner';
import { OUTPUT_DIR, RUN_DIR } from './run-dir';

export default async function globalSetup(): Promise<() => void> {
  const bundleDir = join(RUN_DIR, 'load');
  const binDir = join(RUN_DIR, 'bin');
  const [{ files, ms }, cliMs] = await Promise.all([buildLoadScripts(bundleDir), buildCliBundles(binDir)]);
  process.env.LOAD_BUNDLE_DIR = bundleDir;
  process.env.HARNESS_BIN = binDir;
  // Read by the runner already (playwright.config.ts); child runs keep their record in their own folders.
  delete process.env.PLAYWRIGHT_LAST_RUN_OUTPUT_FILE;
  // The commands the tests start fail on purpose (drift modes): on GitHub Actions they must not write the job's
  // step summary nor annotate its log; a test of that output sets both itself.
  delete process.env.GITHUB_ACTIONS;
  delete process.env.GITHUB_STEP_SUMMARY;
  console.log(
    `harness tests: run folder ${RUN_DIR}; ${files.length} load bundles built in ${ms.toFixed(0)} ms, the command lines in ${cliMs.toFixed(0)} ms`,
  );
  // The load tests run on the k6 K6_BIN names, else on the double: say which, with its own version line.
  const k6 = k6UnderTest();
  const version = spawnSync(k6, ['version'], { encoding: 'utf8', timeout: 10_000 });
  if (version.status !== 0)
    throw new Error(
      `K6_BIN is "${k6}", but \`${k6} version\` failed (${version.error?.message ?? version.stderr.trim()}): set K6_BIN to a k6 binary, or unset it to use the test double`,
    );
  console.log(`harness tests: load tests on ${process.env.K6_BIN ? 'k6' : 'the k6 test double'} ${k6}: ${version.stdout.trim()}`);
  return () => {
    // The detection matrix run, if a test started it and it still runs (an interrupted or filtered run).
    stopMatrixRun(matrixDir(RUN_DIR));
    const failuresKept = existsSync(OUTPUT_DIR) && readdirSync(OUTPUT_DIR).length > 0;
    for (const d of failuresKept ? [bundleDir, binDir, join(RUN_DIR, 'node_modules')] : [RUN_DIR])
      rmSync(d, { recursive: true, force: true });
    if (failuresKept) console.log(`harness tests: output of the failing tests in ${OUTPUT_DIR}`);
  };
}

/**
 * The harness's own tests (`npm test`): unit tests, the mock, the contract suite end to end,
 * the detection matrix, the load scripts in the k6 test double, the report page in Chromium.
 * The certification suite itself is configured in ../playwright.config.ts.
 *
 * Hermetic: the load scripts are bundled once per run (global-setup.ts) into the run's temporary
 * folder, every test writes under its own output directory there (testInfo.outputPath), and only the
 * run's reports (gitignored reports/harness-tests/) land in the working tree.
 *
 * The detection matrix runs in the background from the start (contracts/matrix/matrix.setup.ts, first in the
 * project `harness-long`), at a low priority, while the other tests run; its per-mode tests come last
 * (project `detection-matrix`) and judge what it found. The global teardown stops it if it still runs.
 */
import { defineConfig } from '@playwright/test';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OUTPUT_DIR } from './run-dir';

const CI = !!process.env.CI;
/** The run's reports (Playwright JSON read by scripts/test-summary.ts, JUnit, detection matrix): gitignored. */
const REPORTS = fileURLToPath(new URL('../reports/harness-tests/', import.meta.url));
const MATRIX_TESTS = 'contracts/matrix/detection-matrix.spec.ts';
const MATRIX_START = 'contracts/matrix/matrix.setup.ts';
/**
 * Long tests, first in the queue: those that mostly wait on compressed windows in real time (tens of
 * seconds each), and the 10 000-request fuzz (CPU-bound, about 15 s on one core): last in the queue, it
 * ran alone on one core at the end of the run.
 */
const LONG_TESTS = [
  'load/fingerprint/fingerprint-e2e.spec.ts',
  'load/probes-e2e.spec.ts',
  'load/real-limiters.spec.ts',
  'mock/bad-input.spec.ts',
];
/**
 * Playwright's record of the last run (`--last-failed`) beside the reports: in the run's temporary folder
 * it would be lost with the folder, and it would keep that folder from being removed. Set in the runner
 * only; the global setup takes it out of the environment the workers and their child runs inherit.
 */
if (!process.env.TEST_WORKER_INDEX) process.env.PLAYWRIGHT_LAST_RUN_OUTPUT_FILE ||= join(REPORTS, 'last-run.json');

export default defineConfig({
  testDir: '.',
  forbidOnly: CI,
  fullyParallel: true,
  // Four: the long real-time tests mostly wait while the others need the two cores. Each worker process
  // costs about 2 s of CPU to start, and a worker serves one project: the projects cap their own.
  workers: 4,
  timeout: 120_000,
  globalSetup: './global-setup.ts',
  reporter: [
    [CI ? 'line' : 'list'],
    ['json', { outputFile: join(REPORTS, 'results.json') }],
    ['junit', { outputFile: join(REPORTS, 'junit.xml') }],
    ['./contracts/matrix/matrix-table-reporter.ts', { outputDir: REPORTS }],
  ],
  outputDir: OUTPUT_DIR,
  // Output of passing tests is removed; a failing test's files stay in the run folder for inspection.
  preserveOutput: 'failures-only',
  projects: [
    // First: the start of the detection matrix run (in the background, at a low priority) and the long
    // real-time tests, so their waits overlap the CPU-bound rest instead of trailing it.
    { name: 'harness-long', testMatch: [MATRIX_START, ...LONG_TESTS], workers: 2 },
    // Three: the cores stay busy (sampled every 2 s: 194–200 % from the sixth second on) with one worker
    // process fewer than four (each loads Playwright, the harness and its test files: 2–4 s of CPU).
    { name: 'harness', testMatch: '**/*.spec.ts', testIgnore: [MATRIX_TESTS, ...LONG_TESTS], workers: 3 },
    // Last in the queue: the matrix run, at a low priority, fills the gaps the others leave; its judgments
    // wait for it on their own worker, not on one the long tests need.
    { name: 'detection-matrix', testMatch: MATRIX_TESTS, workers: 1 },
  ],
});

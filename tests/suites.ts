/**
 * The harness's two suites, one Playwright configuration each, built here so they agree on everything but
 * their tests and reports:
 *
 * - the fast suite (`npm test`, playwright.config.ts): a developer's inner loop, about a minute on two quiet
 *   cores: units, the mock, one end-to-end certification of a slice of the mock;
 * - the end-to-end suite (`npm run test:e2e`, playwright.e2e.config.ts): a whole command per test (certify or
 *   `npm run load` as a process, with its own Playwright runner or k6 double and mock), CPU-bound;
 * - the long suite (`npm run test:long`, playwright.long.config.ts): what mostly waits on compressed windows
 *   in real time or runs thousands of requests. CI (.ci/run) runs all three.
 *
 * Hermetic: the load scripts and command lines are bundled once per run (global-setup.ts) into the run's
 * temporary folder, every test writes under its own output directory there (testInfo.outputPath), and only
 * the runs' reports (gitignored reports/harness-tests/) land in the working tree.
 */
import { defineConfig, type PlaywrightTestConfig, type ReporterDescription } from '@playwright/test';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OUTPUT_DIR } from './run-dir';

/** Both suites' reports (Playwright JSON read by scripts/test-summary.ts, JUnit): gitignored. */
const REPORTS = fileURLToPath(new URL('../reports/harness-tests/', import.meta.url));

/** The detection matrix: its background run's start, and the per-mode judgments of what it found. */
export const MATRIX_START = 'contracts/matrix/matrix.setup.ts';
export const MATRIX_TESTS = 'contracts/matrix/detection-matrix.spec.ts';
/**
 * The long suite's other tests, each with why it is long. On a fresh clone in CI (quiet host, two cores) the
 * long suite took 402 s beside `npm run check`, the end-to-end suite 177 s and the fast suite 82 s (59 s warm without
 * the tests of the published documents, once the k6 refusals moved to the end-to-end suite).
 */
export const LONG_TESTS = [
  // Real time: probes against limiters on compressed windows, through k6 or its double (87 s).
  'load/fingerprint/fingerprint-e2e.spec.ts',
  // Real time: the probes' limits and refill times, end to end (12 s).
  'load/probes-e2e.spec.ts',
  // Real time: the fingerprint behind real rate-limiting libraries and nginx (33 s).
  'load/real-limiters.spec.ts',
  // Real time: a distributed probe, four runners in turn sharing one app's quota (49 s).
  'load/distributed.spec.ts',
  // The 10 000-request fuzz of the mock's bad input (CPU-bound).
  'mock/bad-input.spec.ts',
  // The document fuzz: every constraint of both published forms, a value breaking and one keeping each, in both
  // request modes, each judged by the forms' own validators (CPU-bound: thousands of requests).
  'mock/document-fuzz-long.spec.ts',
  // Instructions per request counted under callgrind (CPU-bound: 10-12 s of one core).
  'bench/instructions.spec.ts',
  // The smallest benchmark and the CPU profiles, end to end (CPU-bound: 30 s of test time, both cores busy).
  'bench/bench.spec.ts',
  // certify through Stoplight Prism's validating proxy, every request judged (CPU-bound: 19 s of test time).
  'openapi/referee.spec.ts',
  // The probe's cost started at 20 positions of a 60 s window, every algorithm and header style (CPU-bound: 10 s).
  'load/fingerprint/fingerprint-phase.spec.ts',
  // Every exhaustion check behind 20 ms per request at a 2 s window, passed or blocked with the arithmetic (real
  // time: 20-25 s of windows spent one after another).
  'contracts/rate-limit-pace.spec.ts',
  // Two certifications at once behind a proxy at a 2 s window, every family and environment (real time: 15-20 s a round).
  'contracts/rate-limit-pace-repeat.spec.ts',
  // Ten whole certifications of one mock as a URL target, their findings compared (real time and CPU-bound: about 2 min).
  'contracts/stable-findings.spec.ts',
  // Real time: three capacity runs of 8 s one after another (2 000 requests each through k6 or its double), whose
  // request counts fall short on a busy host.
  'load/perf-regression.spec.ts',
  // The whole certification of the embedded mock, every check (CPU-bound: 15-20 s of CPU); the fast suite
  // certifies a slice of it (contracts/certify.spec.ts).
  'contracts/certify-full.spec.ts',
  // The shipped workflow's certify step, a whole certification of a deployment with other data at its own four
  // workers (CPU-bound: 15 s of CPU); the fast suite certifies that deployment's operations on one worker.
  'contracts/certify-workflow.spec.ts',
];

/**
 * The end-to-end suite: each test runs a whole command as a process (5–25 s of CPU each: a Playwright runner and
 * its workers, or npm run load with a mock and the k6 double), against targets that break one thing.
 */
export const E2E_TESTS = [
  // certify's exit 99 for a blocked check and its refusal to send a request its OPENAPI document refuses.
  'contracts/certify-outcomes.spec.ts',
  // certify against targets that break one thing: faulty, silent, other data, 404s, gateways, vendor shapes,
  // missing fields, a budget, the request plan, a token refused early, a write operation's bucket that allows one call too many.
  'contracts/faulty-targets.spec.ts',
  'contracts/foreign-data.spec.ts',
  'contracts/not-served.spec.ts',
  'contracts/rate-limit-gateways.spec.ts',
  'contracts/vendor-shapes.spec.ts',
  'contracts/expected-fields.spec.ts',
  'contracts/budget.spec.ts',
  'contracts/request-plan.spec.ts',
  'contracts/token-refused-early.spec.ts',
  'contracts/write-bucket-spend.spec.ts',
  // certify against searches that ignore documented filters: each broken (fact, place) failed, the others passed.
  'mock/drift/search-filters-drift.spec.ts',
  // certify's exchanges.har on two workers with canary credentials; each failure's curl sent again to a drifting mock.
  'contracts/certify-exchanges.spec.ts',
  'contracts/certify-reproduce.spec.ts',
  // certify of the embedded mock in either request mode.
  'mock/request-modes.spec.ts',
  // npm run load end to end: its command line, the id search on a deployment, the budget and seed, the probe of
  // the read operations alone.
  'load/load-cli.spec.ts',
  'load/target-ids.spec.ts',
  'load/budget-and-seed.spec.ts',
  'load/fingerprint/fingerprint-writes.spec.ts',
  // The capacity probes' verdicts: an advertised limit not honoured, a 429 not documented (exit 1).
  'load/probe-verdicts.spec.ts',
  // What real k6 refuses before or while it runs, refused by the k6 double too: a k6 process per case (13 s).
  'tools/k6-node/k6-refusals.spec.ts',
];

export interface Suite {
  /** Reports' folder under reports/harness-tests/ ('' for the fast suite, where CI and habits look). */
  reportDir: string;
  projects: NonNullable<PlaywrightTestConfig['projects']>;
  workers: number;
  reporters?: ReporterDescription[];
}

/** One suite's configuration: the common settings, its projects and its reports. */
export function suiteConfig(suite: Suite): PlaywrightTestConfig {
  const reports = join(REPORTS, suite.reportDir);
  // Playwright's record of the last run (`--last-failed`) beside the reports: in the run's temporary folder it
  // would be lost with the folder, and it would keep that folder from being removed. Set in the runner only;
  // the global setup takes it out of the environment the workers and their child runs inherit.
  if (!process.env.TEST_WORKER_INDEX) process.env.PLAYWRIGHT_LAST_RUN_OUTPUT_FILE ||= join(reports, 'last-run.json');
  const CI = !!process.env.CI;
  return defineConfig({
    testDir: '.',
    forbidOnly: CI,
    fullyParallel: true,
    workers: suite.workers,
    timeout: 120_000,
    globalSetup: './global-setup.ts',
    reporter: [
      [CI ? 'line' : 'list'],
      ['json', { outputFile: join(reports, 'results.json') }],
      ['junit', { outputFile: join(reports, 'junit.xml') }],
      ...(suite.reporters ?? []).map(([name, opts]): ReporterDescription => [name, { outputDir: reports, ...opts }]),
    ],
    outputDir: OUTPUT_DIR,
    // Output of passing tests is removed; a failing test's files stay in the run folder for inspection.
    preserveOutput: 'failures-only',
    projects: suite.projects,
  });
}

/**
 * The fast suite of the harness's own tests (`npm test`, a developer's inner loop): unit tests, the mock, the
 * contract suite end to end on the conforming mock, the load scripts in the k6 test double, the report page
 * in Chromium. The end-to-end suite (a whole command per test) is playwright.e2e.config.ts; the long suite (real-time probes, real limiters, the fuzz, the detection matrix) is
 * playwright.long.config.ts; suites.ts holds what both share. The certification suite itself is configured
 * in ../playwright.config.ts.
 */
import { E2E_TESTS, LONG_TESTS, MATRIX_START, MATRIX_TESTS, suiteConfig } from './suites';

export default suiteConfig({
  reportDir: '',
  // Three: the cores stay busy with one worker process fewer than four (each loads Playwright, the harness
  // and its test files: 2–4 s of CPU).
  workers: 3,
  projects: [{ name: 'harness', testMatch: '**/*.spec.ts', testIgnore: [MATRIX_START, MATRIX_TESTS, ...LONG_TESTS, ...E2E_TESTS] }],
});

/**
 * The end-to-end suite of the harness's own tests (`npm run test:e2e`; CI runs it after the fast one): each
 * test runs a whole command as a process (certify, npm run load) against a target that breaks one thing.
 * suites.ts lists its files and why. Reports in reports/harness-tests/e2e/.
 */
import { E2E_TESTS, suiteConfig } from './suites';

export default suiteConfig({
  reportDir: 'e2e',
  // Three: each test's command starts its own processes, which leave a worker waiting part of the time.
  workers: 3,
  projects: [{ name: 'harness-e2e', testMatch: E2E_TESTS }],
});

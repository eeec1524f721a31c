/**
 * The long suite of the harness's own tests (`npm run test:long`; CI runs it after the fast one): the tests
 * that mostly wait on compressed windows in real time, the 10 000-request fuzz, and the detection matrix (the
 * contract suite against the mock in every drift mode). Reports in reports/harness-tests/long/, with the
 * matrix's table (detection-matrix.md).
 *
 * The detection matrix runs in the background from the start (contracts/matrix/matrix.setup.ts, first in the
 * project `harness-long`), at a low priority, while the real-time tests wait; its per-mode tests come last
 * (project `detection-matrix`) and judge what it found. The global teardown stops it if it still runs.
 */
import { LONG_TESTS, MATRIX_START, MATRIX_TESTS, suiteConfig } from './suites';

export default suiteConfig({
  reportDir: 'long',
  // The real-time tests mostly wait, and the matrix run fills the gaps: a worker serves one project, and the
  // projects cap their own.
  workers: 3,
  reporters: [['./contracts/matrix/matrix-table-reporter.ts', {}]],
  projects: [
    { name: 'harness-long', testMatch: [MATRIX_START, ...LONG_TESTS], workers: 2 },
    // Last in the queue: the matrix judgments wait for its run on their own worker, not on one the long tests need.
    { name: 'detection-matrix', testMatch: MATRIX_TESTS, workers: 1 },
  ],
});

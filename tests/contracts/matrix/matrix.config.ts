/**
 * The detection matrix's run of the contract suite: the certification config (../../playwright.config.ts)
 * against the embedded mock, one project per group of drift modes whose tests do not overlap
 * (DRIFT_MATRIX_GROUPS, JSON, set by matrix-runner.ts; without it, one project per mode that
 * DRIFT_MATRIX_MODES selects). The suite runs through matrix-suite.ts, which switches the mock to each
 * test's mode; the runner judges Playwright's JSON report (REPORTS_DIR/matrix-results.json).
 * By hand: `TARGET=mock npx playwright test -c tests/contracts/matrix/matrix.config.ts` (report in
 * reports/detection-matrix/; the verdicts are the detection-matrix tests' job).
 */
import { defineConfig } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import certify from '../../../playwright.config';
import type { DriftId } from '../../../mock/drift';
import { DETECTIONS, selectedModes } from './detection-matrix';
import { MATRIX_REPORT } from './matrix-report';

const REPORTS_DIR = process.env.REPORTS_DIR ?? fileURLToPath(new URL('../../../reports/detection-matrix', import.meta.url));
const GROUPS: DriftId[][] = process.env.DRIFT_MATRIX_GROUPS
  ? (JSON.parse(process.env.DRIFT_MATRIX_GROUPS) as DriftId[][])
  : selectedModes().map((m) => [m]);

export default defineConfig({
  ...certify,
  testDir: '.',
  testMatch: 'matrix-suite.ts',
  outputDir: `${REPORTS_DIR}/test-output`,
  globalSetup: fileURLToPath(new URL('../../../contracts/session/global-setup.ts', import.meta.url)),
  reporter: [['dot'], ['json', { outputFile: `${REPORTS_DIR}/${MATRIX_REPORT}` }]],
  projects: GROUPS.map((modes) => ({
    // Short: Playwright names each test's output folder after its project (a joined list of 19 modes
    // exceeded a file name's length). The modes themselves are in the metadata.
    name: modes.length === 1 ? String(modes[0]) : `${modes[0]} and ${modes.length - 1} more`,
    grep: modes.map((m) => DETECTIONS[m].grep),
    // One worker each: a second would load the suite and start a mock again (about 2.5 s of CPU) for a
    // few checks; the projects run side by side instead.
    workers: 1,
    // The suite's layer over the mock reads them (matrix-suite.ts): a project of one mode starts the mock in
    // it, one of several switches it before each test.
    metadata: { driftModes: modes },
  })),
});

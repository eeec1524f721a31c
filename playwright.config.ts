/**
 * The certification suite (`npm run certify`). The environment is read once, here and in
 * clients/config.ts; see .env.example for every variable.
 */
import { defineConfig } from '@playwright/test';
import { DRIFT_MODES } from './mock/drift';
import { DETECTIONS } from './contracts/support/detection-matrix';

const CI = !!process.env.CI;
const REPORTS_DIR = process.env.REPORTS_DIR ?? 'reports';
const TARGET = process.env.TARGET ?? 'mock';
const IS_MOCK = TARGET === 'mock';
const ENVIRONMENTS =
  process.env.ENVIRONMENTS ?? (TARGET === 'sandbox' ? 'sandbox' : TARGET === 'production' ? 'production' : 'production,sandbox');
/** DRIFT_MATRIX=1 runs the suite under the drift modes of the mock, for the detection matrix. */
const DRIFT_MATRIX = process.env.DRIFT_MATRIX === '1';
const MATRIX_MODES = (process.env.DRIFT_MATRIX_MODES ?? '').split(',').filter(Boolean);
/**
 * DRIFT_MATRIX_GROUPS (JSON, set by the matrix runner): modes packed so that one project serves several
 * (their tests do not overlap; each test runs under its own mode, switched on the mock before it). Without
 * it, one project per mode.
 */
const MATRIX_GROUPS: string[][] = process.env.DRIFT_MATRIX_GROUPS
  ? (JSON.parse(process.env.DRIFT_MATRIX_GROUPS) as string[][])
  : DRIFT_MODES.filter((m) => !MATRIX_MODES.length || MATRIX_MODES.includes(m.id)).map((m) => [m.id]);

const projects = DRIFT_MATRIX
  ? [
      // Run only when no groups are given (a manual DRIFT_MATRIX=1 run): the matrix runner's run is the drift modes only.
      ...(process.env.DRIFT_MATRIX_GROUPS ? [] : [{ name: 'conforming', use: { mockDrift: '' } }]),
      ...MATRIX_GROUPS.map((modes) => ({
        // Short: Playwright names each test's output folder after its project (a joined list of 19 modes
        // exceeded a file name's length). The modes themselves are in `matrixModes`.
        name: modes.length === 1 ? (modes[0] as string) : `${modes[0]} and ${modes.length - 1} more`,
        grep: modes.map((m) => DETECTIONS[m]?.grep ?? /$^/),
        // One worker each: a second would load the suite and start a mock again (about 2.5 s of CPU) for a
        // few checks; the projects run side by side instead.
        workers: 1,
        use: { mockDrift: modes.length === 1 ? (modes[0] as string) : '', matrixModes: modes.join(',') },
      })),
    ]
  : [{ name: 'certify' }];

export default defineConfig<object, { mockDrift: string; matrixModes: string }>({
  testDir: 'contracts',
  testMatch: '**/*.spec.ts',
  forbidOnly: CI,
  fullyParallel: false,
  // The embedded mock runs once per worker; against real targets one worker keeps the quota and budget in one place.
  workers: IS_MOCK ? 2 : 1,
  retries: 0,
  timeout: 90_000,
  outputDir: `${REPORTS_DIR}/test-output`,
  reporter: DRIFT_MATRIX
    ? [['dot'], ['json', { outputFile: `${REPORTS_DIR}/matrix-results.json` }]]
    : [
        [CI ? 'line' : 'list'],
        ['html', { outputFolder: `${REPORTS_DIR}/html`, open: 'never' }],
        ['junit', { outputFile: `${REPORTS_DIR}/junit.xml` }],
        ['json', { outputFile: `${REPORTS_DIR}/results.json` }],
        ['allure-playwright', { resultsDir: `${REPORTS_DIR}/allure-results`, detail: false, suiteTitle: true }],
        [
          './contracts/support/summary-reporter.ts',
          { outputDir: REPORTS_DIR, target: IS_MOCK ? 'embedded mock' : TARGET.replace(/\/\/[^@/]*@/, '//'), environments: ENVIRONMENTS },
        ],
      ],
  // One request budget for the whole run, drawn from by every worker (contracts/support/run-budget.ts).
  globalSetup: './contracts/support/global-setup.ts',
  use: { trace: 'off' },
  projects,
});

/**
 * The detection matrix: the contract suite runs against the mock in each drift mode (started in the
 * background by matrix.setup.ts at the start of the harness run, or here when these tests run alone);
 * once it ends, one test per mode judges its checks from the run's JSON report, in order on one worker.
 * Every mode must be caught: one of its expected checks fails, or its finding is recorded. (The
 * conforming mock passing every check is certify.spec.ts's first test.) Each test attaches its row;
 * matrix-table-reporter.ts writes reports/harness-tests/detection-matrix.md.
 */
import { test, expect } from '@playwright/test';
import { DRIFT_MODES } from '../../../mock/drift';
import { RUN_DIR } from '../../run-dir';
import { selectedModes } from './detection-matrix';
import { entriesByMode, judgeMode, type MatrixEntry } from './matrix-report';
import { matrixDir, readReport, runState, startMatrixRun } from './matrix-runner';

const DIR = matrixDir(RUN_DIR);
const SELECTED = selectedModes();
/** The whole matrix takes about half a minute on two quiet cores; minutes on a busy machine. */
const WAIT_MS = 600_000;

let byMode: Map<string, MatrixEntry[]> | undefined;

/** The tests of the ended run, by drift mode (read once per worker). */
async function entriesOf(mode: string): Promise<MatrixEntry[]> {
  if (!byMode) {
    await expect
      .poll(() => runState(DIR), { message: 'the detection matrix run ends', timeout: WAIT_MS, intervals: [250, 500, 1000] })
      .toBe('ended');
    byMode = entriesByMode(readReport(DIR));
  }
  return byMode.get(mode) ?? [];
}

test.describe('detection matrix', () => {
  // One worker, in order: the judgments wait for the run, and on several workers each would wait.
  test.describe.configure({ mode: 'default', timeout: WAIT_MS + 30_000 });
  test.beforeAll(async () => {
    await startMatrixRun(DIR, SELECTED);
  });

  for (const mode of DRIFT_MODES) {
    test(`should catch drift mode ${mode.id}`, async () => {
      test.skip(!SELECTED.includes(mode.id), `not selected by DRIFT_MATRIX_MODES=${process.env.DRIFT_MATRIX_MODES}`);
      test.info().annotations.push({ type: 'breaks', description: mode.breaks });
      const row = judgeMode(mode.id, await entriesOf(mode.id));
      await test.info().attach('detection-row', { body: JSON.stringify(row), contentType: 'application/json' });
      expect(row.ran, `the suite ran checks in drift mode ${mode.id} (the grep of its detection)`).toBeGreaterThan(0);
      expect(row.detected, `${mode.id} (${mode.breaks}) must be caught: ${row.why}`).toBe(true);
    });
  }
});

/**
 * The detection matrix: the contract suite runs against the mock in each drift mode (started in the
 * background by matrix.setup.ts at the start of the harness run, or here when these tests run alone);
 * here one test per mode judges its checks, in order on one worker, each once its mode's project is done.
 * Every mode must be caught: its expected checks fail for the right reason, or its finding is
 * recorded. (The conforming mock passing every check is certify.spec.ts's first test.) Each test
 * attaches its row; matrix-table-reporter.ts writes reports/harness-tests/detection-matrix.md.
 */
import { test, expect } from '@playwright/test';
import { DRIFT_MODES } from '../../mock/drift';
import { RUN_DIR } from '../run-dir';
import { judgeMode, matrixDir, projectState, readProject, selectedModes, startMatrixRun, type MatrixProject } from './matrix-runner';

const DIR = matrixDir(RUN_DIR);
const SELECTED = selectedModes();
/** The whole matrix takes about a minute on two cores; a mode's project is usually done before its test starts. */
const WAIT_MS = 240_000;

async function project(name: string): Promise<MatrixProject> {
  await expect
    .poll(() => projectState(DIR, name), {
      message: `the matrix run finishes project ${name}`,
      timeout: WAIT_MS,
      intervals: [250, 500, 1000],
    })
    .not.toBe('running');
  return readProject(DIR, name);
}

test.describe('detection matrix', () => {
  // One worker, in order: the judgments mostly wait for the run, and on several workers each would wait.
  test.describe.configure({ mode: 'default', timeout: WAIT_MS + 30_000 });
  test.beforeAll(async () => {
    await startMatrixRun(DIR, SELECTED);
  });

  for (const mode of DRIFT_MODES) {
    test(`should catch drift mode ${mode.id}`, async () => {
      test.skip(!SELECTED.includes(mode.id), `not selected by DRIFT_MATRIX_MODES=${process.env.DRIFT_MATRIX_MODES}`);
      test.info().annotations.push({ type: 'breaks', description: mode.breaks });
      const row = judgeMode(mode.id, await project(mode.id));
      await test.info().attach('detection-row', { body: JSON.stringify(row), contentType: 'application/json' });
      expect(row.ran, `the suite ran checks in drift mode ${mode.id} (the grep of its detection)`).toBeGreaterThan(0);
      expect(row.detected, `${mode.id} (${mode.breaks}) must be caught: ${row.why}`).toBe(true);
    });
  }
});

/**
 * The detection matrix: the contract suite runs against the conforming mock and against the mock in
 * each drift mode (one project per mode, started in the background by matrix.setup.ts); here one
 * test per mode judges its project. Every mode must be caught (its expected checks fail for the right
 * reason, or its finding is recorded) and the conforming mock must pass everything. Each test
 * attaches its row; matrix-table-reporter.ts writes reports/harness-tests/detection-matrix.md.
 */
import { test, expect } from '@playwright/test';
import { DRIFT_MODES } from '../../mock/drift';
import { RUN_DIR } from '../run-dir';
import { judgeMode, matrixDir, projectState, readProject, unexpected, type MatrixProject } from './matrix-runner';

const DIR = matrixDir(RUN_DIR);
/** DRIFT_MATRIX_MODES narrows the matrix run (playwright.config.ts) to some modes; the others are reported skipped. */
const SELECTED = (process.env.DRIFT_MATRIX_MODES ?? '').split(',').filter(Boolean);
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
  test.describe.configure({ timeout: WAIT_MS + 30_000 });

  test('should pass every check of the suite on the conforming mock', async () => {
    const p = await project('conforming');
    test.info().annotations.push({ type: 'matrix', description: `${p.entries.length} checks, done after ${p.seconds.toFixed(1)} s` });
    expect(p.entries.length, 'the conforming project ran the whole suite').toBeGreaterThan(100);
    expect(unexpected(p), 'the conforming mock must pass every check').toEqual([]);
  });

  for (const mode of DRIFT_MODES) {
    test(`should catch drift mode ${mode.id}`, async () => {
      test.skip(SELECTED.length > 0 && !SELECTED.includes(mode.id), `not selected by DRIFT_MATRIX_MODES=${SELECTED.join(',')}`);
      test.info().annotations.push({ type: 'breaks', description: mode.breaks });
      const row = judgeMode(mode.id, await project(mode.id));
      await test.info().attach('detection-row', { body: JSON.stringify(row), contentType: 'application/json' });
      expect(row.ran, `the suite ran checks in drift mode ${mode.id} (the grep of its detection)`).toBeGreaterThan(0);
      expect(row.detected, `${mode.id} (${mode.breaks}) must be caught: ${row.why}`).toBe(true);
    });
  }
});

/** Starts the detection matrix run in the background; the matrix tests run after the rest of the harness. */
import { test as setup } from '@playwright/test';
import { RUN_DIR } from '../../run-dir';
import { selectedModes } from './detection-matrix';
import { matrixDir, startMatrixRun } from './matrix-runner';

setup('start the contract suite against every drift mode of the mock', async () => {
  const pid = await startMatrixRun(matrixDir(RUN_DIR), selectedModes());
  setup.info().annotations.push({ type: 'matrix-run', description: `pid ${pid}, output in ${matrixDir(RUN_DIR)}` });
});

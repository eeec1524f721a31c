/** Stops the detection matrix run if it is still going (an interrupted or filtered harness run). */
import { test as teardown } from '@playwright/test';
import { RUN_DIR } from '../run-dir';
import { matrixDir, stopMatrixRun } from './matrix-runner';

teardown('stop the detection matrix run', () => {
  stopMatrixRun(matrixDir(RUN_DIR));
});

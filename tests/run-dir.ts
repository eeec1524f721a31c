/**
 * The folder of one harness test run: the load bundles (global setup), the detection matrix run and
 * every test's output directory. A new temporary folder per run unless HARNESS_RUN_DIR names one;
 * the runner sets the variable once, so its workers and the processes they start agree on it. Only
 * named here: what needs it creates it.
 */
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const RUN_DIR: string = (process.env.HARNESS_RUN_DIR ||= join(tmpdir(), `harness-run-${randomBytes(4).toString('hex')}`));

/** Each test's output directory (Playwright's outputDir): only failing tests keep theirs. */
export const OUTPUT_DIR = join(RUN_DIR, 'output');

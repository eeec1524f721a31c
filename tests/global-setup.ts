/**
 * Once per `npm test` run: bundles the k6 scripts into this run's folder and passes it to every test
 * (LOAD_BUNDLE_DIR), so no test rebuilds a shared `dist/load` while another reads it, and nothing is
 * written into the working tree. The teardown removes the run folder, unless a failing test left its
 * output there (then the matrix run's files stay beside it too).
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildLoadScripts } from '../scripts/load-build';
import { OUTPUT_DIR, RUN_DIR } from './run-dir';

export default async function globalSetup(): Promise<() => void> {
  const bundleDir = join(RUN_DIR, 'load');
  const { files, ms } = await buildLoadScripts(bundleDir);
  process.env.LOAD_BUNDLE_DIR = bundleDir;
  console.log(`harness tests: run folder ${RUN_DIR}; ${files.length} load bundles built in ${ms.toFixed(0)} ms`);
  return () => {
    const failuresKept = existsSync(OUTPUT_DIR) && readdirSync(OUTPUT_DIR).length > 0;
    rmSync(failuresKept ? bundleDir : RUN_DIR, { recursive: true, force: true });
    if (failuresKept) console.log(`harness tests: output of the failing tests in ${OUTPUT_DIR}`);
  };
}

/**
 * `npm run load:build [-- --bundle-dir <dir>]`: bundles each k6 script of load/scripts into
 * <dir>/<name>.js (default LOAD_BUNDLE_DIR, else dist/load).
 */
import { parseOrExit } from '../config/cli-options';
import { buildLoadScripts, bundleDirProgram } from '../runner/bundles';

const { bundleDir } = parseOrExit(bundleDirProgram('npm run load:build --')).opts<{ bundleDir?: string }>();
buildLoadScripts(bundleDir)
  .then(({ files, ms }) => console.log(`load:build: ${files.length} bundles in ${ms.toFixed(0)} ms → ${files.join(', ')}`))
  .catch((e: Error) => {
    console.error(`load:build failed: ${e.message}`);
    process.exit(1);
  });

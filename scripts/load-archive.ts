/**
 * `npm run load:archive [-- --bundle-dir <dir>]`: builds the bundles and writes a k6 archive
 * (<dir>/<script>.tar) per script with `k6 archive`, for k6-operator or `k6 cloud`. Needs k6 (K6_BIN or PATH).
 */
import { parseOrExit } from '../config/cli-options';
import { bundleDirProgram } from '../runner/bundles';
import { archiveLoadScripts } from '../runner/archive';

const { bundleDir } = parseOrExit(bundleDirProgram('npm run load:archive --')).opts<{ bundleDir?: string }>();
process.exit(await archiveLoadScripts(bundleDir));

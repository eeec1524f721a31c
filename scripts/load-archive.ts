/**
 * `npm run load:archive [-- --bundle-dir <dir>]`: builds the bundles and writes a k6 archive
 * (<dir>/<script>.tar) per script with `k6 archive`, for k6-operator or `k6 cloud`. Needs k6 (K6_BIN or PATH).
 */
import { Command } from 'commander';
import { parseOrExit } from '../config/cli-options';
import { archiveLoadScripts } from '../runner/archive';

const { bundleDir } = parseOrExit(
  new Command().name('npm run load:archive --').option('--bundle-dir <dir>', 'bundle directory (default LOAD_BUNDLE_DIR, else dist/load)'),
).opts<{ bundleDir?: string }>();
process.exit(await archiveLoadScripts(bundleDir));

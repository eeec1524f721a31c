/**
 * `npm run load:archive [-- --bundle-dir <dir>]`: builds the bundles and writes a k6 archive
 * (<dir>/<script>.tar) per script with `k6 archive`, for k6-operator or `k6 cloud`. Needs k6 (K6_BIN or PATH).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildLoadScripts, LOAD_SCRIPTS } from './load-build';
import { findK6, K6_HELP } from './load';

const k6 = findK6();
if (!k6) {
  console.error(`load:archive: ${K6_HELP}`);
  process.exit(3);
}
const i = process.argv.indexOf('--bundle-dir');
const { dir } = await buildLoadScripts(i > 0 ? process.argv[i + 1] : undefined);
let failed = 0;
for (const s of LOAD_SCRIPTS) {
  const out = join(dir, `${s}.tar`);
  const code = await new Promise<number | null>((resolve) =>
    spawn(k6, ['archive', '--quiet', '-O', out, join(dir, `${s}.js`)], { stdio: 'inherit' }).on('close', resolve),
  );
  if (code === 0) console.log(`load:archive: ${out}`);
  else failed += 1;
}
process.exit(failed ? 1 : 0);

/**
 * `npm run load:archive`: builds the bundles and writes a k6 archive (dist/load/<script>.tar) per
 * script with `k6 archive`, for k6-operator or `k6 cloud`. Needs k6 (K6_BIN or PATH).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { buildLoadScripts, LOAD_SCRIPTS, OUT_DIR } from './load-build';
import { findK6, K6_HELP } from './load';

const k6 = findK6();
if (!k6) {
  console.error(`load:archive: ${K6_HELP}`);
  process.exit(3);
}
await buildLoadScripts();
let failed = 0;
for (const s of LOAD_SCRIPTS) {
  const out = join(OUT_DIR, `${s}.tar`);
  const r = spawnSync(k6, ['archive', '--quiet', '-O', out, join(OUT_DIR, `${s}.js`)], { stdio: 'inherit' });
  if (r.status === 0) console.log(`load:archive: ${out}`);
  else failed += 1;
}
process.exit(failed ? 1 : 0);

/**
 * k6 archives: builds the bundles and writes a k6 archive (<dir>/<script>.tar) per script with `k6 archive`, for
 * k6-operator or `k6 cloud`. Needs k6 (K6_BIN or PATH).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildLoadScripts, LOAD_SCRIPTS, type LoadScript } from './bundles';
import { findK6, K6_HELP } from './k6-process';

/**
 * Scripts whose options come from the plan (capacity: one scenario per operation at a share of its limit): k6
 * archives a script's options with it, so they need PLAN when archived, not only when run.
 */
const OPTIONS_FROM_PLAN: readonly LoadScript[] = ['capacity'];
/**
 * `k6 archive` reads no system environment (it would store it in the archive, secrets included): the plan (no
 * secrets) goes in with `-e`, for the scripts that need it when archived.
 */
const planArg = (s: LoadScript): string[] => (OPTIONS_FROM_PLAN.includes(s) && process.env.PLAN ? ['-e', `PLAN=${process.env.PLAN}`] : []);

/** Archives every script into the bundle directory; resolves with the exit code (3 without k6, 1 if one failed). */
export async function archiveLoadScripts(bundleDir: string | undefined): Promise<number> {
  const k6 = findK6();
  if (!k6) {
    console.error(`load:archive: ${K6_HELP}`);
    return 3;
  }
  const { dir } = await buildLoadScripts(bundleDir);
  let failed = 0;
  for (const s of LOAD_SCRIPTS) {
    if (OPTIONS_FROM_PLAN.includes(s) && !process.env.PLAN) {
      console.log(
        `load:archive: ${s} not archived: its scenarios are built from the plan, which k6 archives with it; set PLAN, e.g. PLAN="$(npm run -s load -- plan --target https://<host>)" npm run load:archive`,
      );
      continue;
    }
    const out = join(dir, `${s}.tar`);
    const code = await new Promise<number | null>((resolve) =>
      spawn(k6, ['archive', '--quiet', '-O', out, ...planArg(s), join(dir, `${s}.js`)], { stdio: 'inherit' }).on('close', resolve),
    );
    if (code === 0) console.log(`load:archive: ${out}`);
    else failed += 1;
  }
  return failed ? 1 : 0;
}

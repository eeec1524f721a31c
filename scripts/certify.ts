/**
 * `npm run certify [-- <playwright args>]`: certifies the configured target (default: the embedded
 * mock). Checks the configuration before any request, runs the contract suite with progress on
 * screen, prints the summary, and exits non-zero if and only if a contract check failed (or the
 * run could not start).
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, rmSync } from 'node:fs';
import { loadConfig, checkConfigFiles, ConfigError } from '../clients/config';
import { imHeaderDefaultsUsed } from '../clients/config-headers';
import { redact, registerSecret } from '../clients/redact';
import { buildReport } from '../reporting/build-report';

const REPORTS_DIR = process.env.REPORTS_DIR ?? 'reports';
const require = createRequire(import.meta.url);

/**
 * Every configuration input (variables, POLICY and OPENAPI files) checked before any request: the
 * target's label, or exit code 2 with what to do.
 */
async function checkConfiguration(): Promise<string | 2> {
  try {
    const cfg = loadConfig();
    await checkConfigFiles();
    const unset = cfg.kind === 'mock' ? [] : imHeaderDefaultsUsed(process.env);
    if (unset.length) {
      console.warn(
        `certify: ${unset.join(', ')} not set: the IM-* headers carry the embedded mock's values, which a real ` +
          `deployment may refuse (400) or attribute to another customer; set your account's values (see .env.example)`,
      );
    }
    for (const c of Object.values(cfg.credentials)) registerSecret(c?.clientSecret);
    return cfg.targetLabel;
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`certify: cannot start: ${redact(e.message)}`);
      return 2;
    }
    throw e;
  }
}

async function main(): Promise<number> {
  const label = await checkConfiguration();
  if (label === 2) return 2;
  console.log(`certify: target ${label}; reports in ${REPORTS_DIR}/`);
  // Results of an earlier run must not mix with this one.
  for (const d of ['allure-results', 'html', 'test-output']) rmSync(`${REPORTS_DIR}/${d}`, { recursive: true, force: true });
  const started = Date.now();
  const r = spawnSync(
    process.execPath,
    [require.resolve('@playwright/test/cli'), 'test', '-c', 'playwright.config.ts', ...process.argv.slice(2)],
    {
      stdio: 'inherit',
      env: process.env,
    },
  );
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (r.error) {
    console.error(`certify: could not run Playwright: ${r.error.message}`);
    return 2;
  }
  if (!existsSync(`${REPORTS_DIR}/summary.json`)) {
    console.error(`certify: the run produced no ${REPORTS_DIR}/summary.json; see the output above`);
    return r.status ?? 2;
  }
  console.log(`certify: finished in ${seconds} s with exit code ${r.status ?? 'unknown'}`);
  return r.status ?? 2;
}

const code = await main();
// The one-page report is part of every run that produced a summary; a report failure never hides the verdict.
(existsSync(`${REPORTS_DIR}/summary.json`) && code !== 2
  ? buildReport({ reportsDir: REPORTS_DIR })
  : Promise.resolve({ htmlPath: '(no report: the run did not start)' })
)
  .then((rep) => console.log(`certify: report ${rep.htmlPath}`))
  .catch((e: Error) => console.error(`certify: the report page could not be built: ${e.message}`))
  .finally(() => process.exit(code));

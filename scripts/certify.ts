/**
 * `npm run certify [-- <playwright args>]`: certifies the configured target (default: the embedded
 * mock). Checks the configuration before any request, runs the contract suite with progress on
 * screen and prints the summary. Exits 0 when every check in the chosen scope passed; 1 when a
 * contract check failed; 99 when none failed but a check in scope was blocked or not run (the summary
 * names how many and why); 2 when the run could not start (contracts/reporter/certify-exit.ts).
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { runConfig, checkConfigFiles, ConfigError } from '../config/read-config';
import type { HarnessConfig } from '../config/harness-config';
import { redact, registerSecret } from '../clients/redact';
import { certifyExitCode, closingLine } from '../contracts/reporter/certify-exit';
import type { RunSummary } from '../reporting/report-shapes';

const require = createRequire(import.meta.url);

/**
 * Every configuration input (variables, POLICY and OPENAPI files) checked before any request: the
 * target's label, or exit code 2 with what to do.
 */
async function checkConfiguration(): Promise<HarnessConfig | 2> {
  try {
    const cfg = runConfig();
    await checkConfigFiles(cfg);
    const unset = cfg.kind === 'mock' ? [] : cfg.imHeaderDefaults;
    if (unset.length) {
      console.warn(
        `certify: ${unset.join(', ')} not set: the IM-* headers carry the embedded mock's values, which a real ` +
          `deployment may refuse (400) or attribute to another customer; set your account's values (see .env.example)`,
      );
    }
    for (const c of Object.values(cfg.credentials)) registerSecret(c?.clientSecret);
    return cfg;
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`certify: cannot start: ${redact(e.message)}`);
      return 2;
    }
    throw e;
  }
}

/**
 * With a REQUEST_BUDGET set (and no partial run), the refusal of a budget below the run's plan, before any request.
 * The planner and the report page are loaded only when needed: every module loaded here delays the run's start.
 */
async function budgetShortOfPlan(cfg: HarnessConfig): Promise<string | undefined> {
  const budget = cfg.requestBudget;
  if (budget === undefined || !Number.isFinite(budget) || cfg.partialBudget) return undefined;
  const { budgetRefusal, preflightPlan } = await import('../contracts/reporter/plan-preflight');
  try {
    return budgetRefusal(preflightPlan('playwright.config.ts', process.argv.slice(2)), budget);
  } catch (e) {
    return redact((e as Error).message);
  }
}

/** The run's exit code, and where its reports are when it started. */
async function main(): Promise<{ code: number; reportsDir?: string }> {
  const cfg = await checkConfiguration();
  if (cfg === 2) return { code: 2 };
  return { code: await certify(cfg), reportsDir: cfg.reportsDir };
}

async function certify(cfg: HarnessConfig): Promise<number> {
  const REPORTS_DIR = cfg.reportsDir;
  console.log(`certify: target ${cfg.targetLabel}; reports in ${REPORTS_DIR}/`);
  const refusal = await budgetShortOfPlan(cfg);
  if (refusal) {
    console.error(`certify: cannot start: ${refusal}`);
    return 2;
  }
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
  if (r.status === null) {
    console.log(`certify: finished in ${seconds} s with exit code unknown`);
    return 2;
  }
  const { totals } = JSON.parse(readFileSync(`${REPORTS_DIR}/summary.json`, 'utf8')) as RunSummary;
  const code = certifyExitCode(r.status, totals, cfg.requireEveryCheck);
  console.log(closingLine(seconds, code, totals, cfg.requireEveryCheck));
  return code;
}

const { code, reportsDir } = await main();
// The one-page report is part of every run that produced a summary; a report failure never hides the verdict.
(reportsDir && existsSync(`${reportsDir}/summary.json`) && code !== 2
  ? import('../reporting/build-report').then(({ buildReport }) => buildReport({ reportsDir }))
  : Promise.resolve({ htmlPath: '(no report: the run did not start)' })
)
  .then((rep) => console.log(`certify: report ${rep.htmlPath}`))
  .catch((e: Error) => console.error(`certify: the report page could not be built: ${e.message}`))
  .finally(() => process.exit(code));

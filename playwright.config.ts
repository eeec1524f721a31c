/**
 * The certification suite (`npm run certify`). The configuration is read once, by config/read-config.ts (see
 * .env.example for every variable); a configuration error leaves the defaults here and fails every check
 * with its message (contracts/session/target.ts), after scripts/certify.ts has refused to start.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { runConfig } from './config/read-config';
import type { HarnessConfig } from './config/harness-config';
import { runDirOf } from './contracts/plan/run-budget';
import { certifyProjects } from './contracts/plan/phases';
import type { SummaryReporterOptions } from './contracts/reporter/summary-reporter';

const CI = !!process.env.CI;
const config = ((): HarnessConfig | undefined => {
  try {
    return runConfig();
  } catch {
    return undefined;
  }
})();
const REPORTS_DIR = config?.reportsDir ?? 'reports';
const IS_MOCK = !config || config.kind === 'mock';
/**
 * Workers against a deployment: they share its buckets (contracts/session/bucket-locks.ts) and each sends
 * several calls at once (call-pace.ts); more would cost two cores their start-up more than they save.
 */
const DEPLOYMENT_WORKERS = 4;
/** Playwright's output folder; it holds the run's request budget (global setup), resolved as Playwright resolves it. */
const OUTPUT_DIR = `${REPORTS_DIR}/test-output`;
const SUMMARY: SummaryReporterOptions = {
  outputDir: REPORTS_DIR,
  target: config?.targetLabel ?? 'unknown (configuration error)',
  environments: config?.environments.join(',') ?? '',
  vendorOperations: config?.vendorOperations ?? [],
  families: config?.families.join(',') ?? '',
  ...(config?.openapiFile ? { openapi: config.openapiFile } : {}),
  runDir: runDirOf(resolve(fileURLToPath(new URL('.', import.meta.url)), OUTPUT_DIR)),
  // On GitHub Actions, certify writes its Markdown to the job's step summary and annotates each failed check.
  ...(config?.githubStepSummary ? { githubStepSummary: config.githubStepSummary } : {}),
};

export default defineConfig({
  testDir: 'contracts',
  testMatch: '**/*.spec.ts',
  forbidOnly: CI,
  // The embedded mock runs once per worker (two, each its own); a deployment's checks spread over its workers.
  fullyParallel: !IS_MOCK,
  workers: IS_MOCK ? 2 : Math.min(config?.concurrency ?? 1, DEPLOYMENT_WORKERS),
  retries: 0,
  timeout: 90_000,
  outputDir: OUTPUT_DIR,
  reporter: [
    // One line per check group with its counts; the tags stay in the reports.
    ['./contracts/reporter/progress-reporter.ts'],
    ['html', { outputFolder: `${REPORTS_DIR}/html`, open: 'never' }],
    ['json', { outputFile: `${REPORTS_DIR}/results.json` }],
    ['allure-playwright', { resultsDir: `${REPORTS_DIR}/allure-results`, detail: false, suiteTitle: true }],
    // First of the run's own: the request plan is made and the budget created before any worker starts.
    ['./contracts/reporter/plan-reporter.ts'],
    ['./contracts/reporter/summary-reporter.ts', SUMMARY],
  ],
  // One request budget for the whole run, drawn from by every worker (contracts/plan/run-budget.ts).
  globalSetup: './contracts/session/global-setup.ts',
  use: { trace: 'off' },
  // The checks that spend no bucket, then those that do (contracts/plan/phases.ts).
  projects: certifyProjects(process.argv, IS_MOCK ? 'mock' : 'deployment'),
});

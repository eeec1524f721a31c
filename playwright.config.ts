/**
 * The certification suite (`npm run certify`). The environment is read once, here and in
 * clients/config.ts; see .env.example for every variable.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { runDirOf } from './contracts/support/run-budget';
import type { SummaryReporterOptions } from './contracts/support/summary-reporter';

const CI = !!process.env.CI;
const REPORTS_DIR = process.env.REPORTS_DIR ?? 'reports';
const TARGET = process.env.TARGET ?? 'mock';
const IS_MOCK = TARGET === 'mock';
const ENVIRONMENTS =
  process.env.ENVIRONMENTS ?? (TARGET === 'sandbox' ? 'sandbox' : TARGET === 'production' ? 'production' : 'production,sandbox');
/** Playwright's output folder; it holds the run's request budget (global setup), resolved as Playwright resolves it. */
const OUTPUT_DIR = `${REPORTS_DIR}/test-output`;
const SUMMARY: SummaryReporterOptions = {
  outputDir: REPORTS_DIR,
  target: IS_MOCK ? 'embedded mock' : TARGET.replace(/\/\/[^@/]*@/, '//'),
  environments: ENVIRONMENTS,
  ...(process.env.VENDOR_OPERATIONS ? { vendorOperations: process.env.VENDOR_OPERATIONS } : {}),
  ...(process.env.OPENAPI ? { openapi: process.env.OPENAPI } : {}),
  runDir: runDirOf(resolve(fileURLToPath(new URL('.', import.meta.url)), OUTPUT_DIR)),
};

export default defineConfig({
  testDir: 'contracts',
  testMatch: '**/*.spec.ts',
  forbidOnly: CI,
  fullyParallel: false,
  // The embedded mock runs once per worker; against real targets one worker keeps the quota and budget in one place.
  workers: IS_MOCK ? 2 : 1,
  retries: 0,
  timeout: 90_000,
  outputDir: OUTPUT_DIR,
  reporter: [
    [CI ? 'line' : 'list'],
    ['html', { outputFolder: `${REPORTS_DIR}/html`, open: 'never' }],
    ['junit', { outputFile: `${REPORTS_DIR}/junit.xml` }],
    ['json', { outputFile: `${REPORTS_DIR}/results.json` }],
    ['allure-playwright', { resultsDir: `${REPORTS_DIR}/allure-results`, detail: false, suiteTitle: true }],
    ['./contracts/support/summary-reporter.ts', SUMMARY],
  ],
  // One request budget for the whole run, drawn from by every worker (contracts/support/run-budget.ts).
  globalSetup: './contracts/support/global-setup.ts',
  use: { trace: 'off' },
  projects: [{ name: 'certify' }],
});

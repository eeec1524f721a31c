/**
 * The harness's own tests (`npm test`): unit tests, the mock, the contract suite end to end,
 * the detection matrix, the load scripts in the k6 test double, the report page in Chromium.
 * The certification suite itself is configured in ../playwright.config.ts.
 */
import { defineConfig } from '@playwright/test';

const CI = !!process.env.CI;

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  forbidOnly: CI,
  fullyParallel: true,
  workers: 2,
  timeout: 120_000,
  reporter: [
    [CI ? 'line' : 'list'],
    ['json', { outputFile: '../reports/harness-tests/results.json' }],
    ['junit', { outputFile: '../reports/harness-tests/junit.xml' }],
  ],
  outputDir: '../reports/harness-tests/artifacts',
});

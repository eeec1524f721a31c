/**
 * The configuration is read once per process: every part of a certification (command, Playwright's configuration,
 * global setup, reporters, workers) asks runConfig; `npm run load` reads the deployment's settings once into its options.
 */
import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { runConfig } from '../../config/read-config';

test('should read the process environment once and give every later caller the same configuration', () => {
  const first = runConfig();
  const before = process.env.REQUEST_BUDGET;
  process.env.REQUEST_BUDGET = '7';
  try {
    expect(runConfig(), 'the same object, not a second reading').toBe(first);
    expect(runConfig().requestBudget).toBe(first.requestBudget);
  } finally {
    if (before === undefined) delete process.env.REQUEST_BUDGET;
    else process.env.REQUEST_BUDGET = before;
  }
});

test('should leave no second reader of the environment on the certify path', () => {
  for (const file of [
    'scripts/certify.ts',
    'playwright.config.ts',
    'contracts/session/global-setup.ts',
    'contracts/reporter/plan-reporter.ts',
    'contracts/session/target.ts',
  ]) {
    const text = readFileSync(file, 'utf8');
    expect(text, `${file} reads the configuration through runConfig()`).not.toMatch(
      /loadConfig\(|process\.env\.(TARGET|ENVIRONMENTS|FAMILIES|REQUEST_BUDGET)\b/,
    );
  }
});

test("should leave no second reader of the deployment's settings on npm run load's path", () => {
  const runner = readdirSync('runner').map((f) => `runner/${f}`);
  for (const file of ['scripts/load.ts', ...runner]) {
    const text = readFileSync(file, 'utf8');
    expect(text, `${file} takes the deployment's settings from its options (deploymentSettingsFrom, once)`).not.toMatch(
      /process\.env\.(BASE_URL|LOAD_SEGMENT|KNOWN_IDS|WEBHOOK_SECRET|IM_\w+|\w+_CLIENT_(ID|SECRET))\b|from '\.\.\/config\/(credentials|headers|target-settings|values)'/,
    );
  }
});

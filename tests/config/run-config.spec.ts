/** The configuration is read once per process: every part of a run (command, Playwright's configuration, global setup, reporters, workers) asks runConfig. */
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { runConfig } from '../../clients/config';

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

/**
 * Global setup of the certification run: creates the run's request budget (one counter that every
 * worker draws from, see run-budget.ts) in Playwright's output folder, which Playwright empties
 * before each run.
 */
import { tmpdir } from 'node:os';
import type { FullConfig } from '@playwright/test';
import { loadConfig } from '../../clients/config';
import { RUN_DIR_ENV, createRunBudget, runDirOf } from './run-budget';

export default function globalSetup(config: FullConfig): void {
  let limit = Infinity;
  try {
    limit = loadConfig().requestBudget;
  } catch {
    // A configuration error fails every check with its message (contracts/support/target.ts).
  }
  const dir = runDirOf(config.projects[0]?.outputDir ?? tmpdir());
  createRunBudget(dir, limit);
  process.env[RUN_DIR_ENV] = dir;
}

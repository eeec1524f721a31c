/**
 * Global setup of the certification run: the run's folder in Playwright's output folder (emptied before each
 * run) with its request budget (run-budget.ts) at REQUEST_BUDGET, unlimited when unset; the plan reporter,
 * which runs next, sets it to the run's plan (request-request-plan.ts) before any worker starts.
 */
import { tmpdir } from 'node:os';
import type { FullConfig } from '@playwright/test';
import { runConfig } from '../../config/read-config';
import { RUN_DIR_ENV, createRunBudget, runDirOf } from '../plan/run-budget';

export default function globalSetup(config: FullConfig): void {
  let limit = Infinity;
  try {
    limit = runConfig().requestBudget ?? Infinity;
  } catch {
    // A configuration error fails every check with its message (contracts/session/target.ts).
  }
  const dir = runDirOf(config.projects[0]?.outputDir ?? tmpdir());
  createRunBudget(dir, limit);
  process.env[RUN_DIR_ENV] = dir;
}

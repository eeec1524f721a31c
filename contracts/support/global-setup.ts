/**
 * Global setup of the certification run: names the run's folder in Playwright's output folder (emptied before
 * each run), where the plan reporter creates the request budget that every worker draws from (run-budget.ts).
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { FullConfig } from '@playwright/test';
import { RUN_DIR_ENV, runDirOf } from './run-budget';

export default function globalSetup(config: FullConfig): void {
  const dir = runDirOf(config.projects[0]?.outputDir ?? tmpdir());
  mkdirSync(dir, { recursive: true });
  process.env[RUN_DIR_ENV] = dir;
}

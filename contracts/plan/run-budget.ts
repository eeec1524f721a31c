/**
 * The request budget of a certification run: one counter owned by the run (created in global setup)
 * that every worker draws from, so the budget holds across workers and across the worker restarts
 * Playwright makes after each failed test. Token requests and retries draw from it like any call.
 *
 * The counter is two append-only files in the run's folder: each attempt appends one byte to
 * `attempts` and reads the file's size (appends are atomic across processes); an attempt whose size
 * is within the limit is granted and appends one byte to `sent`. Two racing attempts at the edge may
 * both be refused: the budget can be under-used by a request, never exceeded.
 */
import { appendFileSync, closeSync, fstatSync, mkdirSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Budget } from '../../clients/http';
import type { RequestPlan } from './request-plan';

/** Environment variable naming the run's folder (set by global setup, inherited by workers). */
export const RUN_DIR_ENV = 'CERTIFY_RUN_DIR';

/** The run's folder in the project's output folder (global setup creates it; the summary reporter reads it). */
export const runDirOf = (outputDir: string): string => join(outputDir, '.certify-run');

/** Annotation prefix of a check the spent budget left out (read by the summary reporter). */
export const BUDGET_SPENT = 'budget spent';

interface RunBudgetFile {
  limit: number | null;
  /** The budget is the run's plan (no REQUEST_BUDGET): it grows by what the target's advertised limits add. */
  grows?: boolean;
}

/**
 * Creates the run's counter (the plan reporter). `limit` Infinity counts without limiting; `grows`: the limit is the
 * plan's, made from the documented limits, and grows by what a bucket advertising more adds (growRunBudget).
 */
export function createRunBudget(dir: string, limit: number, grows = false): void {
  mkdirSync(dir, { recursive: true });
  const spec: RunBudgetFile = { limit: Number.isFinite(limit) ? limit : null, ...(grows ? { grows } : {}) };
  writeFileSync(join(dir, 'budget.json'), JSON.stringify(spec));
  writeFileSync(join(dir, 'attempts'), '');
  writeFileSync(join(dir, 'sent'), '');
  writeFileSync(join(dir, 'grown'), '');
}

/** The requests a budget that grows has grown by: one byte each in the run's `grown` file (appends are atomic). */
const grownOf = (dir: string): number => sizeOf(join(dir, 'grown'));

/**
 * A bucket advertising `extra` calls more than its documented limit, which the plan counted: a budget that is the
 * plan's grows by them (a REQUEST_BUDGET the user set does not).
 */
export function growRunBudget(dir: string | undefined, extra: number): void {
  if (!dir || extra <= 0) return;
  const spec = JSON.parse(readFileSync(join(dir, 'budget.json'), 'utf8')) as RunBudgetFile;
  if (spec.grows) appendFileSync(join(dir, 'grown'), '+'.repeat(extra));
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** Writes the run's request plan (the plan reporter, before any worker starts). */
export function writeRunPlan(dir: string, plan: RequestPlan): void {
  writeFileSync(join(dir, 'plan.json'), JSON.stringify(plan));
}

/** The run's request plan; undefined when the run has none (a run without the plan reporter). */
export function readRunPlan(dir: string | undefined): RequestPlan | undefined {
  if (!dir) return undefined;
  try {
    return JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8')) as RequestPlan;
  } catch {
    return undefined;
  }
}

let workerPlan: { plan: RequestPlan | undefined } | undefined;

/**
 * Why a partial run leaves this unit out, or undefined when it runs. The run's plan is read once per worker:
 * the plan reporter wrote it before any worker started.
 */
export function leftOutByPlan(unit: string): string | undefined {
  workerPlan ??= { plan: readRunPlan(process.env[RUN_DIR_ENV]) };
  if (!workerPlan.plan?.leftOut.some((l) => l.unit === unit)) return undefined;
  return `budget: ${unit} is left out by REQUEST_BUDGET_PARTIAL (REQUEST_BUDGET covers the units before it)`;
}

/** What the run spent: requests sent and attempts refused (0 when the run has no counter), and what its budget grew by. */
export function runBudgetUsage(
  dir: string | undefined,
): { limit: number | null; grown: number; sent: number; refused: number } | undefined {
  if (!dir) return undefined;
  let spec: RunBudgetFile;
  try {
    spec = JSON.parse(readFileSync(join(dir, 'budget.json'), 'utf8')) as RunBudgetFile;
  } catch {
    return undefined;
  }
  const sent = sizeOf(join(dir, 'sent'));
  const grown = grownOf(dir);
  return { limit: spec.limit === null ? null : spec.limit + grown, grown, sent, refused: sizeOf(join(dir, 'attempts')) - sent };
}

/**
 * A worker's handle on the run's counter. `onSpent` is called instead of sending when the budget is
 * spent (it must throw: the suite marks the check "not run: budget spent").
 */
export class SharedRequestBudget implements Budget {
  private readonly limit: number;
  private readonly grows: boolean;
  private mine = 0;

  constructor(
    private readonly dir: string,
    private readonly onSpent: (message: string) => never,
  ) {
    const spec = JSON.parse(readFileSync(join(dir, 'budget.json'), 'utf8')) as RunBudgetFile;
    this.limit = spec.limit ?? Infinity;
    this.grows = spec.grows === true;
  }

  /** The budget now: its limit, and what it has grown by when it grows. */
  private limitNow(): number {
    return this.grows ? this.limit + grownOf(this.dir) : this.limit;
  }

  take(what: string): void {
    const attempts = openSync(join(this.dir, 'attempts'), 'a');
    let position: number;
    try {
      appendFileSync(attempts, '.');
      position = fstatSync(attempts).size;
    } finally {
      closeSync(attempts);
    }
    const limit = position > this.limit ? this.limitNow() : this.limit;
    if (position > limit) {
      this.onSpent(
        `${BUDGET_SPENT}: the run's request budget of ${limit} requests is spent; ${what} was not sent. Raise REQUEST_BUDGET or certify fewer environments/families.`,
      );
    }
    appendFileSync(join(this.dir, 'sent'), '.');
    this.mine += 1;
  }

  /** Requests this worker sent. */
  get spent(): number {
    return this.mine;
  }
}

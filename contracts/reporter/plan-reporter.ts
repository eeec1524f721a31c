/**
 * Playwright reporter that makes the run's request plan once the tests are known and before any worker
 * starts (request-request-plan.ts): it prints the plan, sets the run's request budget (REQUEST_BUDGET, else the plan's total,
 * over what global setup created) and writes the plan for the workers, which leave out the units a partial run
 * cannot afford.
 */
import type { FullConfig, Reporter, Suite, TestCase } from '@playwright/test/reporter';
import { operationsFor } from '../../catalogue';
import { runConfig } from '../../config/read-config';
import type { PlannedRequests } from '../record/annotations';
import { readAnnotations } from '../record/annotation-reader';
import { planRun, requestsPerUnit, sessionRequests, unitOrder, type RequestPlan } from '../plan/request-plan';
import { RUN_DIR_ENV, createRunBudget, writeRunPlan } from '../plan/run-budget';
import { checkGrepTitle, runGrep } from '../outcomes/run-grep';
import { bucketCostLine } from '../plan/bucket-costs';

/** A test as listed before the run: its title and annotations, and its grep path and tags (see run-grep.ts). */
export interface ListedTest extends Pick<TestCase, 'title' | 'annotations'> {
  /** The root's empty title, the project, the file, the describes, the test's title. */
  path: readonly string[];
  tags: readonly string[];
}

/** What each test plans, from the annotations it declared: a group's checks the run's greps select. */
export function plannedOf(tests: readonly ListedTest[], selected: (grepTitle: string) => boolean = () => true): PlannedRequests[][] {
  return tests.map((t) =>
    readAnnotations(t).planned.filter((p) => p.check === undefined || selected(checkGrepTitle(t.path, p.check, p.tags, t.tags))),
  );
}

/** The workers' sessions of a run: each phase (plan/phases.ts) with tests starts its own workers. */
export const sessionsOf = (workers: number, tests: readonly Pick<ListedTest, 'path'>[]): number =>
  workers * Math.max(1, new Set(tests.map((t) => t.path[1])).size);

/**
 * The plan of a run whose tests plan these requests (plannedOf), under the configuration (in `npm run certify`'s
 * pre-pass and in the run); `workers`: the sessions its workers open (sessionsOf).
 */
export function planOf(planned: readonly (readonly PlannedRequests[])[], workers: number): RequestPlan {
  const cfg = runConfig();
  const operations = operationsFor(cfg);
  const perUnit = requestsPerUnit(planned);
  const session = sessionRequests(cfg, operations, workers);
  return planRun(perUnit, session, unitOrder(perUnit.keys(), operations), cfg.requestBudget, cfg.partialBudget);
}

/** The plan as one line: what it holds and the budget it runs on. */
export function planLine(p: RequestPlan): string {
  const budget = p.budget === null ? 'no budget (the embedded mock)' : `a budget of ${p.budget}`;
  const left = p.leftOut.length ? `; partial: ${p.leftOut.length} units left out (${p.leftOut.map((u) => u.unit).join(', ')})` : '';
  return `certify: plan: ${p.total} requests (${p.checks} for the checks, ${p.tokens} tokens, ${p.idSearches} id searches, ${p.margin} margin for re-sent calls), on ${budget}${left}`;
}

/**
 * Which checks may overlap: a group's checks among themselves (outcomes/check-groups.ts), up to `cap` calls at once
 * per worker; every other test sends its calls in turn, and a check that needs a bucket's count holds it alone.
 */
export function overlapLine(planned: readonly (readonly PlannedRequests[])[], cap: number): string {
  const groups = planned.map((p) => p.filter((c) => c.check !== undefined).length).filter((n) => n > 1);
  const checks = groups.reduce((a, b) => a + b, 0);
  if (cap <= 1) return 'certify: at once: one call at a time per worker (CERTIFY_CONCURRENCY=1)';
  if (!groups.length) return 'certify: at once: one call at a time per worker (no group holds two selected checks)';
  return (
    `certify: at once: the ${checks} checks of ${groups.length} groups may overlap within their group, up to ${cap} calls ` +
    `at once per worker as the round trip and each bucket's Remaining allow; every other test sends its calls in turn, ` +
    `and a check that needs a bucket's count holds that bucket alone`
  );
}

export default class PlanReporter implements Reporter {
  onBegin(config: FullConfig, suite: Suite): void {
    const dir = process.env[RUN_DIR_ENV];
    if (!dir) return; // --list: nothing runs
    let plan: RequestPlan;
    let overlap: string;
    let buckets: string | undefined;
    try {
      // Each test's checks as its own project's greps select them (plan/phases.ts).
      const tests = suite.allTests();
      const listed = tests.map((t) => ({ title: t.title, annotations: t.annotations, path: t.titlePath(), tags: t.tags }));
      const planned = listed.flatMap((t, i) => plannedOf([t], runGrep(config.argv, tests[i]?.parent.project())));
      plan = planOf(planned, sessionsOf(config.workers, listed));
      overlap = overlapLine(planned, runConfig().concurrency);
      buckets = bucketCostLine(planned);
    } catch {
      return; // A configuration error fails every check with its message (contracts/session/target.ts).
    }
    // Without REQUEST_BUDGET the budget is the plan's, grown by what the target advertises above its documents.
    createRunBudget(dir, plan.budget ?? Infinity, runConfig().requestBudget === undefined);
    writeRunPlan(dir, plan);
    console.log(planLine(plan));
    console.log(overlap);
    if (buckets) console.log(buckets);
  }

  printsToStdio(): boolean {
    return true;
  }
}

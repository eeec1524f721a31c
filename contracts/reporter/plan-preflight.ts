/**
 * The request plan before the run starts, for a REQUEST_BUDGET the user set: Playwright lists the tests the
 * run would execute (the same arguments, no request sent) and the plan is made from what they declare, as the
 * plan reporter makes it in the run. A budget below the plan ends `npm run certify` with exit 2 and the number.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { planOf, plannedOf, sessionsOf, type ListedTest } from './plan-reporter';
import { runGrep } from '../outcomes/run-grep';
import type { RequestPlan } from '../plan/request-plan';

const require = createRequire(import.meta.url);

interface ListedSuite {
  title: string;
  specs?: { title: string; tags?: string[]; tests: { projectName: string; annotations: { type: string; description?: string }[] }[] }[];
  suites?: ListedSuite[];
}

interface ListReport {
  config: { workers: number };
  suites: ListedSuite[];
  errors?: { message?: string }[];
}

/** The listed tests below `suite`, with their grep path (`titles`: the suites' titles above it, the file's first). */
function testsOf(suite: ListedSuite, titles: readonly string[] = []): ListedTest[] {
  const path = [...titles, suite.title];
  const own = (suite.specs ?? []).flatMap((spec) =>
    spec.tests.map((t) => ({
      title: spec.title,
      annotations: t.annotations,
      path: ['', t.projectName, ...path, spec.title],
      tags: (spec.tags ?? []).map((tag) => (tag.startsWith('@') ? tag : `@${tag}`)),
    })),
  );
  return [...own, ...(suite.suites ?? []).flatMap((s) => testsOf(s, path))];
}

/** The plan of the run these Playwright arguments select; throws with Playwright's message when the tests cannot be listed. */
export function preflightPlan(config: string, args: readonly string[]): RequestPlan {
  const r = spawnSync(
    process.execPath,
    [require.resolve('@playwright/test/cli'), 'test', '-c', config, '--list', '--reporter=json', ...args],
    {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  let report: ListReport;
  try {
    report = JSON.parse(r.stdout) as ListReport;
  } catch {
    throw new Error(`the tests could not be listed to plan the run's requests: ${(r.stderr || r.stdout).slice(0, 2000)}`);
  }
  if (report.errors?.length) throw new Error(`the tests could not be listed: ${report.errors.map((e) => e.message).join('\n')}`);
  const tests = report.suites.flatMap((s) => testsOf(s));
  return planOf(plannedOf(tests, runGrep(args)), sessionsOf(report.config.workers, tests));
}

/** The refusal of a run whose budget is below its plan: the number needed and what to do. */
export function budgetRefusal(plan: RequestPlan, budget: number): string | undefined {
  if (budget >= plan.total) return undefined;
  return (
    `needs ${plan.total} requests for this scope (${plan.checks} for the checks, ${plan.tokens} tokens, ${plan.idSearches} id searches, ` +
    `${plan.margin} margin), more than REQUEST_BUDGET=${budget}: set REQUEST_BUDGET=${plan.total}, leave it unset (the plan is the default), ` +
    `narrow ENVIRONMENTS/FAMILIES, or set REQUEST_BUDGET_PARTIAL=1 to run the operations the budget covers (the others not run, exit 99)`
  );
}

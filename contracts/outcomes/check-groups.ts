/**
 * Grouped checks: several checks in one Playwright test, each a step with its own verdict.
 *
 * Why: Playwright discards its worker after every failed test and a worker start costs 1–2 s, so a
 * target that fails many checks took minutes when each check was a test. In a group a failure does
 * not stop the next check; the test fails once at the end, listing every failed check. Each check's
 * verdict is an annotation (`check-result`) that the summary reporter turns into its own row, in the
 * group's order. Checks may run several at once against a distant target (`run`'s `concurrency`); each
 * soft assertion that fails is its own check's (the check running where it failed). The run's greps select
 * checks as they select tests (run-grep.ts).
 */
import { test, type TestInfo, type TestInfoError } from '@playwright/test';
import { redact } from '../../clients/redact';
import { ANNOTATION, runAsCheck, runningCheck, writeCheckResult, type CheckResult } from '../record/annotations';
import { FACTS_ANNOTATION } from '../record/fact-declarations';
import { planAnnotations, type CheckPlan } from '../plan/request-plan';
import { leftOutByPlan } from '../plan/run-budget';
import { checkGrepTitle, runGrep } from './run-grep';

export type { CheckResult } from '../record/annotations';

/** A check inside a group that reaches no verdict (not run, blocked, out of scope, not applicable): stops that check only, never the test. */
export class CheckSkipped extends Error {
  constructor(
    readonly kind: 'not-run' | 'blocked' | 'out-of-scope' | 'not-applicable',
    readonly reason: string,
    readonly bringsIn?: string,
  ) {
    super(`${kind}: ${reason}`);
  }
}

/** A grouped check's status for the way it stopped short of a verdict. */
const STATUS_OF_SKIP: Record<CheckSkipped['kind'], CheckResult['status']> = {
  'not-run': 'skipped',
  blocked: 'blocked',
  'out-of-scope': 'out-of-scope',
  'not-applicable': 'not-applicable',
};

/** The check running in a group, if any (label, notRun and blocked act on it instead of the test). */
export function currentCheck(): CheckResult | undefined {
  return runningCheck()?.result;
}

/**
 * While `work` runs, each error Playwright adds to the test (a soft assertion's) is also handed to the
 * check running where it was raised: `testInfo.errors` is the test's public list of them. Returns what
 * `work` returned and the errors added that no check claimed.
 */
async function attributingErrors<T>(info: TestInfo, work: () => Promise<T>): Promise<{ value: T; unclaimed: string[] }> {
  const errors = info.errors;
  const before = errors.length;
  const push = errors.push.bind(errors);
  let claimed = 0;
  errors.push = (...items: TestInfoError[]) => {
    const check = runningCheck();
    if (check) {
      check.softErrors.push(...items);
      claimed += items.length;
    }
    return push(...items);
  };
  try {
    const value = await work();
    // Counted, not trusted to the hook alone: an error added otherwise is nobody's, so no check may pass beside it.
    const added = errors.slice(before);
    return { value, unclaimed: added.length > claimed ? added.map((e) => e.message ?? '') : [] };
  } finally {
    errors.push = push;
  }
}

/** Runs `work` on each item, at most `limit` at once, keeping the results in the items' order. */
async function inOrder<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  return results;
}

/**
 * Runs `work` on each item at most `pace.concurrency()` at once. Before a round trip is measured the first item runs
 * alone, until one is (by it or by any other call); the rest then start beside it, in one lane fewer than the pace allows.
 */
async function runPaced<T, R>(items: readonly T[], pace: GroupPace, work: (item: T) => Promise<R>): Promise<R[]> {
  const [first, ...rest] = items;
  const known = pace.concurrency();
  if (first === undefined || known > 1) return inOrder(items, known, work);
  const running = work(first);
  await Promise.race([running.then(() => undefined), pace.measured()]);
  const limit = pace.concurrency();
  if (limit <= 1) return [await running, ...(await inOrder(rest, 1, work))];
  const [r0, others] = await Promise.all([running, inOrder(rest, limit - 1, work)]);
  return [r0, ...others];
}

type Body<A> = (args: A) => Promise<void>;

/** How many checks a group runs at once (session/call-pace.ts): what the worker's calls measured so far. */
export interface GroupPace {
  /** Checks to run at once now. */
  concurrency(): number;
  /** Settles once a round trip has been measured. */
  measured(): Promise<void>;
}

/** One check at a time: what a group runs at without a pace. */
const ONE_AT_A_TIME: GroupPace = { concurrency: () => 1, measured: () => Promise.resolve() };

/** Collects checks that run as one test; `args` are the test's fixtures, passed to each check. */
export class CheckGroup<A extends object> {
  private readonly checks: { title: string; body: Body<A>; plan: CheckPlan; tags?: readonly string[] | undefined }[] = [];

  /**
   * Adds a check with its plan: the requests it sends at most, and why it is left out when it is. Its tags
   * (the group test's when none) are what the run's greps read besides its title.
   */
  check(title: string, plan: CheckPlan, body: Body<A>, tags?: readonly string[]): void {
    this.checks.push({ title, body, plan, tags });
  }

  get titles(): string[] {
    return this.checks.map((c) => c.title);
  }

  /**
   * The group test's details: what each of its checks plans to send (request-plan.ts), and its tags: those
   * given and every check's own, so that a grep on a check's tag selects the group.
   */
  details(details: { tag?: string | string[] } = {}): { tag: string[]; annotation: { type: string; description: string }[] } {
    const given = details.tag === undefined ? [] : [details.tag].flat();
    const tag = [...new Set([...given, ...this.checks.flatMap((c) => c.tags ?? [])])];
    // A group's checks are left out one by one when it runs: the test carries only what each plans to send.
    const annotation = this.checks.flatMap((c) =>
      planAnnotations({ ...c.plan, check: c.title, ...(c.tags ? { tags: [...c.tags] } : {}) }).filter(
        (a) => a.type === ANNOTATION.plannedRequests || a.type === FACTS_ANNOTATION,
      ),
    );
    return { ...details, tag, annotation };
  }

  /** The check's status and reason when it is not to run: out of scope, not applicable, or beyond a partial budget. */
  private leftOut(plan: CheckPlan): Pick<CheckResult, 'status' | 'reason' | 'bringsIn'> | undefined {
    if (plan.outOfScope) return { status: 'out-of-scope', reason: plan.outOfScope.reason, bringsIn: plan.outOfScope.bringsIn };
    if (plan.notApplicable) return { status: 'not-applicable', reason: plan.notApplicable };
    const budget = plan.requests > 0 ? leftOutByPlan(plan.unit) : undefined;
    return budget ? { status: 'skipped', reason: budget } : undefined;
  }

  /** The checks the run's greps select (run-grep.ts), in the group's order. */
  private selected(info: TestInfo): typeof this.checks {
    const selected = runGrep(info.config.argv, info.project);
    const testPath = ['', info.project.name, ...info.titlePath];
    return this.checks.filter((c) => selected(checkGrepTitle(testPath, c.title, c.tags, info.tags)));
  }

  /** The units of the checks that run in the running test: selected by the run's greps and not left out. */
  runningUnits(): string[] {
    return this.selected(test.info())
      .filter((c) => !this.leftOut(c.plan))
      .map((c) => c.plan.unit);
  }

  /** Runs one check to its verdict: skipped, failed (thrown or soft), or passed. */
  private async runOne(c: (typeof this.checks)[number], args: A): Promise<CheckResult> {
    const skipped = this.leftOut(c.plan);
    if (skipped) return { title: c.title, durationMs: 0, ...skipped };
    const result: CheckResult = { title: c.title, status: 'passed', durationMs: 0 };
    const softErrors: TestInfoError[] = [];
    const started = performance.now();
    try {
      await runAsCheck({ result, softErrors }, () => test.step(c.title, () => c.body(args), { box: true }));
    } catch (e) {
      if (e instanceof CheckSkipped) {
        result.status = STATUS_OF_SKIP[e.kind];
        result.reason = e.reason;
        if (e.bringsIn) result.bringsIn = e.bringsIn;
      } else {
        result.status = 'failed';
        result.error = redact((e as Error)?.message ?? String(e));
      }
    }
    // Soft assertions fail the test without throwing: they fail their check too.
    const soft = softErrors.map((e) => e.message ?? '');
    if (soft.length && result.status !== 'failed') {
      result.status = 'failed';
      result.error = redact(soft.join('\n'));
    }
    result.durationMs = Math.round(performance.now() - started);
    return result;
  }

  /**
   * Runs the checks; each verdict is independent of the others: at most `pace.concurrency()` at once. While it
   * says one (nothing measured yet), the first runs alone until a round trip is measured, by it or by any call of
   * the worker: then the others start beside it, at the pace that round trip tells.
   */
  async run(args: A, pace: GroupPace = ONE_AT_A_TIME): Promise<void> {
    const info = test.info();
    const checks = this.selected(info);
    const runOne = (c: (typeof checks)[number]) => this.runOne(c, args);
    const { value: results, unclaimed } = await attributingErrors(info, () => runPaced(checks, pace, runOne));
    for (const r of unclaimed.length ? results.filter((x) => x.status === 'passed') : []) {
      r.status = 'failed';
      r.error = redact(`a soft assertion failed that no check of the group claimed:\n${unclaimed.join('\n')}`);
    }
    for (const r of results) writeCheckResult(info, r);
    const failures = results.filter((r) => r.status === 'failed').map((r) => `✘ ${r.title}\n${r.error ?? ''}`);
    if (failures.length) throw new Error(`${failures.length} of ${results.length} checks failed:\n\n${failures.join('\n\n')}`);
  }
}

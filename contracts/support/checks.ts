/**
 * Grouped checks: several checks in one Playwright test, each a step with its own verdict.
 *
 * Why: Playwright discards its worker after every failed test and a worker start costs 1–2 s, so a
 * target that fails many checks took minutes when each check was a test. In a group a failure does
 * not stop the next check; the test fails once at the end, listing every failed check. Each check's
 * verdict is an annotation (`check-result`) that the summary reporter turns into its own row.
 */
import { test } from '@playwright/test';
import { redact } from '../../clients/redact';
import { writeCheckResult, type CheckResult } from './annotations';

export type { CheckResult } from './annotations';

/** A check not run (or blocked) inside a group: stops that check only, never the test. */
export class CheckSkipped extends Error {
  constructor(
    readonly kind: 'not-run' | 'blocked',
    readonly reason: string,
  ) {
    super(`${kind}: ${reason}`);
  }
}

let current: CheckResult | undefined;

/** The check running in a group, if any (label, notRun and blocked act on it instead of the test). */
export function currentCheck(): CheckResult | undefined {
  return current;
}

type Body<A> = (args: A) => Promise<void>;

/** Collects checks that run as one test; `args` are the test's fixtures, passed to each check. */
export class CheckGroup<A extends object> {
  private readonly checks: { title: string; body: Body<A> }[] = [];

  check(title: string, body: Body<A>): void {
    this.checks.push({ title, body });
  }

  get titles(): string[] {
    return this.checks.map((c) => c.title);
  }

  /** Runs the checks in order; each verdict is independent of the others. */
  async run(args: A): Promise<void> {
    const info = test.info();
    const failures: string[] = [];
    for (const c of this.checks) {
      const result: CheckResult = { title: c.title, status: 'passed', durationMs: 0 };
      const errorsBefore = info.errors.length;
      const started = performance.now();
      current = result;
      try {
        await test.step(c.title, () => c.body(args), { box: true });
      } catch (e) {
        if (e instanceof CheckSkipped) {
          result.status = e.kind === 'blocked' ? 'blocked' : 'skipped';
          result.reason = e.reason;
        } else {
          result.status = 'failed';
          result.error = redact((e as Error)?.message ?? String(e));
        }
      } finally {
        current = undefined;
      }
      // Soft assertions fail the test without throwing: they fail their check too.
      const soft = info.errors.slice(errorsBefore).map((e) => e.message ?? '');
      if (soft.length && result.status !== 'failed') {
        result.status = 'failed';
        result.error = redact(soft.join('\n'));
      }
      result.durationMs = Math.round(performance.now() - started);
      if (result.status === 'failed') failures.push(`✘ ${c.title}\n${result.error ?? ''}`);
      writeCheckResult(info, result);
    }
    if (failures.length) throw new Error(`${failures.length} of ${this.checks.length} checks failed:\n\n${failures.join('\n\n')}`);
  }
}

/**
 * The request budget is a promise of the run: counted on the target's side, a run against a target
 * whose checks fail (each failure restarts a Playwright worker) sends at most REQUEST_BUDGET requests.
 */
import { test, expect } from '@playwright/test';
import { startProxy } from './support/targets';
import { certify } from './support/run-certify';
import { SharedRequestBudget, createRunBudget, growRunBudget, runBudgetUsage } from '../../contracts/plan/run-budget';

test('should send at most REQUEST_BUDGET requests in a run whose checks fail, across worker restarts', async () => {
  test.setTimeout(180_000);
  const target = await startProxy('fail-all');
  try {
    const budget = 60;
    // The token and auth checks (seven tests) stand for the suite. The plan keeps the units a partial budget
    // covers; each failure restarts a worker, and the run must still send no more than the budget.
    const r = await certify(
      {
        TARGET: target.url,
        REQUEST_BUDGET: String(budget),
        REQUEST_BUDGET_PARTIAL: '1',
        // One worker: its restarts after each failure are what the budget must hold across.
        CERTIFY_CONCURRENCY: '1',
        KNOWN_IDS: '{"orderNumber":"20-1"}',
        RESELLER_CLIENT_ID: 'x',
        RESELLER_CLIENT_SECRET: 'y',
        VENDOR_CLIENT_ID: 'x',
        VENDOR_CLIENT_SECRET: 'y',
      },
      ['-g', '@tokens|@auth'],
    );
    expect(r.status, r.stdout.slice(-2000) + r.stderr.slice(-1000)).toBe(1);
    expect(target.requests(), 'requests counted by the target').toBeLessThanOrEqual(budget);
    expect(target.requests(), 'the budget is used, not refused from the start').toBeGreaterThan(0);
    const s = r.summary();
    expect(s.requests?.sent).toBe(target.requests());
    expect(s.requests?.budget).toBe(budget);
    expect(s.tests.filter((t) => t.status === 'failed').length, 'the checks that ran failed').toBeGreaterThan(0);
    expect(
      s.tests.filter((t) => t.status === 'skipped' && t.reason?.startsWith('budget')).length,
      'the checks the budget does not cover are not run',
    ).toBeGreaterThan(0);
    expect(r.stdout).toMatch(new RegExp(`Requests sent: ${target.requests()} \\(planned \\d+\\) of a budget of ${budget}`));
  } finally {
    await target.close();
  }
});

test('should refuse the request past the run budget, counted across the holders of the run folder', () => {
  const dir = test.info().outputPath('run');
  createRunBudget(dir, 3);
  const spent: string[] = [];
  const holder = () =>
    new SharedRequestBudget(dir, (message) => {
      spent.push(message);
      throw new Error(message);
    });
  const [a, b] = [holder(), holder()];
  a.take('GET /one');
  b.take('GET /two');
  a.take('GET /three');
  expect(() => b.take('GET /four')).toThrow(/budget spent: the run's request budget of 3 requests is spent; GET \/four was not sent/);
  expect(runBudgetUsage(dir)).toEqual({ limit: 3, grown: 0, sent: 3, refused: 1 });
  // A REQUEST_BUDGET the user set does not grow.
  growRunBudget(dir, 5);
  expect(() => a.take('GET /five')).toThrow(/budget of 3 requests is spent/);
  expect(a.spent + b.spent).toBe(3);
});

test("should grow a budget that is the plan's by the calls a bucket advertises above its documented limit", () => {
  const dir = test.info().outputPath('run');
  createRunBudget(dir, 2, true);
  const budget = new SharedRequestBudget(dir, (message) => {
    throw new Error(message);
  });
  budget.take('GET /one');
  budget.take('GET /two');
  growRunBudget(dir, 2);
  budget.take('GET /three');
  budget.take('GET /four');
  expect(() => budget.take('GET /five')).toThrow(/budget of 4 requests is spent/);
  expect(runBudgetUsage(dir)).toMatchObject({ limit: 4, grown: 2, sent: 4 });
});

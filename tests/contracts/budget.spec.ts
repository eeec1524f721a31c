/**
 * The request budget is a promise of the run: counted on the target's side, a run against a target
 * whose checks fail (each failure restarts a Playwright worker) sends at most REQUEST_BUDGET requests.
 */
import { test, expect } from '@playwright/test';
import { startProxy } from './support/targets';
import { certify } from './support/run-certify';

test('should send at most REQUEST_BUDGET requests in a run whose checks fail, across worker restarts', async () => {
  test.setTimeout(180_000);
  const target = await startProxy('fail-all');
  try {
    const budget = 12;
    // The token and auth checks (seven tests) stand for the suite: the first failure spends the budget, and
    // the run still restarts its worker and must leave the rest out.
    const r = await certify(
      {
        TARGET: target.url,
        REQUEST_BUDGET: String(budget),
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
    expect(s.requests?.checksLeftOutByBudget).toBeGreaterThan(0);
    expect(s.tests.filter((t) => t.status === 'failed').length, 'the checks that ran failed').toBeGreaterThan(0);
    expect(r.stdout).toMatch(new RegExp(`Requests sent: ${target.requests()} of a budget of ${budget}; \\d+ checks not run: budget spent`));
  } finally {
    await target.close();
  }
});

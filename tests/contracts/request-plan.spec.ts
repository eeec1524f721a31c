/**
 * The request plan (contracts/plan/request-plan.ts): made before the first request from what each test declares,
 * the default budget of a run against a deployment, refused (exit 2) when REQUEST_BUDGET is below it, and
 * partial in whole units when asked. The shipped workflow's certify step on a conforming deployment, a whole
 * certification within its plan: certify-workflow.spec.ts (the long suite).
 */
import { test, expect } from '@playwright/test';
import { startMock, type RunningMock } from '../../mock';
import { allOperations } from '../../catalogue';
import { loadConfig } from '../../config/read-config';
import { planRun, sessionRequests, unitOrder } from '../../contracts/plan/request-plan';
import { MOCK_APPS_ENV, certify } from './support/run-certify';
import { startProxy } from './support/targets';

test('should plan whole units in catalogue order within a partial budget, the session and the margin first', () => {
  const perUnit = new Map([
    ['orders.search', 10],
    ['token.reseller', 5],
    ['catalog.search', 4],
    ['deals.search', 3],
  ]);
  const order = unitOrder(perUnit.keys(), allOperations());
  expect(order, 'check families first, then operations in catalogue order').toEqual([
    'token.reseller',
    'catalog.search',
    'orders.search',
    'deals.search',
  ]);
  const session = { tokens: 2, idSearches: 3 };
  const whole = planRun(perUnit, session, order, undefined, false);
  expect(whole).toMatchObject({ checks: 22, margin: 2, total: 29, budget: 29, leftOut: [] });
  const partial = planRun(perUnit, session, order, 20, true);
  // 20 less the session and margin (7) covers tokens (5) and catalog.search (4), not orders.search (10): it and all after it are left out.
  expect(partial.leftOut).toEqual([
    { unit: 'orders.search', requests: 10 },
    { unit: 'deals.search', requests: 3 },
  ]);
  expect(planRun(perUnit, session, order, 20, false).leftOut, 'not partial: the run is refused instead').toEqual([]);
});

test('should plan one token per worker, family and environment and one search per id source, none for KNOWN_IDS', () => {
  const cfg = loadConfig({ ...MOCK_APPS_ENV, TARGET: 'https://api.example.com' });
  const ops = allOperations().filter((o) => cfg.families.includes(o.family));
  const both = sessionRequests(cfg, ops, 2);
  expect(both.tokens).toBe(2 * 2 * 2);
  const known = loadConfig({ ...MOCK_APPS_ENV, TARGET: 'https://api.example.com', KNOWN_IDS: '{"orderNumber":"20-1"}' });
  expect(sessionRequests(known, ops, 2).idSearches, 'a known id needs no search or create').toBeLessThan(both.idSearches);
});

test.describe('a certification planned before its first request', () => {
  let mock: RunningMock;
  test.beforeAll(async () => {
    mock = await startMock({ windowMs: 60_000, seed: 7 });
  });
  test.afterAll(async () => mock.close());

  test('should end a run whose REQUEST_BUDGET is below its plan with exit 2 and the number, before any request', async () => {
    test.setTimeout(120_000);
    const target = await startProxy('pass-through', mock.url);
    try {
      const r = await certify({ ...MOCK_APPS_ENV, TARGET: target.url, REQUEST_BUDGET: '50' });
      expect(r.status, r.stdout.slice(-2000) + r.stderr.slice(-2000)).toBe(2);
      expect(r.stderr).toMatch(
        /certify: cannot start: needs (\d+) requests for this scope .*more than REQUEST_BUDGET=50: set REQUEST_BUDGET=\1/,
      );
      expect(target.requests(), 'no request reached the target').toBe(0);
    } finally {
      await target.close();
    }
  });

  test('should cut the same whole operations on every partial run and exit 99 naming them', async () => {
    test.setTimeout(240_000);
    const env = { ...MOCK_APPS_ENV, TARGET: mock.url, REQUEST_BUDGET: '120', REQUEST_BUDGET_PARTIAL: '1' };
    // Two workers, as few as keep the order the checks run in open: the cut is made before either starts.
    const args = ['--workers', '2', '-g', '@auth|@tokens'];
    const runs = [await certify(env, args), await certify(env, args)];
    const cut = runs.map((r) => {
      expect(r.status, r.stdout.slice(-3000)).toBe(99);
      const s = r.summary();
      expect(s.requests?.sent).toBeLessThanOrEqual(120);
      // The summary lists them in the order the run reached them; the cut is a set.
      return (s.leftOut ?? [])
        .filter((l) => l.kind === 'not-run')
        .map((l) => l.reason)
        .sort();
    });
    expect(cut[0]?.length, 'a budget below the plan cuts something').toBeGreaterThan(0);
    expect(cut[0]?.every((reason) => /^budget: \S+ is left out by REQUEST_BUDGET_PARTIAL/.test(reason))).toBe(true);
    expect(cut[1]).toEqual(cut[0]);
  });
});

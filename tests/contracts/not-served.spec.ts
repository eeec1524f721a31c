/**
 * "Not served" told apart from "unknown data" on a target whose data the harness does not know: the mock
 * with another seed, as a URL target, whose sandbox does not serve deal search. A search names no data
 * of the target, so its 404 fails as an operation not served in the sandbox, never a finding about ids;
 * production, which serves it, passes.
 */
import { test, expect } from '@playwright/test';
import { DriftLayer, startMock, type RunningMock } from '../../mock';
import { DEFAULT_WINDOW_MS } from '../../catalogue';
import { MOCK_APPS_ENV, ONE_WORKER, certify } from './support/run-certify';
import { validCallsOf } from './support/greps';

let mock: RunningMock;
test.beforeEach(async () => {
  mock = await startMock({ seed: 7, windowMs: DEFAULT_WINDOW_MS, layer: new DriftLayer(['routing.sandbox-search-not-served'], false) });
});
test.afterEach(async () => {
  await mock.close();
});

test('should fail a 404 to a search in one environment as "operation not served" and record no unknown-id finding', async () => {
  test.setTimeout(180_000);
  const r = await certify({ ...MOCK_APPS_ENV, TARGET: mock.url }, [...ONE_WORKER, '-g', validCallsOf(['deals.search'])]);
  const tests = r.summary().tests;
  const failed = tests.filter((t) => t.status === 'failed');
  expect(
    failed.map((t) => t.title),
    r.stdout.slice(-2000),
  ).toEqual([expect.stringMatching(/deals\.search .*\(sandbox\)/)]);
  expect(failed[0]?.error).toMatch(/operation not served in sandbox: GET \/resellers\/v6\/deals\/search/);
  expect(tests.find((t) => /\(production\)/.test(t.title))?.status).toBe('passed');
  expect(r.findings().filter((f) => f.id.startsWith('errors.fixture-unknown'))).toEqual([]);
});

/**
 * Certify a deployment whose data the harness does not know: the mock started with another seed is
 * a URL target (same API, other data). Ids come from the target's own search answers.
 */
import { test, expect } from '@playwright/test';
import { resellerOperations } from '../../catalogue';
import { startMock, type RunningMock } from '../../mock';
import { MOCK_APPS_ENV, ONE_WORKER, certify } from './support/run-certify';

let mock: RunningMock;
test.beforeEach(async () => {
  mock = await startMock({ seed: 7, windowMs: 60_000 });
});
test.afterEach(async () => {
  await mock.close();
});

const DETAILS = resellerOperations.filter((o) => o.needs.some((n) => n.in === 'path') && o.readOnly);

test('should certify a target with other data through ids it lists itself: 0 failures, every details operation answered', async () => {
  test.setTimeout(240_000);
  // The operation checks (every operation, both families and environments: the checks that read ids), on one worker.
  // Every check of a deployment with other data, at its own workers: certify-workflow.spec.ts (the long suite).
  const r = await certify({ ...MOCK_APPS_ENV, TARGET: mock.url }, [...ONE_WORKER, '-g', '@operations']);
  const s = r.summary();
  expect(s.totals.failed, r.stdout.slice(-3000)).toBe(0);
  // Nothing failed; what a URL target leaves out (no WEBHOOK_SECRET) is listed: exit 0.
  expect(s.totals.skipped + s.totals.blocked, r.stdout.slice(-3000)).toBe(0);
  expect(s.totals.outOfScope, r.stdout.slice(-3000)).toBeGreaterThan(0);
  expect(r.status).toBe(0);
  expect(DETAILS.map((o) => o.id)).toEqual(expect.arrayContaining(['catalog.details', 'orders.details', 'deals.details']));
  for (const op of DETAILS) {
    for (const env of ['production', 'sandbox'] as const) {
      const row = s.operations.find((o) => o.id === op.id && o.environment === env);
      expect(row?.checks['valid-call'], `${op.id} (${env}) answered 2xx with its shape`).toBe('passed');
    }
  }
  const ids = s.ids ?? [];
  for (const need of new Set(DETAILS.flatMap((o) => o.needs.map((n) => n.id)))) {
    expect(
      ids.some((i) => i.name === need && i.origin === 'discovered'),
      `${need} was discovered from the target`,
    ).toBe(true);
  }
  expect(
    r.findings().some((f) => f.id.startsWith('errors.fixture-unknown')),
    'no fixture id was tried',
  ).toBe(false);
  expect(r.stdout).toMatch(/Ids from the target: .*orderNumber \S+ \(listed by orders\.search/);
});

// An unknown configured id (KNOWN_IDS): rate-limit-gateways.spec.ts, in the run it shares with the plain-text 429 gateway.

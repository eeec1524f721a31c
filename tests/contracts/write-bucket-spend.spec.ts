/**
 * A write operation's bucket spent once (contracts/bucket-spend.spec.ts, PROBE_WRITE_LIMITS): judged as a read's,
 * so a limit enforced one call late fails the check naming the fact and the operation; on a deployment the spending
 * is its own opt-in, listed out of scope with the setting that brings it in and never failing the run.
 */
import { test, expect } from '@playwright/test';
import { DEFAULT_WINDOW_MS } from '../../catalogue';
import { DriftLayer, startMock } from '../../mock';
import { MOCK_APPS_ENV, ONE_WORKER, certify } from './support/run-certify';
import { writeBucketSpendsOf } from './support/greps';

const WRITES = ['returns.create', 'orders.cancel'];

test("should fail each write operation's bucket that allows a call past its advertised limit, naming the fact and the operation", async () => {
  test.setTimeout(180_000);
  const r = await certify({ MOCK_DRIFT: 'limits.extra-call' }, [...ONE_WORKER, '-g', writeBucketSpendsOf(WRITES, 'sandbox')]);
  expect(r.status, r.stdout.slice(-2000) + r.stderr.slice(-1000)).toBe(1);
  const failed = r.summary().tests.filter((t) => t.status === 'failed');
  for (const op of WRITES)
    expect(
      failed.some((t) => (t.error ?? '').includes(`Broken fact: X-RateLimit-Limit is the limit enforced (${op}, sandbox)`)),
      `${op}: ${JSON.stringify(failed.map((t) => t.error))}`,
    ).toBe(true);
  // The limit broken at both places; the 429 that came after judged there all the same (body, headers).
  expect(r.stdout).toMatch(/Facts judged at 6 of \d+ places \(2 failed\)/);
});

test("should list the write operations' buckets out of scope on a deployment without PROBE_WRITE_LIMITS, and pass", async () => {
  test.setTimeout(180_000);
  const mock = await startMock({ seed: 7, windowMs: DEFAULT_WINDOW_MS, layer: new DriftLayer([], false) });
  try {
    const env = { ...MOCK_APPS_ENV, TARGET: mock.url, PROBE_LIMITS: '1', ENVIRONMENTS: 'sandbox' };
    const r = await certify(env, [...ONE_WORKER, '-g', writeBucketSpendsOf(WRITES, 'sandbox')]);
    expect(r.status, r.stdout.slice(-2000) + r.stderr.slice(-1000)).toBe(0);
    expect(r.stdout).toMatch(/out of scope: .*PROBE_WRITE_LIMITS=1 6\b/);
    expect(r.stdout, 'nothing is spent: the plan prints no bucket').not.toMatch(/certify: buckets:/);
  } finally {
    await mock.close();
  }
});

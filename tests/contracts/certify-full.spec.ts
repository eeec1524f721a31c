/**
 * The whole certification of the embedded mock, every check (the long suite: 15-20 s of CPU; the fast suite
 * certifies a slice of it, certify.spec.ts): it passes, writes every report with the OPENAPI section, and leaves
 * the canary client secret and the issued tokens out of all of it.
 */
import { test, expect } from '@playwright/test';
import { certifyWithCanary, expectEveryReport, expectNothingLeaked } from './support/canary-run';

test('should certify the embedded mock, exit 0, write every report with the OPENAPI section and leave no client secret or issued token in them', async () => {
  test.setTimeout(420_000);
  const r = await certifyWithCanary([]);
  expect(r.status, r.stdout.slice(-3000) + r.stderr.slice(-2000)).toBe(0);
  const summary = r.summary();
  expect(summary.verdict).toBe('passed');
  expect(summary.totals.failed).toBe(0);
  expect(summary.totals.blocked + summary.totals.skipped, 'a clean run judges every check: exit 0, not 99').toBe(0);
  expect(r.stdout).not.toContain('Not judged');
  // Every (fact, place) pair of the ledger judged: the embedded mock spends every bucket, the write operations' too.
  expect(r.stdout).toMatch(/^Facts judged at (\d+) of \1 places$/m);
  // One row per catalogued operation (24 of the spec table + 4 the published document adds + 3 vendor) and environment.
  expect(summary.operations).toHaveLength(62);
  const findings = r.findings();
  for (const id of [
    'token.method',
    'token.lifetime',
    'ratelimit.reset-unit',
    'auth.other-family-token',
    'environments.vendor-sandbox-base',
    'webhooks.push',
  ]) {
    expect(
      findings.some((f) => f.id.startsWith(id)),
      id,
    ).toBe(true);
  }
  expect(expectEveryReport(r).allure).toBeGreaterThan(40);
  // OPENAPI: the bodies of the mapped operations validated against the imported document.
  const openapi = (summary as unknown as { openapi: { mapped: unknown[]; bodiesValidated: number; bodiesFailed: number } }).openapi;
  expect(openapi.mapped).toHaveLength(3);
  expect(openapi.bodiesValidated).toBe(6);
  expect(openapi.bodiesFailed).toBe(0);
  expect(r.stdout).toMatch(/OpenAPI .*3 operations mapped, 6 bodies validated, 0 failed/);
  test.info().annotations.push({ type: 'certify-wall-time', description: `${r.seconds.toFixed(1)} s` });
  expectNothingLeaked(r);
});

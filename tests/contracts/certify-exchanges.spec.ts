/**
 * reports/exchanges.har of a certification of the embedded mock on two workers with canary credentials: a valid
 * HAR 1.2 log holding every request the summary counts, each under a check of the summary, and nothing secret.
 */
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HarLog } from '../../contracts/reporter/exchanges-har';
import { certifyWithCanary, expectNothingLeaked } from './support/canary-run';
import { harProblems } from './support/har-validate';
import { pagingOf, validCallsOf } from './support/greps';

/** Token checks, webhooks (signed calls), paging (queries) and valid calls with bodies: every kind of request. */
const SLICE = ['@tokens', '@webhooks', pagingOf(['catalog.search']), validCallsOf(['catalog.details', 'orders.create'])].join('|');

test('should write every exchange of a run to exchanges.har, valid HAR 1.2, one entry per request sent, with no secret', async () => {
  test.setTimeout(300_000);
  // A webhook's tag would select its bucket spent to the 429 (a thousand calls): the full run's (certify-full.spec.ts).
  const r = await certifyWithCanary(['-g', SLICE, '--grep-invert', '@bucket-spend', '--workers', '2']);
  expect(r.status, r.stdout.slice(-3000) + r.stderr.slice(-2000)).toBe(0);
  const har = JSON.parse(readFileSync(join(r.out, 'exchanges.har'), 'utf8')) as HarLog;
  expect(harProblems(har)).toEqual([]);
  const summary = r.summary();
  const entries = har.log.entries;
  expect(entries.length, 'one entry per request the summary counts').toBe(summary.requests?.sent);
  const checks = new Set(summary.tests.map((t) => t.title));
  const owned = entries.filter((e) => e._check !== undefined);
  expect(owned.length, 'nearly every exchange belongs to a check (a worker set-up may send before any test)').toBeGreaterThan(
    entries.length / 2,
  );
  for (const e of owned) expect(checks, `${e.request.method} ${e.request.url}`).toContain(e._check);
  expect(entries.some((e) => e.request.queryString.some((q) => q.name === 'pageSize'))).toBe(true);
  expect(entries.some((e) => e.request.postData?.text.includes('client_secret=[REDACTED]'))).toBe(true);
  expect(entries.some((e) => e.response.content.text.includes('"access_token":"[REDACTED]"'))).toBe(true);
  expect(new Set(entries.map((e) => e._correlationId)).size).toBe(entries.length);
  expectNothingLeaked(r);
});

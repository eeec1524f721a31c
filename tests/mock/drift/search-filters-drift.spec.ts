/**
 * certify against a mock whose searches ignore documented filters: each check of a filter the mode breaks fails,
 * naming the search, the filter and the environment, and the run's ledger has that fact failed at that place; the
 * filters the mode leaves working pass.
 */
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FactLedger } from '../../../reporting/report-shapes';
import { ONE_WORKER, certify, type CertifyRun } from '../../contracts/support/run-certify';
import { filtersOf } from '../../contracts/support/greps';

/** The ledger's judged pairs of the run, `fact place environment` by verdict. */
function judged(r: CertifyRun): { failed: string[]; passed: string[] } {
  const { facts } = JSON.parse(readFileSync(join(r.out, 'summary.json'), 'utf8')) as { facts?: FactLedger };
  const cells = facts?.cells ?? [];
  const of = (status: string) =>
    cells
      .filter((c) => c.status === status && c.fact.startsWith('search.filter.'))
      .map((c) => `${c.fact} ${c.place} ${c.environment}`)
      .sort();
  return { failed: of('failed'), passed: of('passed') };
}

const errorsOf = (r: CertifyRun): string =>
  r
    .summary()
    .tests.map((t) => t.error ?? '')
    .join('\n');

test('should fail the list filters orderStatus-in and returnStatus-in of a search that ignores them, and pass its single-value filters', async () => {
  test.setTimeout(180_000);
  const r = await certify({ MOCK_DRIFT: 'answers.list-filter-ignored' }, [
    ...ONE_WORKER,
    '-g',
    filtersOf(['orders.search', 'returns.search'], 'production'),
  ]);
  expect(r.status, r.stdout.slice(-2000) + r.stderr.slice(-1000)).toBe(1);
  const { failed, passed } = judged(r);
  expect(failed).toEqual([
    'search.filter.orderStatus-in orders.search production',
    'search.filter.returnStatus-in returns.search production',
  ]);
  expect(passed).toEqual(
    expect.arrayContaining(['search.filter.orderStatus orders.search production', 'search.filter.returnClaimId returns.search production']),
  );
  expect(errorsOf(r)).toMatch(
    /Broken fact: returns\.search filtered by returnStatus-in=\S+ lists only items whose status is \S+ \(production\)/,
  );
});

test('should fail every newly documented filter of a search that ignores its filters, naming the fact and the place', async () => {
  test.setTimeout(180_000);
  const searches = ['quotes.search', 'invoices.search', 'renewals.search', 'returns.search', 'orders.search'];
  const r = await certify({ MOCK_DRIFT: 'answers.filter-ignored' }, [...ONE_WORKER, '-g', filtersOf(searches, 'sandbox')]);
  expect(r.status, r.stdout.slice(-2000) + r.stderr.slice(-1000)).toBe(1);
  const { failed, passed } = judged(r);
  expect(passed).toEqual([]);
  expect(failed).toEqual(
    expect.arrayContaining([
      'search.filter.quoteNumber quotes.search sandbox',
      'search.filter.specialBidNumber quotes.search sandbox',
      'search.filter.status quotes.search sandbox',
      'search.filter.endCustomerOrderNumber invoices.search sandbox',
      'search.filter.customerOrderNumber renewals.search sandbox',
      'search.filter.returnClaimId returns.search sandbox',
      'search.filter.referenceNumber returns.search sandbox',
      'search.filter.returnStatus-in returns.search sandbox',
      'search.filter.orderStatus-in orders.search sandbox',
    ]),
  );
  expect(errorsOf(r)).toMatch(
    /Broken fact: renewals\.search filtered by customerOrderNumber=\S+ lists only items whose customerOrderNumber is \S+ \(sandbox\)/,
  );
});

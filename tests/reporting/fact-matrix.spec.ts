/**
 * The ledger of facts x places on the report page (a matrix: a row per place, a column per fact, a mark per
 * environment) and in the GitHub step summary (only the pairs that need a look), built from a small summary.
 */
import { test, expect } from '@playwright/test';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildReport } from '../../reporting/build-report';
import { factLedgerMarkdown } from '../../reporting/fact-ledger-lines';
import type { FactLedger, LedgerCell } from '../../reporting/report-shapes';
import { FACTS } from '../../catalogue';
import { sampleSummary } from './sample';

const FAILED_CHECK = 'should answer a valid orders.create call (production)';

/** Seven pairs: one failed, two passed, three out of scope (two by PROBE_LIMITS, one by ENVIRONMENTS), one not judged. */
function smallLedger(): FactLedger {
  const cells: LedgerCell[] = [
    {
      fact: 'answer.valid-call',
      place: 'orders.create',
      environment: 'production',
      family: 'reseller',
      status: 'failed',
      reason: FAILED_CHECK,
    },
    {
      fact: 'answer.valid-call',
      place: 'orders.create',
      environment: 'sandbox',
      family: 'reseller',
      status: 'out-of-scope',
      reason: 'ENVIRONMENTS excludes sandbox',
      bringsIn: 'ENVIRONMENTS including sandbox',
    },
    { fact: 'headers.present', place: 'catalog.details', environment: 'production', family: 'reseller', status: 'passed' },
    {
      fact: 'headers.present',
      place: 'catalog.details',
      environment: 'sandbox',
      family: 'reseller',
      status: 'not-judged',
      reason: 'REQUEST_BUDGET spent',
    },
    ...(['production', 'sandbox'] as const).map((environment): LedgerCell => ({
      fact: 'limit.honoured',
      place: 'catalog.details',
      environment,
      family: 'reseller',
      status: 'out-of-scope',
      reason: 'it spends the whole bucket',
      bringsIn: 'PROBE_LIMITS=1',
    })),
    { fact: 'token.as-documented', place: 'token.vendor', environment: 'production', family: 'vendor', status: 'passed' },
  ];
  return {
    places: 7,
    judged: 3,
    failed: 1,
    leftOut: [
      { status: 'out-of-scope', reason: 'PROBE_LIMITS=1', places: 2 },
      { status: 'out-of-scope', reason: 'ENVIRONMENTS including sandbox', places: 1 },
      { status: 'not-judged', reason: 'REQUEST_BUDGET spent', places: 1 },
    ],
    cells,
  };
}

/** The page `npm run report` builds from a summary that carries the ledger. */
async function pageWith(facts: FactLedger | undefined): Promise<string> {
  const dir = mkdtempSync(test.info().outputPath('facts-'));
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(sampleSummary(facts ? { facts } : {})));
  return readFileSync((await buildReport({ reportsDir: dir })).htmlPath, 'utf8');
}

/** The marks of one cell of the matrix (place row, fact column), as [class, title] pairs. */
function marksAt(html: string, place: string, fact: string): [string, string][] {
  const row = new RegExp(`<tr data-place="${place.replace('.', '\\.')}">(.*?)</tr>`).exec(html)?.[1] ?? '';
  const cell = new RegExp(`<td class="m" data-fact="${fact.replace(/\./g, '\\.')}">(.*?)</td>`).exec(row)?.[1];
  if (cell === undefined) throw new Error(`no cell for ${fact} at ${place}`);
  return [...cell.matchAll(/<span class="fm ([a-z-]+)" data-env="[a-z]+" title="([^"]*)"/g)].map((m) => [m[1] as string, m[2] as string]);
}

test.describe('facts x places', () => {
  test('should show a mark per environment in each cell, with its reason and the setting that brings it in', async () => {
    const html = await pageWith(smallLedger());
    expect(html).toContain(
      '<p id="facts-line">Facts judged at 3 of 7 places (1 failed); 3 out of scope: PROBE_LIMITS=1 2, ENVIRONMENTS including sandbox 1; 1 not judged: REQUEST_BUDGET spent 1</p>',
    );
    expect(marksAt(html, 'orders.create', 'answer.valid-call')).toEqual([
      ['failed', `production: failed: ${FAILED_CHECK}`],
      ['out-of-scope', 'sandbox: out of scope: ENVIRONMENTS excludes sandbox; brought in by ENVIRONMENTS including sandbox'],
    ]);
    expect(marksAt(html, 'catalog.details', 'limit.honoured')).toEqual([
      ['out-of-scope', 'production: out of scope: it spends the whole bucket; brought in by PROBE_LIMITS=1'],
      ['out-of-scope', 'sandbox: out of scope: it spends the whole bucket; brought in by PROBE_LIMITS=1'],
    ]);
    expect(marksAt(html, 'catalog.details', 'headers.present')).toEqual([
      ['passed', 'production: passed'],
      ['not-judged', 'sandbox: not judged: REQUEST_BUDGET spent'],
    ]);
    expect(marksAt(html, 'orders.create', 'limit.honoured'), 'a pair outside the ledger leaves its cell empty').toEqual([]);
  });

  test('should give a column per fact of the ledger with its statement, and group the places by family', async () => {
    const html = await pageWith(smallLedger());
    const heads = [...html.matchAll(/<th scope="col" class="fact" title="([^"]*)">([^<]*)<\/th>/g)].map((m) => m[2]);
    expect(heads).toEqual(['answer.valid-call', 'headers.present', 'limit.honoured', 'token.as-documented']);
    const statement = FACTS.find((f) => f.id === 'limit.honoured')?.statement ?? 'absent';
    expect(html).toContain(`title="${statement}">limit.honoured</th>`);
    const groups = [...html.matchAll(/<th scope="rowgroup"[^>]*>([^<]*)<\/th>|<tr data-place="([^"]*)">/g)].map((m) => m[1] ?? m[2]);
    expect(groups).toEqual(['reseller', 'orders.create', 'catalog.details', 'vendor', 'token.vendor']);
  });

  test('should leave the section out for a summary without a ledger', async () => {
    expect(await pageWith(undefined)).not.toContain('id="facts"');
  });

  test('should list only the failed and not-judged pairs in the step summary', () => {
    const md = factLedgerMarkdown(smallLedger()).join('\n');
    expect(md).toContain('Facts judged at 3 of 7 places (1 failed)');
    const rows = md.split('\n').filter((l) => /^\| (failed|not judged|passed|out of scope) \|/.test(l));
    expect(rows).toEqual([
      `| failed | answer.valid-call | orders.create | production | ${FAILED_CHECK} |`,
      '| not judged | headers.present | catalog.details | sandbox | REQUEST_BUDGET spent |',
    ]);
  });
});

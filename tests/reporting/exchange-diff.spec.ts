import { test, expect } from '@playwright/test';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildReport } from '../../reporting/build-report';
import { changedChecks } from '../../reporting/exchange-diff';
import type { HarEntry, HarLog } from '../../reporting/har-shapes';
import type { RunSummary } from '../../reporting/report-shapes';
import { sampleExchange, sampleFailedCheck, sampleSummary } from './sample';

const failed = sampleFailedCheck('Broken fact: a page holds at most pageSize entries');
const passedBefore = { ...failed, status: 'passed' as const, reproduction: undefined };

/** A run folder with its summary and exchanges.har. */
function runDir(root: string, name: string, summary: RunSummary, entries: HarEntry[]): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(summary));
  const har: HarLog = { log: { version: '1.2', creator: { name: 'x', version: '1' }, entries } };
  writeFileSync(join(dir, 'exchanges.har'), JSON.stringify(har));
  return dir;
}

test.describe('exchanges of the checks whose verdict changed', () => {
  const before = () => sampleSummary({ tests: [passedBefore] });
  const after = () => sampleSummary({ tests: [failed], verdict: 'failed' });

  test('should pair the exchanges by request and show the status, headers and fields that differ', () => {
    const old = sampleExchange(passedBefore, 200, '{"recordsFound":12,"pageSize":2}');
    const now = sampleExchange(failed, 200, '{"recordsFound":12,"pageSize":25}');
    now.response.headers.push({ name: 'x-ratelimit-limit', value: '60' }, { name: 'x-ratelimit-remaining', value: '3' });
    const changes = changedChecks(before(), [old], after(), [now]);
    expect(changes).toEqual([
      {
        title: failed.title,
        file: failed.file,
        before: 'passed',
        after: 'failed',
        exchanges: [
          {
            request: 'GET /resellers/v6/catalog?pageSize=2&pageNumber=1',
            headers: ['x-ratelimit-limit: — → 60'],
            fields: ['pageSize: 2 → 25'],
          },
        ],
      },
    ]);
    expect(changedChecks(after(), [now], after(), [now]), 'a verdict that did not change shows nothing').toEqual([]);
  });

  test('should show them on the page npm run report builds with --baseline, read from both runs exchanges.har', async () => {
    const root = mkdtempSync(test.info().outputPath('runs-'));
    const base = runDir(root, 'base', before(), [sampleExchange(passedBefore, 200, '{"pageSize":2}')]);
    const dir = runDir(root, 'now', after(), [sampleExchange(failed, 500, '{"pageSize":2}')]);
    const r = await buildReport({ reportsDir: dir, baseline: join(base, 'summary.json') });
    expect(r.changedChecks[0]?.exchanges[0]?.status).toEqual({ before: 200, after: 500 });
    const html = readFileSync(r.htmlPath, 'utf8');
    expect(html).toContain('id="changed-checks"');
    expect(html).toContain(`${failed.title} (paging.spec.ts): passed → failed`);
    expect(html).toContain('GET /resellers/v6/catalog?pageSize=2&amp;pageNumber=1: status 200 → 500');
  });
});

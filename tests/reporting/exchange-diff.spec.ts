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
            headers: ['X-RateLimit-Limit: — → 60', 'X-RateLimit-Remaining: — → an integer within the limit'],
            fields: ['pageSize: 2 → 25'],
          },
        ],
      },
    ]);
    expect(changedChecks(after(), [now], after(), [now]), 'a verdict that did not change shows nothing').toEqual([]);
  });

  test('should show a change in a judged header or field, and not a fresh Date, ETag, id or timestamp', () => {
    /** A page of the catalogue as the target answers it at `at` seconds: fresh headers, ids and timestamps each time. */
    const page = (at: number, limit: string, pageSize: number) => {
      const body = {
        recordsFound: 12,
        pageSize,
        pageNumber: 1,
        catalog: [{ ingramPartNumber: 'A1', description: `made ${at}`, updatedAt: at }],
      };
      const e = sampleExchange(failed, 200, JSON.stringify(body));
      e.response.headers.push(
        { name: 'Date', value: new Date(at * 1000).toUTCString() },
        { name: 'ETag', value: `"${at.toString(16)}"` },
        { name: 'IM-CorrelationID', value: `c0ffee${at}` },
        { name: 'X-RateLimit-Limit', value: limit },
        { name: 'X-RateLimit-Remaining', value: String(at % 50) },
        { name: 'X-RateLimit-Reset', value: String(at + 60) },
      );
      return e;
    };
    const noise = changedChecks(before(), [page(1_800_000_000, '60', 2)], after(), [page(1_800_000_777, '60', 2)]);
    expect(noise[0]?.exchanges, 'Date, ETag, the correlation id, Remaining, an epoch Reset, ids and timestamps are no change').toEqual([]);
    const judged = changedChecks(before(), [page(1_800_000_000, '60', 2)], after(), [page(1_800_000_777, '30', 25)]);
    expect(judged[0]?.exchanges).toEqual([
      {
        request: 'GET /resellers/v6/catalog?pageSize=2&pageNumber=1',
        headers: ['X-RateLimit-Limit: 60 → 30'],
        fields: ['pageSize: 2 → 25'],
      },
    ]);
    const secondsReset = page(1_800_000_777, '60', 2);
    (secondsReset.response.headers.find((h) => h.name === 'X-RateLimit-Reset') as { value: string }).value = '42';
    secondsReset.response.content.text = secondsReset.response.content.text.replace('"made 1800000777"', 'null');
    expect(changedChecks(before(), [page(1_800_000_000, '60', 2)], after(), [secondsReset])[0]?.exchanges[0]).toEqual({
      request: 'GET /resellers/v6/catalog?pageSize=2&pageNumber=1',
      headers: ['X-RateLimit-Reset: an integer (epoch) → an integer (seconds)'],
      fields: ['catalog[].description: string → null'],
    });
  });

  test('should read an echoed field as the value asked, and not compare an id the target made up', () => {
    /** An exchange of `method url` answered with `body`. */
    const call = (method: string, url: string, body: unknown, sent?: unknown) => {
      const e = sampleExchange(failed, 200, JSON.stringify(body));
      e.request.method = method;
      e.request.url = `http://127.0.0.1:9${url}`;
      if (sent !== undefined) e.request.postData = { mimeType: 'application/json', text: JSON.stringify(sent) };
      return e;
    };
    const details = (answered: string) =>
      call('GET', '/sandbox/resellers/v6/catalog/details/A1', { ingramPartNumber: answered, description: answered });
    expect(changedChecks(before(), [details('A1')], after(), [details('B2')])[0]?.exchanges).toEqual([
      { request: 'GET /sandbox/resellers/v6/catalog/details/A1', headers: [], fields: ['ingramPartNumber: the value asked → "B2"'] },
    ]);
    const created = (order: string, asked: string) =>
      call(
        'POST',
        '/resellers/v6/orders',
        { customerOrderNumber: asked, orders: [{ ingramOrderNumber: order }] },
        { customerOrderNumber: asked },
      );
    expect(
      changedChecks(before(), [created('20-11111', 'PO-1')], after(), [created('20-22222', 'PO-2')])[0]?.exchanges,
      'a fresh order number, and the customer number each run asked, are no change',
    ).toEqual([]);
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

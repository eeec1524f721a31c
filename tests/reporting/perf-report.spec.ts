/**
 * The report page and the JSON diff carry the capacity comparison: per operation the verdict, the intervals and the
 * two latency distributions drawn over each other (in Chromium).
 */
import { test, expect, chromium } from '@playwright/test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildReport } from '../../reporting/build-report';
import { compareCapacityRuns, type CapacityRunComparison } from '../../reporting/capacity-runs';
import { sampleSummary } from './sample';

const CHROMIUM = '/usr/bin/chromium';

/** A reports folder with a summary and a capacity run's raw requests (k6 JSON lines, gzip): `ms(i)` per request. */
function runWith(root: string, name: string, ms: (id: string, i: number) => number, ids = ['orders.search', 'catalog.details']): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'load'), { recursive: true });
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(sampleSummary()));
  const lines = [
    JSON.stringify({
      type: 'Metric',
      data: { name: 'http_req_duration', type: 'trend', contains: 'time', thresholds: [], submetrics: null },
      metric: 'http_req_duration',
    }),
  ];
  for (const id of ids)
    for (let i = 0; i < 300; i++)
      lines.push(
        JSON.stringify({
          metric: 'http_req_duration',
          type: 'Point',
          data: {
            time: new Date(1_700_000_000_000 + i * 30).toISOString(),
            value: ms(id, i),
            tags: { operation: id, status: '200', expected_response: 'true' },
          },
        }),
      );
  writeFileSync(join(dir, 'load', 'capacity-samples.json.gz'), gzipSync(lines.join('\n') + '\n'));
  return dir;
}

test.describe('the performance section of the report', () => {
  let root = '';
  const runs = () => {
    root = mkdtempSync(test.info().outputPath('perf-'));
    const spread = (i: number) => ((i * 7919) % 100) / 100;
    const old = runWith(root, 'old', (_id, i) => 2 + spread(i));
    const now = runWith(root, 'new', (id, i) => (id === 'orders.search' ? 22 : 2) + spread(i));
    return buildReport({ reportsDir: now, baseline: join(old, 'summary.json') });
  };

  test('should carry the comparison in diff.json beside the behaviour diff', async () => {
    const r = await runs();
    expect(r.performance?.verdict).toBe('failed');
    const diff = JSON.parse(readFileSync(r.diffPath as string, 'utf8')) as { performance: CapacityRunComparison; changed: boolean };
    expect(diff.changed).toBe(false);
    expect(diff.performance.operations.map((o) => [o.id, o.verdict])).toEqual([
      ['catalog.details', 'no change detected'],
      ['orders.search', 'slower'],
    ]);
  });

  test('should refuse to compare runs that share no operation, rather than pass on nothing', async () => {
    const dir = mkdtempSync(test.info().outputPath('perf-'));
    const old = runWith(dir, 'old', () => 2, ['orders.search']);
    const now = runWith(dir, 'new', () => 2, ['catalog.details']);
    await expect(compareCapacityRuns(join(old, 'load'), join(now, 'load'))).rejects.toThrow(
      /share no operation .*baseline: orders\.search; current: catalog\.details/,
    );
  });

  test('should draw both latency distributions of each operation with its verdict', async () => {
    test.skip(!existsSync(CHROMIUM), `Debian chromium is not installed at ${CHROMIUM} (.ci/run installs it with apt-get)`);
    const r = await runs();
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--headless', '--disable-gpu'] });
    try {
      const page = await browser.newPage();
      await page.goto(`file://${r.htmlPath}`);
      await page.waitForSelector('#performance[data-charts=rendered]', { timeout: 15_000 });
      await expect(page.locator('#performance h2')).toContainText('FAILED');
      await expect(page.locator('tr.perf[data-verdict="slower"]')).toContainText('orders.search');
      // Both runs' distributions, drawn: a canvas per operation with pixels on it.
      const drawn = await page.$$eval('#perf-table canvas', (cs) =>
        cs.map((c) =>
          (c as HTMLCanvasElement)
            .getContext('2d')
            ?.getImageData(0, 0, (c as HTMLCanvasElement).width, (c as HTMLCanvasElement).height)
            .data.some((v) => v !== 0),
        ),
      );
      expect(drawn).toEqual([true, true]);
    } finally {
      await browser.close();
    }
  });
});

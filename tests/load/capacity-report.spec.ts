/** The report page shows the last capacity run (reports/load/capacity.json), or says how to get one. */
import { test, expect } from '@playwright/test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildReport } from '../../reporting/build-report';
import { capacityResult } from '../../load/shared/summary-verdicts';
import { sampleSummary } from '../reporting/sample';

function reportsDir(): string {
  const dir = test.info().outputPath('reports');
  mkdirSync(join(dir, 'load'), { recursive: true });
  const summary = sampleSummary();
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(summary));
  writeFileSync(join(dir, 'findings.json'), JSON.stringify(summary.findings));
  return dir;
}

test.describe('capacity on the report page', () => {
  test('should show each operation with its rates, latencies, 429s, errors and threshold verdicts', async () => {
    const dir = reportsDir();
    const result = capacityResult([{ id: 'catalog.search', targetRate: 6, durationSec: 10 }], {
      state: { testRunDurationMs: 10_500 },
      metrics: {
        'http_reqs{operation:catalog.search}': { type: 'counter', values: { count: 58 }, thresholds: { 'count>=54': { ok: true } } },
        'http_req_duration{operation:catalog.search}': {
          type: 'trend',
          values: { 'p(50)': 1.5, 'p(95)': 4.25, 'p(99)': 9 },
          thresholds: { 'p(95)<800': { ok: true } },
        },
        'capacity_429{operation:catalog.search}': { type: 'counter', values: { count: 3 }, thresholds: { 'count==0': { ok: false } } },
      },
    });
    writeFileSync(join(dir, 'load', 'capacity.json'), JSON.stringify({ ...result, fraction: 0.5, duration: '10s' }));
    const { htmlPath } = await buildReport({ reportsDir: dir });
    const html = readFileSync(htmlPath, 'utf8');
    expect(html).toContain('<h2>Capacity: FAILED</h2>');
    expect(html).toMatch(
      /<tr class="cap" data-verdict="failed"><td><code>catalog\.search<\/code><\/td><td class="n">6<\/td><td class="n">5\.8<\/td><td class="n">58<\/td><td class="n">1\.5 \/ 4\.3 \/ 9\.0<\/td><td class="n">3<\/td>/,
    );
    expect(html).toContain('<div class="bad">✗ capacity_429 <code>count==0</code></div>');
    expect(html).toContain('<div class="good">✓ http_req_duration <code>p(95)&lt;800</code></div>');
  });

  test('should say how to run capacity when no run was found', async () => {
    const { htmlPath } = await buildReport({ reportsDir: reportsDir() });
    expect(readFileSync(htmlPath, 'utf8')).toContain(
      'No capacity run found (reports/load/capacity.json): run <code>npm run load -- capacity</code>',
    );
  });
});

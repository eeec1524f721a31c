import { test, expect, chromium } from '@playwright/test';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { buildReport } from '../../reporting/build-report';
import { diffRuns } from '../../reporting/run-diff';
import { registerSecret } from '../../clients/redact';
import { allOperations } from '../../catalogue';
import { sampleSummary, sampleLimits, sampleTimeline } from './sample';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

function dirWith(withLoad: boolean, summary = sampleSummary()): string {
  const dir = mkdtempSync(test.info().outputPath('report-'));
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(summary));
  writeFileSync(join(dir, 'findings.json'), JSON.stringify(summary.findings));
  if (withLoad) {
    mkdirSync(join(dir, 'load'));
    writeFileSync(join(dir, 'load', 'limits.json'), JSON.stringify(sampleLimits()));
    writeFileSync(join(dir, 'load', 'probe-timeline.json'), JSON.stringify(sampleTimeline()));
  }
  return dir;
}

test.describe('certification report', () => {
  test('should diff two runs: newly failing, limits, findings, headers and fields', () => {
    const before = sampleSummary();
    const after = sampleSummary();
    after.tests[0] = { ...(after.tests[0] as (typeof after.tests)[0]), status: 'failed' };
    (after.operations[0] as (typeof after.operations)[0]).advertisedLimit = 30;
    (after.operations[1] as (typeof after.operations)[0]).headers = ['content-type'];
    (after.operations[2] as (typeof after.operations)[0]).fields = ['items', 'extra'];
    after.findings = [{ ...(after.findings[0] as (typeof after.findings)[0]), observed: 'seconds' }];
    const d = diffRuns(before, after);
    expect(d.newlyFailing).toHaveLength(1);
    expect(d.limitsChanged[0]).toMatchObject({ before: 150, after: 30, source: 'advertised' });
    expect(d.headersDisappeared.map((h) => h.header)).toContain('x-ratelimit-limit');
    expect(d.fieldsAppeared).toEqual([{ row: expect.any(String), field: 'extra' }]);
    expect(d.findingsChanged).toEqual(
      expect.arrayContaining([{ id: 'ratelimit.reset-unit@production', before: 'epoch', after: 'seconds' }]),
    );
    expect(d.changed).toBe(true);
    expect(diffRuns(before, sampleSummary()).changed).toBe(false);
  });

  test('should render one row per operation, the findings and non-empty plots in Chromium', async () => {
    test.skip(!existsSync(CHROMIUM), `Debian chromium is not installed at ${CHROMIUM} (.ci/run installs it with apt-get)`);
    const dir = dirWith(true);
    const baseline = join(dir, 'baseline.json');
    const older = sampleSummary();
    (older.operations[0] as (typeof older.operations)[0]).advertisedLimit = 50;
    writeFileSync(baseline, JSON.stringify(older));
    const { htmlPath, diff } = await buildReport({ reportsDir: dir, baseline });
    expect(diff?.limitsChanged).toHaveLength(1);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    try {
      const page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
      const offline: string[] = [];
      page.on('request', (r) => {
        if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) offline.push(r.url());
      });
      await page.goto(`file://${htmlPath}`);
      await page.waitForSelector('body[data-charts=rendered]', { timeout: 15_000 });
      await expect(page.locator('#operations tbody tr.op')).toHaveCount(allOperations().length * 2);
      await expect(page.locator('#findings tbody tr.finding')).not.toHaveCount(0);
      await expect(page.locator('#findings')).toContainText('ratelimit.reset-unit');
      await expect(page.locator('#diff')).toContainText('advertised limit of');
      await expect(page.locator('#verdict')).toHaveText('PASSED');
      for (const id of ['remaining', 'reset', 'latency']) {
        const painted = await page.evaluate((cid) => {
          const c = document.getElementById(cid) as HTMLCanvasElement;
          const data = c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data ?? new Uint8ClampedArray();
          let n = 0;
          for (let i = 3; i < data.length; i += 4) if ((data[i] as number) > 0) n++;
          return { n, w: c.width };
        }, id);
        expect(painted.w, `${id} canvas has a size`).toBeGreaterThan(0);
        expect(painted.n, `${id} canvas has painted pixels`).toBeGreaterThan(500);
      }
      expect(offline, 'the page loads nothing from the network').toEqual([]);
      await page.screenshot({ path: test.info().outputPath('report.png') });
    } finally {
      await browser.close();
    }
  });

  test('should build without load results and say how to get them', async () => {
    const dir = dirWith(false);
    const { htmlPath } = await buildReport({ reportsDir: dir });
    const html = readFileSync(htmlPath, 'utf8');
    expect(html).toContain('No probe run found');
    expect(html).not.toMatch(/<script[^>]+src=/);
  });

  test('should leave no canary secret in the page or the diff', async () => {
    const canary = 'canary-report-secret-91c2';
    registerSecret(canary);
    const dir = dirWith(true, sampleSummary({}, canary));
    writeFileSync(join(dir, 'base.json'), JSON.stringify(sampleSummary({}, canary)));
    await buildReport({ reportsDir: dir, baseline: join(dir, 'base.json') });
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.html') || x === 'diff.json')) {
      expect(readFileSync(join(dir, f), 'utf8'), f).not.toContain(canary);
    }
  });

  test('should exit non-zero with --fail-on-change when behaviour changed', () => {
    const dir = dirWith(false);
    const older = sampleSummary();
    older.findings = [];
    writeFileSync(join(dir, 'old.json'), JSON.stringify(older));
    const r = spawnSync(
      process.execPath,
      ['node_modules/tsx/dist/cli.mjs', 'scripts/report.ts', '--out', dir, '--baseline', join(dir, 'old.json'), '--fail-on-change'],
      { encoding: 'utf8' },
    );
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/2 findings changed/);
    expect(JSON.parse(readFileSync(join(dir, 'diff.json'), 'utf8')).changed).toBe(true);
  });
});

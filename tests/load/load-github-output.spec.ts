/**
 * `npm run load` on GitHub Actions: the step summary (Markdown) and the annotations of a k6 command, from how it
 * ended; and the command's outcome path writing them to GITHUB_STEP_SUMMARY when GITHUB_ACTIONS is on, never when off.
 */
import { test, expect } from '@playwright/test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { registerSecret } from '../../clients/redact';
import {
  capacityTable,
  concludeK6Command,
  manifestTable,
  loadAnnotations,
  loadReport,
  loadStepSummary,
  verdictOf,
  type LoadReport,
} from '../../runner/load-github-output';
import { defaultLoadOptions } from '../../runner/load-options';
import type { K6Outcome } from '../../runner/outcome';
import type { FingerprintManifestEntry } from '../../load/shared/bucket-probe';
import { runK6Step } from '../../runner/run';
import { COMMANDS } from '../../runner/steps';

const CANARY = 'canary-load-summary-secret';
registerSecret(CANARY);

const BROKEN = [
  'catalog.details: refused before its advertised limit: advertised 65, observed 60; evidence: 60 calls | 429 at call 61',
  `orders.create: 429 body is not the documented JSON error body: advertised (none), observed (none); evidence: body text/html sent ${CANARY}`,
];
const NOT_JUDGED = ['orders.details: advertised limit not judged: a bucket could have refilled 1', 'orders.details: 429 body not seen'];

const report = (over: Partial<LoadReport> = {}): LoadReport => ({
  command: 'probe-limits',
  target: 'the embedded mock',
  exitCode: 1,
  k6ExitCode: 0,
  broken: BROKEN,
  notJudged: NOT_JUDGED,
  notRun: [{ id: 'quotes.details', reason: 'no quote on the target' }],
  table: {
    head: ['operation', 'verdict', 'advertised'],
    numeric: [false, false, true],
    rows: [
      ['catalog.details', 'failed', '65'],
      ['orders.details', 'not judged', '-'],
    ],
  },
  ...over,
});

test.describe('npm run load on GitHub Actions', () => {
  test('should write the command, its verdict and exit code, its table and every broken, unjudged and unrun operation as Markdown', () => {
    const md = loadStepSummary(report());
    expect(md).toMatch(/^## npm run load -- probe-limits on the embedded mock: ❌ FAILED: a documented fact broken \(exit 1\)$/m);
    expect(md).toContain('| operation | verdict | advertised |\n|---|---|---:|\n| catalog.details | failed | 65 |');
    expect(md).toContain('### Broken facts (2)');
    // The evidence's pipe escaped: the row keeps its two cells.
    expect(md).toContain(
      '| catalog.details | refused before its advertised limit: advertised 65, observed 60; evidence: 60 calls \\| 429 at call 61 |',
    );
    expect(md).toContain('### Not judged (2)\n\n| operation | what |');
    expect(md).toContain('| orders.details | 429 body not seen |');
    expect(md).toContain('### Not run (1)');
    expect(md).toContain('| quotes.details | no quote on the target |');
    expect(loadStepSummary(report({ exitCode: 0, broken: [], notJudged: [], notRun: [] }))).not.toContain('###');
    // Ended before k6 ran: the reasons, a line each.
    const before = loadReport(
      'probe-limits',
      defaultLoadOptions({}),
      { exitCode: 99, message: `no operation left\norders.details not run: ${CANARY}` },
      99,
    );
    // Redacted whatever else the worker registered as secret before (a shorter secret may mask part of the canary).
    const md2 = loadStepSummary(before);
    expect(md2).toMatch(/⚠️ NOT JUDGED \(exit 99\)\n\n```\nno operation left\norders\.details not run: [^\n]*\[REDACTED\]\n```/);
    expect(md2).not.toContain(CANARY);
  });

  test("should show the limiter's fingerprint columns when the probe read one, and capacity's rates and latency", () => {
    const read = { id: 'catalog.details', advertisedLimit: 60, observedLimit: 60, windowMs: 1000, requestsSpent: 70 };
    const fp = { ...read, algorithm: 'token-bucket', burst: 60, sustainedPerSecond: 1, verdict: 'no algorithm fits' };
    const t = manifestTable([fp as FingerprintManifestEntry]);
    expect(t.head).toEqual(['operation', 'verdict', 'advertised', 'observed', 'window ms', 'requests', 'algorithm', 'burst', 'per s']);
    expect(t.rows).toEqual([['catalog.details', 'no result', '60', '60', '1000', '70', 'token-bucket', '60', '1']]);
    const row = { id: 'orders.create', targetRate: 2.5, achievedRate: null, requests: 5, p50Ms: 3, p95Ms: 9.04321, p99Ms: 12 };
    const c = capacityTable([{ ...row, status429: 1, errors: 0, thresholds: [], verdict: 'failed' }]);
    expect(c.rows).toEqual([['orders.create', 'failed', '2.50', '-', '9.0', '1', '0']]);
  });

  test('should say each exit code in words', () => {
    const v = (exitCode: number, k6ExitCode?: number, broken: string[] = []) =>
      verdictOf({ exitCode, broken, ...(k6ExitCode === undefined ? {} : { k6ExitCode }) });
    expect(v(0, 0)).toBe('✅ PASSED');
    expect(v(1, 0, BROKEN)).toBe('❌ FAILED: a documented fact broken');
    expect(v(1, 1)).toBe('❌ FAILED: k6 exited with 1');
    expect(v(99, 0)).toBe('⚠️ NOT JUDGED');
    expect(v(99)).toBe('⚠️ NOT JUDGED');
    expect(v(99, 99)).toBe('❌ FAILED: thresholds crossed');
    expect(v(4, 0)).toBe('❌ NO RESULT: k6 wrote no result file');
    expect(v(105, 105)).toBe('❌ STOPPED: --max-duration passed');
    expect(v(2)).toBe('⛔ REFUSED before start');
    expect(v(3)).toBe('⛔ NOT RUN');
  });

  test('should annotate each broken fact as an error and each operation not judged or not run as a warning, titled with the operation', () => {
    const lines = loadAnnotations(report());
    expect(lines).toEqual([
      '::error title=catalog.details::refused before its advertised limit: advertised 65, observed 60; evidence: 60 calls | 429 at call 61',
      expect.stringMatching(/^::error title=orders\.create::429 body is not the documented JSON error body/),
      '::warning title=orders.details::advertised limit not judged: a bucket could have refilled 1%0A429 body not seen',
      '::warning title=quotes.details::not run: no quote on the target',
    ]);
  });

  test('should append the verdict and every broken fact to GITHUB_STEP_SUMMARY from the probe manifest, redacted, when GITHUB_ACTIONS is on', () => {
    const dir = test.info().outputPath();
    mkdirSync(dir, { recursive: true });
    const entry = (id: string, advertised: number, observed: number, breaches: { broken: string; evidence: string }[]) => ({
      id,
      method: 'GET',
      path: '/x',
      environment: 'production',
      advertisedLimit: advertised,
      observedLimit: observed,
      remainingStep: true,
      windowMs: 1000,
      resetUnit: 'epoch',
      resetErrorMs: 0,
      requestsSpent: observed + 1,
      limitVerdict: {
        verdict: breaches.length ? 'failed' : 'passed',
        breaches: breaches.map((b) => ({ fact: 'limit-honoured', advertised, observed, ...b })),
        notJudged: [],
        notes: [],
      },
    });
    const manifest = {
      durationMs: 10,
      requests: 130,
      operations: [
        entry('catalog.details', 65, 60, [{ broken: 'refused before its advertised limit', evidence: '60 calls' }]),
        entry('orders.create', 155, 150, [{ broken: 'refused before its advertised limit', evidence: `token ${CANARY}` }]),
        entry('catalog.search', 60, 60, []),
      ],
    };
    writeFileSync(join(dir, 'limits.json'), JSON.stringify(manifest));
    const probe = COMMANDS['probe-limits'];
    if (probe?.kind !== 'k6' || !probe.after) throw new Error('probe-limits reads its manifest after k6');
    const judged = probe.after({ outDir: dir, exitCode: 0, startedMs: Date.now() });
    if (!judged) throw new Error('the manifest was written');
    const outcome: K6Outcome = { exitCode: 0, wrote: true, ...judged, notRun: [], summaryExport: 's.json' };

    const summary = join(dir, 'step-summary.md');
    const printed: string[] = [];
    const log = console.log;
    console.log = (l: string) => printed.push(l);
    try {
      const on = defaultLoadOptions({ GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary });
      expect(concludeK6Command('probe-limits', on, outcome)).toBe(1);
      expect(concludeK6Command('probe-limits', defaultLoadOptions({ GITHUB_STEP_SUMMARY: join(dir, 'off.md') }), outcome)).toBe(1);
    } finally {
      console.log = log;
    }
    const md = readFileSync(summary, 'utf8');
    expect(md).toContain('probe-limits on the embedded mock: ❌ FAILED: a documented fact broken (exit 1)');
    for (const line of judged.broken) expect(md).toContain(line.slice(line.indexOf(': ') + 2).replace(CANARY, '[REDACTED]'));
    expect(md).toContain('| operation | verdict | advertised | observed | window ms | requests |\n');
    expect(md).toContain('| catalog.search | passed | 60 | 60 | 1000 | 61 |\n');
    expect(printed.filter((l) => l.startsWith('::error title='))).toHaveLength(2);
    expect([md, ...printed].join('\n')).not.toContain(CANARY);
    expect(existsSync(join(dir, 'off.md')), 'GITHUB_ACTIONS off: no step summary').toBe(false);
  });

  test('should write a refused command to GITHUB_STEP_SUMMARY with its reason and exit code', async () => {
    const summary = join(test.info().outputPath(), 'step-summary.md');
    mkdirSync(test.info().outputPath(), { recursive: true });
    const probe = COMMANDS['probe-limits'];
    if (probe?.kind !== 'k6') throw new Error('probe-limits is a k6 command');
    const o = { ...defaultLoadOptions({ GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary }), target: 'http://127.0.0.1:9' };
    expect(await runK6Step('probe-limits', probe, o)).toBe(2);
    const md = readFileSync(summary, 'utf8');
    expect(md).toContain('## npm run load -- probe-limits on http://127.0.0.1:9: ⛔ REFUSED before start (exit 2)');
    expect(md).toContain('pass --allow-quota-spend to confirm');
  });
});

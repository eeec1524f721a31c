/**
 * The probe bundles, run in the k6 under test (K6_BIN, else the double) against the mock with a compressed window and seeded
 * random per-operation limits, must report exactly those limits and the window within 100 ms.
 */
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { allOperations } from '../../catalogue';
import type { LimitsManifestEntry } from '../../reporting/report-shapes';
import { randomLimits } from '../../runner/plan';
import { cliArgs, k6UnderTest } from '../cli-bundles';

function runLoad(script: string, args: string[]) {
  const out = mkdtempSync(test.info().outputPath('load-'));
  const started = Date.now();
  const r = spawnSync(process.execPath, [...cliArgs('load'), script, '--reports-dir', out, '--bundle-dir', join(out, 'bundles'), ...args], {
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, K6_BIN: k6UnderTest() },
  });
  const manifest = JSON.parse(readFileSync(join(out, 'limits.json'), 'utf8')) as {
    operations: LimitsManifestEntry[];
    durationMs: number;
    requests: number;
  };
  return { r, out, manifest, seconds: (Date.now() - started) / 1000 };
}

test.describe('probes end to end (the k6 K6_BIN names, else the double)', () => {
  // Real time, like the fingerprint end-to-end tests: with a benchmark saturating both cores beside them,
  // 1 run in 10 saw a refill 114 ms after the advertised reset (a stalled poll; see BENCHMARKS.md). A
  // retry is reported as flaky in the run's summary line, never hidden.
  test.describe.configure({ retries: 2 });
  test('should measure exactly the random limit of every operation with at most L+2 requests each', async () => {
    test.setTimeout(150_000);
    const seed = 4242;
    const expected = randomLimits(allOperations(), seed);
    const { r, manifest } = runLoad('probe-limits', ['--window-ms', '60000', '--random-limits', String(seed)]);
    expect(r.status, r.stderr + r.stdout).toBe(0);
    expect(manifest.operations).toHaveLength(allOperations().length);
    for (const e of manifest.operations) {
      expect(e.advertisedLimit, e.id).toBe(expected[e.id]);
      expect(e.observedLimit, e.id).toBe(expected[e.id]);
      expect(e.remainingStep, e.id).toBe(true);
      expect(e.resetUnit).toBe('epoch');
      expect(e.requestsSpent, `${e.id} spends at most L+2`).toBeLessThanOrEqual((expected[e.id] as number) + 2);
    }
    test.info().annotations.push({
      type: 'probe-limits',
      description: `${manifest.requests} requests, ${manifest.durationMs} ms for ${manifest.operations.length} operations`,
    });
    expect(r.stdout).toMatch(/advertised\s+observed/);
  });

  test('should find when each bucket refills within 100 ms of the window end', async () => {
    test.setTimeout(150_000);
    const seed = 99;
    const ops = ['catalog.search', 'orders.create', 'deals.details', 'invoices.details', 'renewals.search', 'webhooks.orderStatus'];
    const windowMs = 1500;
    const { r, manifest, out } = runLoad('probe-reset', [
      '--window-ms',
      String(windowMs),
      '--random-limits',
      String(seed),
      '--ops',
      ops.join(','),
    ]);
    expect(r.status, r.stderr + r.stdout).toBe(0);
    const expected = randomLimits(
      allOperations().filter((o) => ops.includes(o.id)),
      seed,
    );
    for (const e of manifest.operations) {
      expect(e.observedLimit, e.id).toBe(expected[e.id]);
      expect(e.windowMs, `${e.id} refill measured`).not.toBeNull();
      expect(
        Math.abs((e.windowMs as number) - windowMs),
        `${e.id}: measured window ${e.windowMs} ms vs ${windowMs} ms`,
      ).toBeLessThanOrEqual(100);
      // Reset is a whole epoch second at or after the window end: the refill comes at most 1 s before it.
      expect(e.resetErrorMs as number).toBeLessThanOrEqual(100);
      expect(e.resetErrorMs as number).toBeGreaterThanOrEqual(-1100);
    }
    const timeline = JSON.parse(readFileSync(join(out, 'probe-timeline.json'), 'utf8')) as { operations: { samples: unknown[] }[] };
    expect(timeline.operations).toHaveLength(ops.length);
    test.info().annotations.push({
      type: 'probe-reset',
      description: manifest.operations.map((e) => `${e.id}: window ${e.windowMs} ms, reset error ${e.resetErrorMs} ms`).join('; '),
    });
  });
});

/**
 * probe-reset and verify-pacing end to end: the bundles in the k6 test double against the mock in
 * each limiter mode, with compressed windows. Each mode must be identified with its burst, rate and
 * window, and its recommended pacing must draw no 429 at >= 90 % of the measured rate.
 */
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allOperations } from '../../catalogue';
import { randomLimits } from '../../scripts/load';
import type { FingerprintManifestEntry } from '../../load/scripts/probe';
import type { VerifyResult } from '../../load/scripts/verify-pacing';

const WINDOW_MS = 800;
const SEED = 7;
const OPS = ['catalog.search', 'orders.create'];
const LIMITS = randomLimits(
  allOperations().filter((o) => OPS.includes(o.id)),
  SEED,
);

function load(script: string, out: string, args: string[]) {
  const started = Date.now();
  const r = spawnSync(
    process.execPath,
    [
      'node_modules/tsx/dist/cli.mjs',
      'scripts/load.ts',
      script,
      '--runtime',
      'node',
      '--out',
      out,
      '--window-ms',
      String(WINDOW_MS),
      '--random-limits',
      String(SEED),
      '--ops',
      OPS.join(','),
      ...args,
    ],
    { encoding: 'utf8', timeout: 120_000 },
  );
  return { r, ms: Date.now() - started };
}

function manifest(out: string) {
  const file = join(out, 'limits.json');
  expect(existsSync(file), `${file} written`).toBe(true);
  return JSON.parse(readFileSync(file, 'utf8')) as { operations: FingerprintManifestEntry[]; durationMs: number; requests: number };
}

const MODES = [
  { limiter: 'fixed', headers: 'x-ratelimit', algorithm: 'fixed-window' },
  { limiter: 'sliding-log', headers: 'x-ratelimit', algorithm: 'sliding-window' },
  { limiter: 'sliding-counter', headers: 'x-ratelimit', algorithm: 'sliding-window' },
  { limiter: 'token-bucket', headers: 'x-ratelimit', algorithm: 'token-bucket' },
  { limiter: 'leaky-bucket', headers: 'x-ratelimit', algorithm: 'token-bucket' },
  { limiter: 'fixed', headers: 'ietf', algorithm: 'fixed-window' },
  { limiter: 'sliding-log', headers: 'none', algorithm: 'sliding-window' },
  { limiter: 'token-bucket', headers: 'ietf', algorithm: 'token-bucket' },
  { limiter: 'leaky-bucket', headers: 'none', algorithm: 'token-bucket' },
] as const;

test.describe('rate-limit fingerprint end to end in the k6 test double', () => {
  for (const mode of MODES) {
    test(`should identify ${mode.limiter} behind ${mode.headers} headers and verify its pacing with no 429`, async () => {
      test.setTimeout(120_000);
      const out = mkdtempSync(join(tmpdir(), `fingerprint-${mode.limiter}-`));
      const mock = ['--limiter', mode.limiter, '--headers', mode.headers];
      const probe = load('probe-reset', out, mock);
      expect(probe.r.status, probe.r.stderr + probe.r.stdout).toBe(0);
      const m = manifest(out);
      const notes: string[] = [];
      for (const e of m.operations) {
        const L = LIMITS[e.id] as number;
        const rate = (L / WINDOW_MS) * 1000;
        const label = `${mode.limiter}/${mode.headers} ${e.id} (L=${L})\n${(e.evidence ?? []).join('\n')}`;
        expect(e.verdict, label).toBeNull();
        expect(e.algorithm, label).toBe(mode.algorithm);
        expect(e.burst, label).toBe(L);
        const sustained = e.sustainedPerSecond as number;
        if (mode.limiter === 'sliding-counter') {
          // Drains get fewer calls from a weighted counter than even pacing does: read low (safe), never high.
          expect(sustained / rate, label).toBeGreaterThanOrEqual(0.7);
          expect(sustained / rate, label).toBeLessThanOrEqual(1.05);
        } else expect(Math.abs(sustained - rate) / rate, `${label}\nsustained ${sustained}/s`).toBeLessThanOrEqual(0.1);
        if (mode.algorithm !== 'token-bucket' && mode.limiter !== 'sliding-counter')
          expect(Math.abs((e.windowMs as number) - WINDOW_MS), `${label}\nwindow ${e.windowMs}`).toBeLessThanOrEqual(100);
        if (mode.algorithm === 'token-bucket') expect(e.windowMs, label).toBeNull();
        expect(e.refusedCallsCount, label).not.toBe(true);
        expect(e.headers, label).toEqual(
          mode.headers === 'none' ? [] : mode.headers === 'ietf' ? ['ietf', 'retry-after'] : ['x-ratelimit'],
        );
        // Lower bound: L+1 for the burst; for the rate, one reopening after a window, or 10 refilled calls (±1 → 10 %).
        const window = mode.algorithm !== 'token-bucket';
        const lbRequests = L + 1 + (window ? 1 : 11);
        const lbMs = window ? WINDOW_MS : (10 / rate) * 1000;
        notes.push(
          `${e.id}: ${e.requestsSpent} requests (lower bound ${lbRequests}), ${Math.round(e.durationMs ?? 0)} ms (lower bound ${Math.round(lbMs)} ms)`,
        );
      }
      const verify = load('verify-pacing', out, mock);
      expect(verify.r.status, verify.r.stderr + verify.r.stdout).toBe(0);
      const v = JSON.parse(readFileSync(join(out, 'pacing.json'), 'utf8')) as VerifyResult;
      expect(v.skipped).toEqual([]);
      expect(v.operations).toHaveLength(OPS.length);
      for (const o of v.operations) {
        expect(o.verdict.refused, `${o.id}: ${o.verdict.summary}`).toBe(0);
        expect(o.verdict.share as number, `${o.id}: ${o.verdict.summary}`).toBeGreaterThanOrEqual(0.9);
        notes.push(`${o.id} pacing "${o.schedule}": ${o.verdict.summary}`);
      }
      notes.push(`probe-reset wall time ${probe.ms} ms (run ${m.durationMs} ms, ${m.requests} requests), verify-pacing ${verify.ms} ms`);
      test.info().annotations.push({ type: `${mode.limiter}/${mode.headers}`, description: notes.join('; ') });
      console.log(`[${mode.limiter}/${mode.headers}] ${notes.join('\n  ')}`);
    });
  }

  test('should stop a limiter that counts refused calls with a verdict within its cap and a non-zero exit', async () => {
    test.setTimeout(120_000);
    const out = mkdtempSync(join(tmpdir(), 'fingerprint-count-refused-'));
    const capMs = 4000;
    const probe = load('probe-reset', out, [
      '--limiter',
      'sliding-log',
      '--count-refused',
      '--headers',
      'none',
      '--probe-wait-ms',
      String(capMs),
      '--probe-max-ms',
      String(6 * WINDOW_MS),
    ]);
    expect(probe.r.status, probe.r.stdout).not.toBe(0);
    expect(probe.r.stderr).toMatch(/no fingerprint: .*refused calls appear to count/);
    const m = manifest(out);
    for (const e of m.operations) {
      expect(e.verdict, e.id).toMatch(/refused calls appear to count/);
      expect(e.algorithm).toBe('unknown');
      expect(e.refusedCallsCount).toBe(true);
      expect(e.pacing).toBeNull();
      expect(e.durationMs as number, `${e.id} within its caps`).toBeLessThanOrEqual(capMs + 6 * WINDOW_MS);
      expect(e.requestsSpent, e.id).toBeLessThanOrEqual(10 * (LIMITS[e.id] as number));
    }
    console.log(
      `[sliding-log counting refused/none] ${m.operations.map((e) => `${e.id}: ${e.requestsSpent} requests, ${Math.round(e.durationMs ?? 0)} ms: ${e.verdict}`).join('\n  ')}`,
    );
  });
});

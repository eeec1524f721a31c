/**
 * probe-reset and write operations: it says before it starts how many resources a create/modify/cancel
 * operation may create, and `--reads-only` probes the read operations alone (the k6 double, the embedded mock).
 */
import { test, expect } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from '../run';
import { DEFAULT_WINDOW_MS } from '../../../catalogue';
import { writeNotices } from '../../../load/plan/probe-plan';
import type { Plan, PlannedOperation } from '../../../load/plan/run-plan';

const OPS = [
  '--ops',
  'orders.create,catalog.search',
  '--window-ms',
  '1000',
  '--random-limits',
  '5',
  '--mock-args',
  '--limiter token-bucket',
];

test.describe('probe-reset and write operations', () => {
  test('should say how many resources a write operation may create before the probe starts', async () => {
    const dir = test.info().outputPath('writes');
    // A budget of 6 requests ends the probe at once: the notice comes before any of them.
    const r = await load(dir, ['probe-reset', ...OPS, '--budget', '6']);
    const out = r.stdout + r.stderr;
    expect(r.stdout).toMatch(/load: probe-reset: orders\.create \(POST\) may create up to 6 resources/);
    expect(out).not.toMatch(/catalog\.search \(GET\) may create/);
    // Said before k6 starts (then the k6 script does not say it again).
    expect(r.stdout.indexOf('may create')).toBeGreaterThanOrEqual(0);
    expect(r.stdout.indexOf('may create')).toBeLessThan(r.stdout.indexOf('load: probe-reset on'));
    expect(out.match(/may create/g)).toHaveLength(1);
  });

  test('should probe the read operations alone with --reads-only', async () => {
    const dir = test.info().outputPath('reads-only');
    const r = await load(dir, ['probe-reset', ...OPS, '--reads-only']);
    const out = r.stdout + r.stderr;
    expect(out).not.toMatch(/may create/);
    const file = join(dir, 'reports', 'limits.json');
    expect(existsSync(file), out).toBe(true);
    const m = JSON.parse(readFileSync(file, 'utf8')) as { operations: { id: string }[] };
    expect(m.operations.map((o) => o.id)).toEqual(['catalog.search']);
  });

  test('should probe a write beside the reads and, as they all named a token bucket, spend its burst and the refill watch alone', async () => {
    const dir = test.info().outputPath('after-reads');
    const r = await load(dir, ['probe-reset', ...OPS]);
    const out = r.stdout + r.stderr;
    expect(r.code, out).toBe(0);
    const m = JSON.parse(readFileSync(join(dir, 'reports', 'limits.json'), 'utf8')) as {
      durationMs: number;
      operations: { id: string; algorithm: string; burst: number; requestsSpent: number; durationMs: number; evidence: string[] }[];
    };
    const write = m.operations.find((o) => o.id === 'orders.create');
    const read = m.operations.find((o) => o.id === 'catalog.search');
    expect(read?.algorithm, out).toBe('token-bucket');
    expect(write?.algorithm, out).toBe('token-bucket');
    expect(write?.evidence.join('\n'), out).toMatch(/named as the read operations' limiter \(token-bucket: catalog\.search\)/);
    // Its exhaustion and its refill sampling alone: no volley nor refused-call test, and at least 15 calls back in
    // the sampling, a refusal after each drain (a bucket of a few calls takes a dozen drains).
    expect(
      write?.evidence.some((e) => /^(burst volley|refused calls)/.test(e)),
      write?.evidence.join('\n'),
    ).toBe(false);
    expect(write?.requestsSpent as number, write?.evidence.join('\n')).toBeLessThanOrEqual(1.5 * (write?.burst as number) + 40);
    // Probed beside the reads, waiting for them only where their names spare it experiments: not one after the other.
    expect(m.durationMs).toBeLessThan((read?.durationMs as number) + (write?.durationMs as number));
  });

  test('should give a runner started without npm run load (k6-operator) the same notice, from its plan', () => {
    const op = (id: string, method: PlannedOperation['method']) =>
      ({ id, family: 'reseller', method, pathTemplate: '/', path: '/', query: '', body: null, catalogueLimit: 150 }) as PlannedOperation;
    const plan = {
      baseUrl: 'http://127.0.0.1:1',
      environment: 'production',
      windowMs: DEFAULT_WINDOW_MS,
      outDir: '/tmp',
      budget: 5000,
      operations: [op('orders.create', 'POST'), op('catalog.priceAndAvailability', 'POST'), op('catalog.search', 'GET')],
    } as Plan;
    const notices = writeNotices(plan);
    // orders.create creates; a search sent as POST (price and availability) and a GET change nothing.
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(
      /^probe-reset: orders\.create \(POST\) may create up to 3332 resources .*about 450, three times its limit of 150/,
    );
    // probe-limits: one exhaustion, the limit plus two (the advertised limit plus two when the target advertises more).
    expect(writeNotices(plan, 'probe-limits')).toEqual([
      "probe-limits: orders.create (POST) may create up to 152 resources (its limit of 150 plus two; a target advertising a higher limit: that limit plus two, at most the run's budget of 5000); --reads-only probes the read operations alone",
    ]);
  });
});

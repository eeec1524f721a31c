/**
 * probe-reset and write operations: it says before it starts how many resources a create/modify/cancel
 * operation may create, and `--reads-only` probes the read operations alone (the k6 double, the embedded mock).
 */
import { test, expect } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from './run';

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
    expect(out).toMatch(/probe-reset: orders\.create \(POST\) may create up to 6 resources/);
    expect(out).not.toMatch(/catalog\.search \(GET\) may create/);
    expect(out.indexOf('may create')).toBeLessThan(out.indexOf('probe-reset: 2 operations'));
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
});

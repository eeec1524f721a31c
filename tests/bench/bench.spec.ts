import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

test('should run the quick benchmark, print the table and write reports/bench.json (figures are not gated)', () => {
  test.setTimeout(240_000);
  const r = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/bench.ts', '--quick', '--json'], {
    encoding: 'utf8',
    timeout: 230_000,
  });
  expect(r.status, r.stderr.slice(-2000)).toBe(0);
  for (const row of [
    'bare node:http GET',
    'mock GET catalog.details',
    'throughput ratio mock/bare',
    'CPU per request',
    'certify wall time',
    'probe all operations',
    'bundle all load scripts',
  ]) {
    expect(r.stdout).toContain(row);
  }
  const b = JSON.parse(readFileSync('reports/bench.json', 'utf8')) as Record<string, unknown>;
  // toBeGreaterThan fails for NaN, null and strings alike (typeof 'number' would accept NaN).
  expect(b.throughputRatio as number).toBeGreaterThan(0);
  expect(b.cpuPerRequestRatio as number).toBeGreaterThan(0);
  test.info().annotations.push({
    type: 'bench',
    description: `throughput ratio ${(b.throughputRatio as number).toFixed(2)}, CPU ratio ${(b.cpuPerRequestRatio as number).toFixed(2)}`,
  });
});

/**
 * `npm run load`'s planned budget and its one seed per run: the budget compared with what the plan needs before
 * k6 starts, options parsed once (exit 2 naming the option), and the plan and the mock on the same seed.
 */
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { allOperations, limitFor } from '../../catalogue';
import { limitProbeRequests } from '../../load/lib/limit-analysis';
import { checkBudget, limitProbeNeed, requestsNeeded } from '../../runner/budget';
import { load } from './run';

test.describe('npm run load budget', () => {
  test('should know what probe-limits needs: each limit plus two, summed', () => {
    const ops = allOperations();
    const needed = requestsNeeded(ops, {}, limitProbeNeed);
    // An independent sum over the catalogue's own limits.
    expect(needed).toBe(ops.map((op) => limitFor(op, {}) + 2).reduce((a, b) => a + b, 0));
    expect(needed).toBeGreaterThan(5000);
    expect(limitProbeRequests(60)).toBe(62);
  });

  test('should refuse a short budget with the number needed, or leave the rest out of a partial run', () => {
    const ops = allOperations().filter((op) => ['catalog.search', 'catalog.details', 'orders.search'].includes(op.id));
    const run = { ops, limits: {}, budget: 130, spent: 0, partial: false };
    const refused = checkBudget('probe-limits', run, limitProbeNeed);
    expect(refused).toMatchObject({ kind: 'refused' });
    expect(refused.kind === 'refused' && refused.message).toContain('needs 186 requests');
    expect(refused.kind === 'refused' && refused.message).toContain('--budget 186');
    const partial = checkBudget('probe-limits', { ...run, partial: true }, limitProbeNeed);
    expect(partial.kind === 'partial' && partial.notRun.map((n) => n.id)).toEqual([ops[2]?.id]);
    expect(partial.kind === 'partial' && partial.notRun[0]?.reason).toMatch(/^budget: /);
    // What the id search spent is drawn from the same budget.
    expect(checkBudget('probe-limits', { ...run, budget: 186, spent: 1 }, limitProbeNeed)).toMatchObject({ kind: 'refused' });
    expect(checkBudget('probe-limits', { ...run, budget: 186 }, limitProbeNeed)).toEqual({ kind: 'enough' });
  });

  test('should end with exit 2 naming the option for a budget that is not a number', async () => {
    const r = await load(test.info().outputPath(), ['probe-limits', '--budget', 'lots']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--budget expects an integer of at least 1, received "lots"');
  });

  test('should refuse a short budget on a URL target before any request, naming the need', async () => {
    const r = await load(test.info().outputPath(), [
      'probe-limits',
      '--target',
      'http://127.0.0.1:9',
      '--environment',
      'sandbox',
      '--allow-quota-spend',
      '--budget',
      '100',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/probe-limits needs \d+ requests for its \d+ operations .*more than --budget 100: pass --budget \d+/);
  });

  test('should cover the whole plan with the default budget on the embedded mock: every operation measured exactly', async () => {
    test.slow();
    const dir = test.info().outputPath();
    const r = await load(dir, ['probe-limits']);
    expect(r.code, r.stderr).toBe(0);
    const m = JSON.parse(readFileSync(`${dir}/reports/limits.json`, 'utf8')) as {
      requests: number;
      operations: { id: string; observedLimit: number | null }[];
    };
    const ops = allOperations();
    expect(m.operations.map((o) => [o.id, o.observedLimit])).toEqual(ops.map((op) => [op.id, limitFor(op, {})]));
    expect(m.requests).toBe(ops.map((op) => limitFor(op, {}) + 1).reduce((a, b) => a + b, 0));
  });

  test('should run what a short budget covers with --partial, the rest not run: budget, exit 99', async () => {
    const dir = test.info().outputPath();
    const r = await load(dir, ['probe-limits', '--ops', 'catalog.search,catalog.details', '--budget', '100', '--partial']);
    expect(r.code, r.stderr).toBe(99);
    expect(r.stderr).toContain('load: catalog.details not run: budget: its probe needs 62 requests');
    const m = JSON.parse(readFileSync(`${dir}/reports/limits.json`, 'utf8')) as {
      operations: { id: string; observedLimit: number | null }[];
      notRun?: { id: string; reason: string }[];
    };
    expect(m.operations.map((o) => [o.id, o.observedLimit])).toEqual([['catalog.search', 60]]);
    expect(m.notRun?.map((n) => n.id)).toEqual(['catalog.details']);
  });

  test('should refuse a short budget on the embedded mock too, unless --partial', async () => {
    const r = await load(test.info().outputPath(), ['probe-limits', '--ops', 'catalog.search,catalog.details', '--budget', '100']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('probe-limits needs 124 requests for its 2 operations');
  });

  test('should exit 99 naming an operation whose limit it did not measure (its window shorter than its exhaustion)', async () => {
    // 501 calls one after another cannot fit in a 200 ms window: the window rolls over during the exhaustion.
    const r = await load(test.info().outputPath(), ['probe-limits', '--ops', 'renewals.search', '--window-ms', '200']);
    expect(r.code, r.stderr).toBe(99);
    expect(r.stdout + r.stderr).toMatch(/probe-limits: renewals\.search: limit not measured: the window rolled over during the exhaustion/);
  });
});

test.describe('npm run load seed', () => {
  test('should refuse --seed inside --mock-args with a pointer to the command option', async () => {
    const r = await load(test.info().outputPath(), ['smoke', '--ops', 'catalog.details', '--mock-args', '--seed 7']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--mock-args must not set --seed');
    expect(r.stderr).toContain('pass --seed to npm run load instead');
  });

  test('should give the plan and the mock the same seed', async () => {
    const r = await load(test.info().outputPath(), ['smoke', '--ops', 'catalog.details,orders.details', '--seed', '7']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('seed 7');
    expect(r.stdout).toMatch(/2 checks passed, 0 failed/);
  });
});

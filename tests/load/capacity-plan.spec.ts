/**
 * The capacity plan is under every limit by construction: exact shares of each limit as k6's rate per timeUnit
 * (never a per-second integer rounded up to the whole limit), the most calls any window can see, and a warning
 * before the run for a plan that would overrun a bucket.
 */
import { test, expect } from '@playwright/test';
import { capacityPlan } from '../../load/lib/capacity-plan';
import { arrivalRate, formatRate, iterationsIn, peakPerWindow } from '../../load/lib/load-shapes';
import { capacityResult, capacityTable } from '../../load/shared/summary-verdicts';

test.describe('capacity plan', () => {
  test('should give exact shares of a limit as k6 rate per timeUnit', () => {
    // 50 % of 60 a minute: one call every 2 s, 0.5/s (rounded per second it was 1/s, the whole limit).
    expect(arrivalRate(60, 60_000, 0.5)).toEqual({ rate: 1, timeUnitMs: 2000, perSecond: 0.5 });
    expect(arrivalRate(150, 60_000, 0.5)).toEqual({ rate: 1, timeUnitMs: 800, perSecond: 1.25 });
    expect(arrivalRate(500, 1000, 0.5)).toEqual({ rate: 250, timeUnitMs: 1000, perSecond: 250 });
    expect(arrivalRate(7, 2000, 0.5)).toEqual({ rate: 7, timeUnitMs: 4000, perSecond: 1.75 });
    expect(arrivalRate(60, 60_000, 0.125)).toEqual({ rate: 1, timeUnitMs: 8000, perSecond: 0.125 });
    expect(() => arrivalRate(60, 60_000, 0)).toThrow(/above 0; received 60 per 60000 ms at 0/);
    expect(formatRate(0.5)).toBe('0.50/s');
    expect(formatRate(250)).toBe('250/s');
  });

  test('should count the calls a schedule starts and the most that fall in one window', () => {
    const r = arrivalRate(60, 60_000, 0.5);
    // Calls at 0, 2 s, …, 60 s: 31 in a minute, of which 31 within one closed window of 60 s.
    expect(iterationsIn(r, 60_000)).toBe(31);
    expect(peakPerWindow(r, 60_000, 60_000)).toBe(31);
    expect(peakPerWindow(r, 60_000, 2000)).toBe(2);
    // The whole limit per window puts the limit plus one call in a window: a sliding window refuses it.
    expect(peakPerWindow(arrivalRate(60, 60_000, 1), 60_000, 120_000)).toBe(61);
  });

  test('should warn before the run when the plan would overrun a bucket, and only then', () => {
    const ops = [
      { id: 'catalog.search', family: 'reseller', limit: 60 },
      { id: 'orders.create', family: 'reseller', limit: 150 },
      { id: 'vendor.orders', family: 'vendor', limit: 60 },
    ];
    const calm = capacityPlan(ops, { windowMs: 60_000, fraction: 0.5, durationMs: 60_000 });
    expect(calm.warnings).toEqual([]);
    expect(calm.tokenCalls).toEqual({ reseller: 1, vendor: 1 });
    expect(calm.operations.map((o) => [o.id, o.perSecond, o.peakPerWindow])).toEqual([
      ['catalog.search', 0.5, 31],
      ['orders.create', 1.25, 76],
      ['vendor.orders', 0.5, 31],
    ]);
    const full = capacityPlan(ops, { windowMs: 60_000, fraction: 1, durationMs: 60_000 });
    expect(full.warnings).toHaveLength(3);
    expect(full.warnings[0]).toBe(
      'catalog.search: 1.00/s (1 every 1000 ms) puts up to 61 calls in one window of 60000 ms, over its limit of 60: expect 429s (lower --fraction below 0.983)',
    );
    // 98 % of 60 is 58.8 a minute: 59 calls at most in a window, under 60.
    expect(capacityPlan(ops.slice(0, 1), { windowMs: 60_000, fraction: 0.98, durationMs: 600_000 }).warnings).toEqual([]);
  });

  test('should print fractional targets in the capacity table', () => {
    const table = capacityTable(capacityResult([{ id: 'catalog.search', targetRate: 0.5, durationSec: 60 }], { metrics: {} }));
    expect(table).toMatch(/^operation\s+target\s+achieved\/s/);
    expect(table).toMatch(/catalog\.search\s+0\.50\/s\s+0\.00/);
  });
});

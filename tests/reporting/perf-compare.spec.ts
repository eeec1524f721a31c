/**
 * The comparison of two runs' requests: seeded (the same runs give the same figures), a change smaller than the
 * threshold never fails the gate, a slowdown beyond it does with an interval around its size, too few requests
 * say how many would decide, and more errors fail the gate.
 */
import { test, expect } from '@playwright/test';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { compareOperation, parsePerfThreshold, DEFAULT_PERF_THRESHOLD } from '../../reporting/perf-compare';
import type { RequestSample } from '../../reporting/capacity-samples';

/** n requests of a service whose latency is `baseMs` plus a long tail (exponential, mean tailMs), seeded. */
function requests(seed: number, n: number, baseMs: number, tailMs: number, errorShare = 0): RequestSample[] {
  const rng = xoroshiro128plus(seed);
  return Array.from({ length: n }, () => {
    const failed = uniformFloat64(rng) < errorShare;
    return { durationMs: baseMs - Math.log(1 - uniformFloat64(rng)) * tailMs, status: failed ? 500 : 200, expected: !failed };
  });
}

test.describe('the comparison of two runs', () => {
  test('should give the same figures for the same runs and seed', () => {
    const [a, b] = [requests(1, 400, 2, 0.5), requests(2, 400, 2, 0.5)];
    expect(compareOperation('x', a, b, { seed: 7 })).toEqual(compareOperation('x', a, b, { seed: 7 }));
  });

  test('should never fail the gate on a slowdown smaller than the threshold (2 % of a 2 ms median)', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const a = requests(seed, 300, 2, 0.5);
      const b = a.map((s) => ({ ...s, durationMs: s.durationMs * 1.02 }));
      expect(compareOperation('x', a, b, { seed, resamples: 300 }).regressions, `seed ${seed}`).toEqual([]);
    }
  });

  test('should call a 20 ms slowdown slower, with an interval containing +20 ms, and fail the gate', () => {
    const a = requests(3, 300, 2, 0.5);
    const b = requests(4, 300, 22, 0.5);
    const c = compareOperation('orders.search', a, b);
    expect(c.verdict).toBe('slower');
    expect(c.median.interval[0]).toBeLessThanOrEqual(20);
    expect(c.median.interval[1]).toBeGreaterThanOrEqual(20);
    expect(c.regressions.join('\n')).toMatch(/^median \+20\.\d ms \(95 % interval/);
  });

  test('should say not enough data, with the requests needed, when a run is too short for p95', () => {
    const c = compareOperation('x', requests(5, 50, 2, 0.5), requests(6, 50, 2, 0.5));
    expect(c.p95.verdict).toBe('not enough data');
    expect(c.p95.neededRequests).toBe(200);
    expect(c.median.verdict).toBe('no change detected');
    expect(c.verdict).toBe('not enough data');
    expect(c.regressions).toEqual([]);
  });

  test('should fail the gate on an error rate risen beyond its points, not on a latency within the threshold', () => {
    const c = compareOperation('x', requests(7, 400, 2, 0.5), requests(8, 400, 2, 0.5, 0.1));
    expect(c.errorRate.verdict).toBe('more');
    expect(c.verdict).toBe('no change detected');
    expect(c.regressions.join('\n')).toMatch(/^error rate \+\d+\.\d\d points/);
  });

  test('should read a threshold and refuse a malformed one with the expected form', () => {
    expect(parsePerfThreshold('10%,2ms,p95:30%')).toEqual({
      median: { relative: 0.1, absoluteMs: 2 },
      p95: { relative: 0.3, absoluteMs: 0 },
      ratePoints: 0,
    });
    expect(DEFAULT_PERF_THRESHOLD).toEqual({
      median: { relative: 0.2, absoluteMs: 5 },
      p95: { relative: 0.5, absoluteMs: 20 },
      ratePoints: 0.01,
    });
    expect(() => parsePerfThreshold('10')).toThrow(/takes margins like "20%,5ms,p95:50%,p95:20ms,1pt" .*; received "10"/);
    expect(() => parsePerfThreshold('p95:1pt')).toThrow(/received "p95:1pt"/);
  });
});

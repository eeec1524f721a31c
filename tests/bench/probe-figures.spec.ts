import { test, expect } from '@playwright/test';
import { probeFiguresStand, unresolvedProbes } from '../../bench/probe-figures';

test.describe("the bench's probe figures", () => {
  test('should keep the figures of a probe that ended uncertain on a busy machine (exit 99 with a manifest), and fail on anything else', () => {
    // Real k6 v0.48.0, the whole suite on a busy host: the bench smoke's probe read a fixed window uncertain (its
    // split stalled twice), exited 99, and the bench failed with it although its figures were all there.
    expect(probeFiguresStand(0, true)).toBe(true);
    expect(probeFiguresStand(99, true)).toBe(true);
    expect(probeFiguresStand(99, false)).toBe(false);
    expect(probeFiguresStand(1, true)).toBe(false);
    expect(probeFiguresStand(107, true)).toBe(false);
    expect(probeFiguresStand(null, true)).toBe(false);
  });

  test('should name each operation left uncertain or without a result, with why', () => {
    expect(
      unresolvedProbes([
        {
          id: 'catalog.search',
          verdict: null,
          uncertain: ['first: the split stalled twice', 'again: window 966 ms known only within ±74 ms'],
        },
        { id: 'orders.search', verdict: null, uncertain: null },
        { id: 'deals.details', verdict: 'the target answered 404 during the exhaustion experiment', uncertain: null },
        { id: 'quotes.search' },
      ]),
    ).toEqual([
      'catalog.search: uncertain (first: the split stalled twice; again: window 966 ms known only within ±74 ms)',
      'deals.details: no result (the target answered 404 during the exhaustion experiment)',
    ]);
  });
});

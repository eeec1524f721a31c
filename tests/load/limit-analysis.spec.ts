import { test, expect } from '@playwright/test';
import {
  analyseLimit,
  advertisedResetMs,
  canonicalHeader,
  detectResetUnit,
  header,
  percentile,
  probeCap,
  type ProbeSample,
} from '../../load/lib/limit-analysis';

const s = (status: number, remaining: number | null, limit: number | null = 5, reset: number | null = 1_800_000_001): ProbeSample => ({
  tMs: 0,
  status,
  limit,
  remaining,
  reset,
});

test.describe('probe decisions', () => {
  test('should infer the limit, a fresh window and a step of 1 from a clean sequence', () => {
    const a = analyseLimit([s(200, 4), s(200, 3), s(200, 2), s(200, 1), s(200, 0), s(429, 0)]);
    expect(a).toMatchObject({
      advertisedLimit: 5,
      observedLimit: 5,
      freshWindow: true,
      remainingStep: true,
      first429: 5,
      requestsSpent: 6,
    });
  });

  test('should notice Remaining that does not step by 1 and a limit never reached', () => {
    expect(analyseLimit([s(200, 4), s(200, 4), s(429, 0)]).remainingStep).toBe(false);
    expect(analyseLimit([s(200, 4), s(200, 3)]).observedLimit).toBeNull();
    expect(analyseLimit([s(200, 2), s(200, 1), s(429, 0)]).freshWindow).toBe(false);
  });

  test('should conclude no limit when the window rolled over before the bucket was spent, and say so', () => {
    const at = (tMs: number, status: number, remaining: number, reset: number): ProbeSample => ({
      tMs,
      status,
      limit: 5,
      remaining,
      reset,
    });
    // Epoch Reset: the second window starts at the third call; the 429 then ends a bucket spent across two windows.
    const rolled = analyseLimit([
      at(0, 200, 4, 1_800_000_002),
      at(1, 200, 3, 1_800_000_002),
      at(2, 200, 4, 1_800_000_004),
      at(3, 429, 0, 1_800_000_004),
    ]);
    expect(rolled.observedLimit).toBeNull();
    expect(rolled.inconclusive).toMatch(/the window rolled over at call 3 \(Remaining 3 then 4\), before the bucket was spent/);
    // A Reset read as seconds to wait moves with every call within a window: not a new window.
    const seconds = analyseLimit([at(0, 200, 4, 2), at(900, 200, 3, 2), at(1_500, 200, 2, 1), at(1_600, 429, 0, 1)]);
    expect(seconds).toMatchObject({ observedLimit: 3, inconclusive: null });
  });

  test('should read Reset as epoch seconds or seconds to wait', () => {
    expect(detectResetUnit(1_800_000_000)).toBe('epoch');
    expect(detectResetUnit(42)).toBe('seconds');
    expect(detectResetUnit(null)).toBe('unknown');
    expect(advertisedResetMs(1_800_000_000, 5)).toBe(1_800_000_000_000);
    expect(advertisedResetMs(3, 10_000)).toBe(13_000);
  });

  test('should cap requests at L+2 and compute percentiles and Go header names', () => {
    expect(probeCap(60, 999)).toBe(62);
    expect(probeCap(null, 999)).toBe(999);
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(percentile([], 95)).toBeNull();
    expect(canonicalHeader('x-ratelimit-limit')).toBe('X-Ratelimit-Limit');
    expect(header({ 'X-Ratelimit-Remaining': '3' }, 'X-RateLimit-Remaining')).toBe('3');
  });
});

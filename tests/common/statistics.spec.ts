/**
 * The shared order statistics (common/statistics.ts) and the k6 duration reading (common/k6-duration.ts),
 * each against values worked out by hand: the probes, the report, the benchmark and the k6 double use them.
 */
import { test, expect } from '@playwright/test';
import { interpolatedPercentile, median, percentile } from '../../common/statistics';
import { parseDuration } from '../../common/k6-duration';
import { runLengthMs } from '../../load/plan/run-length';

const ONE_TO_TEN = [7, 3, 10, 1, 5, 9, 2, 8, 4, 6];

test('should take the nearest rank as the percentile: always a measured value', () => {
  expect(percentile(ONE_TO_TEN, 50)).toBe(5);
  expect(percentile(ONE_TO_TEN, 95)).toBe(10);
  expect(percentile(ONE_TO_TEN, 0)).toBe(1);
  expect(percentile([42], 99)).toBe(42);
  expect(percentile([], 50)).toBeNull();
});

test("should interpolate between the two nearest ranks as k6's trends do, and take the median as the middle", () => {
  // k6: p(90) of 1..10 is 9.1, med of 1..10 is 5.5.
  expect(interpolatedPercentile(ONE_TO_TEN, 90)).toBeCloseTo(9.1, 10);
  expect(interpolatedPercentile(ONE_TO_TEN, 100)).toBe(10);
  expect(interpolatedPercentile([3], 95)).toBe(3);
  expect(interpolatedPercentile([], 95)).toBeNull();
  expect(median(ONE_TO_TEN)).toBe(5.5);
  expect(median([9, 1, 5])).toBe(5);
  expect(median([])).toBeNull();
  // The input is left as it was given.
  expect(ONE_TO_TEN[0]).toBe(7);
});

test('should read k6 durations, and refuse what k6 refuses (and a few it allows)', () => {
  expect(parseDuration('500ms')).toBe(500);
  expect(parseDuration('1m30s')).toBe(90_000);
  expect(parseDuration('1.5h')).toBe(5_400_000);
  expect(parseDuration('0s')).toBe(0);
  expect(parseDuration('2562047h')).toBe(2_562_047 * 3_600_000);
  // Go's time.ParseDuration refuses these: no unit, spaces, upper case, more than 2^63-1 ns.
  for (const bad of ['', '10', ' 1s', '1s ', '1S', '2562048h', 'abc'])
    expect(() => parseDuration(bad), JSON.stringify(bad)).toThrow(`invalid duration "${bad}": expected k6 syntax`);
  // Stricter than k6, never laxer: a sign, ns, us, days, a point without digits on both sides.
  for (const bad of ['-1s', '1ns', '1us', '1d', '.5s', '1.s']) expect(() => parseDuration(bad), bad).toThrow(/invalid duration/);
});

test("should take a run's length only above zero", () => {
  expect(runLengthMs('30m')).toBe(1_800_000);
  expect(() => runLengthMs('0s')).toThrow('invalid duration "0s": expected a length above zero');
  expect(() => runLengthMs('30 minutes')).toThrow('invalid duration "30 minutes": expected k6 syntax');
});

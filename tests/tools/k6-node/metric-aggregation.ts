/**
 * Aggregation of a metric's samples as k6 does it: trends interpolate percentiles between neighbours,
 * counters report count and rate per second of the test run, rates report the share of non-zero samples.
 */
import { interpolatedPercentile } from '../../../common/statistics';
import type { MetricType } from './run-state';

/** Aggregated values of a metric (or submetric) as k6 names them in the summary and in thresholds. */
export function aggregate(type: MetricType, values: readonly number[], durationMs: number, trendStats: readonly string[]) {
  const out: Record<string, number> = {};
  if (type === 'trend') {
    const s = [...values].sort((a, b) => a - b);
    for (const stat of trendStats) out[stat] = trendStat(s, stat);
  } else if (type === 'counter') {
    const count = values.reduce((a, b) => a + b, 0);
    out.count = count;
    out.rate = durationMs > 0 ? count / (durationMs / 1000) : 0;
  } else if (type === 'rate') {
    const passes = values.filter((x) => x !== 0).length;
    out.rate = values.length ? passes / values.length : 0;
    out.passes = passes;
    out.fails = values.length - passes;
  } else {
    out.value = values[values.length - 1] ?? 0;
    out.min = values.length ? Math.min(...values) : 0;
    out.max = values.length ? Math.max(...values) : 0;
  }
  return out;
}

export function trendStat(sorted: readonly number[], stat: string): number {
  if (stat === 'count') return sorted.length;
  if (stat === 'avg') return sorted.length ? sorted.reduce((a, b) => a + b, 0) / sorted.length : 0;
  if (stat === 'min') return sorted[0] ?? 0;
  if (stat === 'max') return sorted[sorted.length - 1] ?? 0;
  // An empty trend reports 0, as k6's does.
  if (stat === 'med') return interpolatedPercentile(sorted, 50) ?? 0;
  const m = /^p\((\d+(?:\.\d+)?)\)$/.exec(stat);
  if (m) return interpolatedPercentile(sorted, Number(m[1])) ?? 0;
  throw new Error(`unknown trend statistic "${stat}" (k6 knows avg, min, med, max, count, p(N))`);
}

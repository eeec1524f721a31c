/**
 * Metrics, tags and execution state of one run of the k6 double. Aggregation follows k6: trends
 * interpolate percentiles between neighbours, counters report count and rate per second of the
 * test run, rates report the share of non-zero samples.
 */
import { interpolatedPercentile } from '../../../catalogue/statistics';

export type MetricType = 'counter' | 'trend' | 'rate' | 'gauge';
export type Tags = Record<string, string>;

export interface MetricState {
  type: MetricType;
  samples: { value: number; tags: Tags; t: number }[];
}

export const metrics = new Map<string, MetricState>();

export interface ExecutionInfo {
  scenario: { name: string; executor: string; iterationInTest: number; startTime: number };
  vu: { idInTest: number; idInInstance: number; iterationInScenario: number; iterationInInstance: number };
  instance: { vusActive: number; iterationsCompleted: number; currentTestRunDuration: number };
  test: { options: Record<string, unknown> };
}

export const execution: ExecutionInfo = {
  scenario: { name: 'default', executor: 'shared-iterations', iterationInTest: 0, startTime: 0 },
  vu: { idInTest: 1, idInInstance: 1, iterationInScenario: 0, iterationInInstance: 0 },
  instance: { vusActive: 1, iterationsCompleted: 0, currentTestRunDuration: 0 },
  test: { options: {} },
};

/** Tags every sample of the running iteration gets (scenario name and the scenario's `tags`). */
export const contextTags: { current: Tags } = { current: {} };

/** Observers of every sample (the `--out json` output). */
export const sampleListeners: ((name: string, type: MetricType, value: number, tags: Tags, t: number) => void)[] = [];

export function record(name: string, type: MetricType, value: number, tags: Tags = {}): void {
  let m = metrics.get(name);
  if (!m) {
    m = { type, samples: [] };
    metrics.set(name, m);
  }
  const all = { ...contextTags.current, ...tags };
  const t = Date.now();
  m.samples.push({ value, tags: all, t });
  for (const l of sampleListeners) l(name, type, value, all, t);
}

export function resetState(): void {
  metrics.clear();
  contextTags.current = {};
  sampleListeners.length = 0;
}

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

/** Samples of `name` whose tags include every `filter` pair (a k6 submetric such as `{operation:x}`). */
export function valuesOf(name: string, filter: Tags = {}): number[] {
  const m = metrics.get(name);
  if (!m) return [];
  const keys = Object.keys(filter);
  return m.samples.filter((s) => keys.every((k) => s.tags[k] === filter[k])).map((s) => s.value);
}

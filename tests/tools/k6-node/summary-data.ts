/**
 * The end-of-test summary data of the k6 double, in k6's shapes: the handleSummary data
 * (`metrics[name] = { type, contains, values, thresholds: { expr: { ok } } }`, submetrics keyed
 * `name{tag:value}` when a threshold names them) and the legacy `--summary-export` file (flat values,
 * threshold booleans true when the threshold FAILED, as k6 writes them).
 */
import { aggregate } from './metric-aggregation';
import { metrics, valuesOf, type MetricType } from './run-state';
import { parseMetricKey, type ThresholdResult } from './thresholds';

export const DEFAULT_TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)'];

export interface SummaryMetric {
  type: MetricType;
  contains: string;
  values: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}

const TIME_METRICS = /(_duration|_blocked|_connecting|_sending|_waiting|_receiving|_tls_handshaking)$/;

/** The `metrics` part of handleSummary's data. */
export function summaryMetrics(
  results: ThresholdResult[],
  durationMs: number,
  trendStats: readonly string[],
): Record<string, SummaryMetric> {
  const out: Record<string, SummaryMetric> = {};
  const keys = new Set<string>([...metrics.keys(), ...results.map((r) => r.metric)]);
  for (const key of keys) {
    const { name, tags } = parseMetricKey(key);
    const m = metrics.get(name);
    const type: MetricType = m?.type ?? 'counter';
    const entry: SummaryMetric = {
      type,
      contains: type === 'trend' && TIME_METRICS.test(name) ? 'time' : 'default',
      values: aggregate(type, valuesOf(name, tags), durationMs, trendStats),
    };
    const mine = results.filter((r) => r.metric === key);
    if (mine.length) entry.thresholds = Object.fromEntries(mine.map((r) => [r.expression, { ok: r.ok }]));
    out[key] = entry;
  }
  return out;
}

/** The legacy `--summary-export` document. */
export function legacyExport(summary: Record<string, SummaryMetric>, checks: { name: string; passes: number; fails: number }[]): unknown {
  const metricsOut: Record<string, Record<string, unknown>> = {};
  for (const [k, m] of Object.entries(summary)) {
    const flat: Record<string, unknown> = { ...m.values };
    if (m.type === 'rate') flat.value = m.values.rate;
    if (m.thresholds) flat.thresholds = Object.fromEntries(Object.entries(m.thresholds).map(([e, r]) => [e, !r.ok]));
    metricsOut[k] = flat;
  }
  return {
    root_group: {
      name: '',
      path: '',
      id: 'd41d8cd98f00b204e9800998ecf8427e',
      groups: {},
      checks: Object.fromEntries(checks.map((c) => [c.name, { name: c.name, path: `::${c.name}`, passes: c.passes, fails: c.fails }])),
    },
    metrics: metricsOut,
  };
}

/**
 * Thresholds and the end-of-test summary of the k6 double, in k6's shapes: the handleSummary data
 * (`metrics[name] = { type, contains, values, thresholds: { expr: { ok } } }`, submetrics keyed
 * `name{tag:value}` when a threshold names them) and the legacy `--summary-export` file (flat values,
 * threshold booleans true when the threshold FAILED, as k6 writes them).
 */
import { aggregate, metrics, valuesOf, type MetricType, type Tags } from './modules/state';

export const DEFAULT_TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)'];

export interface ThresholdResult {
  metric: string;
  expression: string;
  ok: boolean;
  /** The aggregated value the expression compared (absent when the metric has no samples). */
  actual: number | null;
}

/** `http_req_duration{operation:catalog.search}` → name and tag filter. */
export function parseMetricKey(key: string): { name: string; tags: Tags } {
  const m = /^([A-Za-z0-9_.]+)(?:\{(.*)\})?$/.exec(key.trim());
  if (!m) throw new Error(`invalid threshold metric "${key}": expected name or name{tag:value}`);
  const tags: Tags = {};
  for (const part of (m[2] ?? '').split(',').filter((p) => p.trim())) {
    const i = part.indexOf(':');
    if (i < 1) throw new Error(`invalid tag filter "${part}" in threshold metric "${key}": expected tag:value`);
    tags[part.slice(0, i).trim()] = part.slice(i + 1).trim();
  }
  return { name: m[1] as string, tags };
}

const OPS: Record<string, (a: number, b: number) => boolean> = {
  '<=': (a, b) => a <= b,
  '>=': (a, b) => a >= b,
  '===': (a, b) => a === b,
  '==': (a, b) => a === b,
  '!=': (a, b) => a !== b,
  '<': (a, b) => a < b,
  '>': (a, b) => a > b,
};

/** `p(95)<800` → aggregation, operator, value. */
export function parseExpression(expr: string): { agg: string; op: string; value: number } {
  const m = /^\s*([a-z]+(?:\(\d+(?:\.\d+)?\))?)\s*(<=|>=|===|==|!=|<|>)\s*(-?\d+(?:\.\d+)?)\s*$/.exec(expr);
  if (!m) throw new Error(`invalid threshold expression "${expr}": expected e.g. p(95)<800, rate<0.01, count==0`);
  return { agg: m[1] as string, op: m[2] as string, value: Number(m[3]) };
}

type ThresholdSpec = string | { threshold: string; abortOnFail?: boolean };

export function evaluateThresholds(thresholds: Record<string, ThresholdSpec[]>, durationMs: number): ThresholdResult[] {
  const out: ThresholdResult[] = [];
  for (const [key, list] of Object.entries(thresholds)) {
    const { name, tags } = parseMetricKey(key);
    const type = metrics.get(name)?.type;
    for (const spec of list) {
      const expression = typeof spec === 'string' ? spec : spec.threshold;
      const { agg, op, value } = parseExpression(expression);
      const values = valuesOf(name, tags);
      // A metric nobody emitted is compared as an empty sink of the type the aggregation implies.
      const t: MetricType = type ?? (agg === 'count' ? 'counter' : agg === 'rate' ? 'rate' : agg === 'value' ? 'gauge' : 'trend');
      const agged = aggregate(t, values, durationMs, [agg]);
      const actual = agged[agg];
      if (actual === undefined) throw new Error(`threshold "${expression}" on ${key}: a ${t} metric has no "${agg}"`);
      out.push({ metric: key, expression, ok: (OPS[op] as (a: number, b: number) => boolean)(actual, value), actual });
    }
  }
  return out;
}

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

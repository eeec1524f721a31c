/**
 * The k6 double's thresholds, as k6 reads them: a metric key (`name` or `name{tag:value}`, a submetric), an
 * expression (`p(95)<800`) compared against the metric's aggregated value at the end of the run.
 */
import { aggregate } from './metric-aggregation';
import { metrics, valuesOf, type MetricType, type Tags } from './run-state';

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

/**
 * The k6 double's thresholds, as k6 reads them: a metric key (`name` or `name{tag:value}`, a submetric), an
 * expression (`p(95)<800`) compared against the metric's aggregated value at the end of the run.
 */
import { aggregate } from './metric-aggregation';
import { registry, valuesOf, type MetricType, type Tags } from './run-state';
import { EXIT, RunError } from './run-result';

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
  // As k6 parses it: braces hold one or more tag:value pairs, `{}` and an empty pair are malformed.
  for (const part of m[2] === undefined ? [] : m[2].split(',')) {
    const i = part.indexOf(':');
    if (i < 1 || !part.slice(0, i).trim())
      throw new Error(
        `unable to validate threshold expressions; reason: parsing metric name failed, metric "${key}" tag expression is malformed`,
      );
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

/** The aggregations k6 applies to each metric type (metrics/metric_type.go), `p(N)` for any percentile. */
const AGGREGATIONS: Record<MetricType, string[]> = {
  counter: ['count', 'rate'],
  gauge: ['value'],
  rate: ['rate'],
  trend: ['avg', 'min', 'max', 'med', 'p(N)'],
};

/** `p(95)` → `p(N)`: the aggregation as AGGREGATIONS names it. */
const aggregationKind = (agg: string): string => (agg.startsWith('p(') ? 'p(N)' : agg);

/** `p(95)<800` → aggregation, operator, value. */
export function parseExpression(expr: string): { agg: string; op: string; value: number } {
  const m = /^\s*([a-z]+(?:\(\d+(?:\.\d+)?\))?)\s*(<=|>=|===|==|!=|<|>)\s*(-?\d+(?:\.\d+)?)\s*$/.exec(expr);
  const known = Object.values(AGGREGATIONS).flat();
  if (!m || !known.includes(aggregationKind(m[1] as string)))
    throw new Error(`invalid threshold expression "${expr}": expected e.g. p(95)<800, rate<0.01, count==0`);
  return { agg: m[1] as string, op: m[2] as string, value: Number(m[3]) };
}

/** k6's refusal of one metric's thresholds, if any: a metric it does not know, an expression it cannot parse or apply. */
function thresholdRefusal(key: string, list: ThresholdSpec[], types: ReadonlyMap<string, MetricType>): string | undefined {
  const type = types.get(parseMetricKey(key).name);
  if (!type) return `invalid threshold defined on ${key}; reason: no metric name "${key}" found`;
  for (const spec of list) {
    const expression = typeof spec === 'string' ? spec : spec.threshold;
    const { agg } = parseExpression(expression);
    if (!AGGREGATIONS[type].includes(aggregationKind(agg)))
      return `invalid threshold "${expression}" applied on metric ${key}; reason: unsupported aggregation method ${agg} on metric of type ${type}. supported aggregation methods for this metric are: ${AGGREGATIONS[type].join(', ')}`;
  }
  return undefined;
}

/**
 * Refuses thresholds as k6 does before the run starts (exit 104): on a metric neither built in nor declared in
 * the init context, with an expression it cannot parse, or with an aggregation the metric's type lacks.
 */
export function checkThresholds(thresholds: Record<string, ThresholdSpec[]>, types: ReadonlyMap<string, MetricType>): void {
  for (const [key, list] of Object.entries(thresholds)) {
    let refusal: string | undefined;
    try {
      refusal = thresholdRefusal(key, list, types);
    } catch (e) {
      refusal = (e as Error).message;
    }
    if (refusal) throw new RunError(refusal, EXIT.invalidConfig);
  }
}

type ThresholdSpec = string | { threshold: string; abortOnFail?: boolean };

export function evaluateThresholds(thresholds: Record<string, ThresholdSpec[]>, durationMs: number): ThresholdResult[] {
  const out: ThresholdResult[] = [];
  for (const [key, list] of Object.entries(thresholds)) {
    const { name, tags } = parseMetricKey(key);
    // checkThresholds refused a metric the registry lacks before the run started.
    const type = registry.get(name) as MetricType;
    for (const spec of list) {
      const expression = typeof spec === 'string' ? spec : spec.threshold;
      const { agg, op, value } = parseExpression(expression);
      const values = valuesOf(name, tags);
      // A declared metric nobody emitted is compared as an empty sink of its type.
      const actual = aggregate(type, values, durationMs, [agg])[agg];
      if (actual === undefined) throw new Error(`threshold "${expression}" on ${key}: a ${type} metric has no "${agg}"`);
      out.push({ metric: key, expression, ok: (OPS[op] as (a: number, b: number) => boolean)(actual, value), actual });
    }
  }
  return out;
}

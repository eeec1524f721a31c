/**
 * Metrics, tags and execution state of one run of the k6 double: what the k6 modules it serves (k6/metrics,
 * k6/execution, k6/http) record and read; metric-aggregation.ts aggregates them as k6 does.
 */
export type MetricType = 'counter' | 'trend' | 'rate' | 'gauge';
export type Tags = Record<string, string>;

export interface MetricState {
  type: MetricType;
  samples: { value: number; tags: Tags; t: number }[];
}

export const metrics = new Map<string, MetricState>();

/** k6's built-in metrics (metrics/builtin.go): registered before the script's init, so thresholds may name them. */
const BUILTIN: Record<string, MetricType> = {
  vus: 'gauge',
  vus_max: 'gauge',
  iterations: 'counter',
  iteration_duration: 'trend',
  dropped_iterations: 'counter',
  checks: 'rate',
  group_duration: 'trend',
  http_reqs: 'counter',
  http_req_failed: 'rate',
  http_req_duration: 'trend',
  http_req_blocked: 'trend',
  http_req_connecting: 'trend',
  http_req_tls_handshaking: 'trend',
  http_req_sending: 'trend',
  http_req_waiting: 'trend',
  http_req_receiving: 'trend',
  data_sent: 'counter',
  data_received: 'counter',
};

/** The run's metric registry: the built-in metrics and those the script declared in its init context. */
export const registry = new Map<string, MetricType>(Object.entries(BUILTIN));

/** k6's metric names (metrics/registry.go): note the two characters at least. */
const METRIC_NAME = /^[a-zA-Z_][a-zA-Z0-9_]{1,128}$/;

/** Registers a custom metric as k6's registry does, refusing what it refuses. */
export function declareMetric(name: string, type: MetricType): void {
  if (!METRIC_NAME.test(name))
    throw new Error(
      `Invalid metric name: '${name}'. Metric names must only include up to 128 ASCII letters, numbers, or underscores and start with a letter or an underscore.`,
    );
  const known = registry.get(name);
  if (known && known !== type) throw new Error(`metric '${name}' already exists but with type ${known}, instead of ${type}`);
  registry.set(name, type);
}

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
  registry.clear();
  for (const [name, type] of Object.entries(BUILTIN)) registry.set(name, type);
  contextTags.current = {};
  sampleListeners.length = 0;
}

/** Samples of `name` whose tags include every `filter` pair (a k6 submetric such as `{operation:x}`). */
export function valuesOf(name: string, filter: Tags = {}): number[] {
  const m = metrics.get(name);
  if (!m) return [];
  const keys = Object.keys(filter);
  return m.samples.filter((s) => keys.every((k) => s.tags[k] === filter[k])).map((s) => s.value);
}

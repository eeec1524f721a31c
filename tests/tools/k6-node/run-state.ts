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

/** Samples of `name` whose tags include every `filter` pair (a k6 submetric such as `{operation:x}`). */
export function valuesOf(name: string, filter: Tags = {}): number[] {
  const m = metrics.get(name);
  if (!m) return [];
  const keys = Object.keys(filter);
  return m.samples.filter((s) => keys.every((k) => s.tags[k] === filter[k])).map((s) => s.value);
}

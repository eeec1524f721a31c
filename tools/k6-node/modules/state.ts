/** Metrics and checks collected by the k6 double during one run. */
export interface MetricState {
  type: 'counter' | 'trend' | 'rate' | 'gauge';
  values: number[];
}
export const metrics = new Map<string, MetricState>();
export const execution = {
  scenario: { name: 'default', iterationInTest: 0 },
  vu: { idInTest: 1, iterationInScenario: 0 },
  instance: { vusActive: 1 },
};

export function record(name: string, type: MetricState['type'], value: number): void {
  let m = metrics.get(name);
  if (!m) {
    m = { type, values: [] };
    metrics.set(name, m);
  }
  m.values.push(value);
}

export function resetState(): void {
  metrics.clear();
}

function pct(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

/** The `metrics` part of k6's summary data. */
export function summaryMetrics(): Record<string, { type: string; contains: string; values: Record<string, number> }> {
  const out: Record<string, { type: string; contains: string; values: Record<string, number> }> = {};
  for (const [name, m] of metrics) {
    const v = m.values;
    if (m.type === 'trend') {
      const s = [...v].sort((a, b) => a - b);
      out[name] = {
        type: 'trend',
        contains: 'time',
        values: {
          avg: s.reduce((a, b) => a + b, 0) / (s.length || 1),
          min: s[0] ?? 0,
          med: pct(s, 50),
          max: s[s.length - 1] ?? 0,
          'p(90)': pct(s, 90),
          'p(95)': pct(s, 95),
        },
      };
    } else if (m.type === 'counter') out[name] = { type: 'counter', contains: 'default', values: { count: v.reduce((a, b) => a + b, 0) } };
    else if (m.type === 'rate')
      out[name] = {
        type: 'rate',
        contains: 'default',
        values: {
          rate: v.filter((x) => x !== 0).length / (v.length || 1),
          passes: v.filter((x) => x !== 0).length,
          fails: v.filter((x) => x === 0).length,
        },
      };
    else out[name] = { type: 'gauge', contains: 'default', values: { value: v[v.length - 1] ?? 0 } };
  }
  return out;
}

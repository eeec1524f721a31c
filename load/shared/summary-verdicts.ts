/**
 * What a run says when it ends, from k6's handleSummary data: every threshold's verdict, a JUnit
 * report of them for CI systems, and the capacity table per operation. Pure TypeScript (no k6
 * imports), so Node tests check it against hand-made summaries. capacity.json's shape is the one
 * the report page reads.
 */
import type { CapacityResult, CapacityRow, ThresholdVerdict } from '../../reporting/capacity-section';
import { formatRate } from '../lib/load-shapes';

export type { CapacityResult, ThresholdVerdict };

export interface SummaryMetric {
  type: string;
  values: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}

export interface SummaryData {
  metrics?: Record<string, SummaryMetric>;
  state?: { testRunDurationMs?: number };
}

export function thresholdVerdicts(data: SummaryData): ThresholdVerdict[] {
  const out: ThresholdVerdict[] = [];
  for (const [metric, m] of Object.entries(data.metrics ?? {}))
    for (const [expression, r] of Object.entries(m.thresholds ?? {})) out.push({ metric, expression, ok: r.ok === true });
  return out;
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** JUnit XML: one test case per threshold, failed when k6 says it was crossed. */
export function junitXml(script: string, data: SummaryData): string {
  const v = thresholdVerdicts(data);
  const failures = v.filter((t) => !t.ok).length;
  const seconds = ((data.state?.testRunDurationMs ?? 0) / 1000).toFixed(3);
  const cases = v.map(
    (t) =>
      `    <testcase classname="${xml(`k6.${script}`)}" name="${xml(`${t.metric}: ${t.expression}`)}">${
        t.ok ? '' : `<failure message="${xml(`threshold ${t.expression} on ${t.metric} crossed`)}"/>`
      }</testcase>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites tests="${v.length}" failures="${failures}" time="${seconds}">\n  <testsuite name="${xml(`k6 ${script} thresholds`)}" tests="${v.length}" failures="${failures}" time="${seconds}">\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`;
}

export interface CapacityTarget {
  id: string;
  /** Iterations (one request each) per second the scenario asked for: exact, often below 1 (0.5 is 30 a minute). */
  targetRate: number;
  durationSec: number;
}

/** The submetric key k6 uses in the summary for a tag filter. */
export const opKey = (metric: string, id: string) => `${metric}{operation:${id}}`;

function num(v: number | undefined): number | null {
  return v === undefined || !Number.isFinite(v) ? null : v;
}

export function capacityResult(targets: readonly CapacityTarget[], data: SummaryData): CapacityResult {
  const m = data.metrics ?? {};
  const verdicts = thresholdVerdicts(data);
  const rows = targets.map((t): CapacityRow => {
    const reqs = m[opKey('http_reqs', t.id)]?.values.count ?? 0;
    const failedRate = m[opKey('http_req_failed', t.id)]?.values.rate;
    const lat = m[opKey('http_req_duration', t.id)]?.values ?? {};
    const s429 = m[opKey('capacity_429', t.id)]?.values.count ?? 0;
    const failed = failedRate === undefined ? 0 : Math.round(failedRate * reqs);
    const mine = verdicts.filter((v) => v.metric.endsWith(`{operation:${t.id}}`));
    return {
      id: t.id,
      targetRate: t.targetRate,
      achievedRate: t.durationSec > 0 ? Math.round((reqs / t.durationSec) * 100) / 100 : null,
      requests: reqs,
      p50Ms: num(lat['p(50)'] ?? lat.med),
      p95Ms: num(lat['p(95)']),
      p99Ms: num(lat['p(99)']),
      status429: s429,
      errors: Math.max(0, failed - s429),
      thresholds: mine,
      // No threshold evaluated for an operation is no verdict, never a pass.
      verdict: mine.length && mine.every((v) => v.ok) ? 'passed' : 'failed',
    };
  });
  const rest = verdicts.filter((v) => !/\{operation:/.test(v.metric));
  return {
    script: 'capacity',
    verdict: rows.every((r) => r.verdict === 'passed') && rest.every((v) => v.ok) ? 'passed' : 'failed',
    durationMs: data.state?.testRunDurationMs ?? 0,
    operations: rows,
    thresholds: rest,
  };
}

const f = (v: number | null, digits = 1) => (v === null ? '-' : v.toFixed(digits));

/** The table capacity prints: one line per operation, each threshold's verdict after it. */
export function capacityTable(r: CapacityResult): string {
  const head = `${'operation'.padEnd(30)}${'target'.padStart(9)}${'achieved/s'.padStart(11)}${'p50 ms'.padStart(8)}${'p95 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'429s'.padStart(6)}${'errors'.padStart(8)}  thresholds`;
  const rows = r.operations.map(
    (o) =>
      `${o.id.padEnd(30)}${formatRate(o.targetRate).padStart(9)}${f(o.achievedRate, 2).padStart(11)}${f(o.p50Ms).padStart(8)}${f(o.p95Ms).padStart(8)}${f(o.p99Ms).padStart(8)}${String(o.status429).padStart(6)}${String(o.errors).padStart(8)}  ${
        o.thresholds.length
          ? o.thresholds.map((t) => `${t.ok ? 'ok' : 'FAILED'} ${t.metric.replace(/\{.*\}$/, '')} ${t.expression}`).join('; ')
          : 'FAILED: no threshold evaluated'
      }`,
  );
  return [head, ...rows].join('\n');
}

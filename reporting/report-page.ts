/** The one-page report's HTML: its sections and the data of its plots. */
import type { Finding, LimitsManifestEntry, RunSummary } from './report-shapes';
import type { RunDiff } from './run-diff';
import { renderRateLimitSection, type FingerprintRow, type FingerprintTimeline } from './rate-limit-section';
import { capacitySection, type CapacityResult } from './capacity-section';
import type { CapacityRunComparison } from './capacity-runs';
import { perfSection } from './perf-section';
import { CHARTS_SCRIPT, chartJsSource, STYLE } from './page-assets';
import { changedChecksSection, failedChecksSection } from './failed-checks-section';
import type { CheckChange } from './exchange-diff';
import type { HarEntry } from './har-shapes';
import { factMatrixSection } from './fact-matrix-section';
import { diffSection, esc, evidenceBlocks, findingsLedger, leftOutSection, operationRows } from './report-tables';

export interface Timeline {
  windowMs: number;
  operations: {
    id: string;
    environment: string;
    advertisedResetMs: number | null;
    observedRefillMs: number | null;
    samples: { tMs: number; status: number; remaining: number | null }[];
  }[];
}

/** The data of the plots: remaining during the probe, reset timing, latencies. */
function chartDataOf(summary: RunSummary, timeline: Timeline | undefined) {
  const latencies = summary.operations.flatMap((r) => r.latencyMs ?? []);
  return {
    timeline:
      timeline?.operations.map((o) => ({
        id: `${o.id} (${o.environment})`,
        points: o.samples.map((s) => ({ x: s.tMs, y: s.remaining, status: s.status })),
      })) ?? [],
    reset:
      timeline?.operations
        .filter((o) => o.advertisedResetMs !== null)
        .map((o) => {
          const start = o.samples.length ? 0 : 0;
          const base = (o.observedRefillMs ?? 0) - (o.samples[o.samples.length - 1]?.tMs ?? 0);
          return {
            id: o.id,
            advertised: o.advertisedResetMs !== null ? o.advertisedResetMs - base + start : null,
            observed: o.observedRefillMs !== null ? o.observedRefillMs - base : null,
          };
        }) ?? [],
    latencies,
  };
}

export function renderReport(
  summary: RunSummary,
  findings: Finding[],
  limits: LimitsManifestEntry[] | undefined,
  timeline: Timeline | undefined,
  diff: RunDiff | undefined,
  load: { capacity?: CapacityResult; performance?: CapacityRunComparison } = {},
  run: { exchanges?: readonly HarEntry[]; changed?: readonly CheckChange[] } = {},
): string {
  const failed = failedChecksSection(summary, run.exchanges ?? []);
  const chartJs = chartJsSource();
  const rows = operationRows(summary, limits);
  const evidence = evidenceBlocks(summary);
  const ledger = findingsLedger(findings);
  const diffHtml = diffSection(diff);
  const chartData = chartDataOf(summary, timeline);
  const t = summary.totals;
  const loadNote = timeline
    ? ''
    : '<p class="note">No probe run found (reports/load/probe-timeline.json): run <code>npm run load -- probe-reset</code> to measure limits and reset timing.</p>';
  const json = JSON.stringify(chartData).replace(/</g, '\\u003c');
  const perf = perfSection(load.performance, esc);
  const limiters = renderRateLimitSection(limits as FingerprintRow[] | undefined, timeline as FingerprintTimeline | undefined, esc);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Certification: ${esc(summary.target)} — ${esc(summary.verdict)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
${STYLE}</style></head><body>
<header><div><h1>Distributor Commerce API certification</h1><div class="meta">Target <b>${esc(summary.target)}</b> · environments ${esc(summary.environments.join(', '))} · ${esc(summary.startedAt)} · ${(summary.durationMs / 1000).toFixed(1)} s · harness ${esc(summary.harnessVersion)}</div></div>
<div class="verdict ${esc(summary.verdict)}" id="verdict">${esc(summary.verdict.toUpperCase())}</div></header>
<main>
<section><h2>Totals</h2><div class="totals"><div><b>${t.passed}</b>passed</div><div><b>${t.failed}</b>failed</div><div><b>${t.blocked}</b>blocked by environment</div><div><b>${t.skipped}</b>not run</div><div><b>${t.outOfScope ?? 0}</b>out of scope</div><div><b>${t.notApplicable ?? 0}</b>not applicable</div><div><b>${t.findings}</b>findings</div><div><b>${summary.operations.length}</b>operation rows</div></div></section>
${failed.html}
${diffHtml}
${changedChecksSection(run.changed ?? [])}
${leftOutSection(summary.leftOut ?? [])}
${factMatrixSection(summary.facts)}
<section><h2>Operations</h2><table id="operations"><thead><tr><th>family</th><th>method</th><th>path</th><th>env</th><th>contract</th><th>shape</th><th>headers</th><th>auth</th><th>advertised limit</th><th>measured limit</th><th>reset error ms</th><th>latency p50 / p95 ms</th><th>evidence</th></tr></thead><tbody>
${rows}
</tbody></table>${evidence}</section>
${capacitySection(load.capacity, esc)}
${perf.html}
<section><h2>Findings ledger: where the spec conflicts or is silent, what this target does</h2><table id="findings"><thead><tr><th>finding</th><th>spec statement</th><th>observed</th><th>evidence</th><th>policy</th></tr></thead><tbody>
${ledger}
</tbody></table></section>
<section><h2>Plots</h2>${loadNote}<div class="charts"><div><h3>Remaining during the limit probe</h3><div class="chart"><canvas id="remaining"></canvas></div></div><div><h3>Reset timing: advertised vs observed refill (ms after exhaustion start)</h3><div class="chart"><canvas id="reset"></canvas></div></div><div><h3>Latency distribution of the valid calls (ms)</h3><div class="chart"><canvas id="latency"></canvas></div></div></div></section>
${limiters.html}
</main>
<script id="chart-data" type="application/json">${json}</script>
<script>${chartJs.replace(/<\/script/gi, '<\\/script')}</script>
<script>${limiters.script}</script>
<script>${perf.script}</script>
<script>${failed.script}</script>
<script>
${CHARTS_SCRIPT}</script>
</body></html>
`;
}

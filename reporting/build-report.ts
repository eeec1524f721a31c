/**
 * The one-page certification report: reports/index.html, self-contained (chart.js inlined, no
 * network), built from reports/summary.json, findings and the load manifest when present.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  findingDefinitions,
  percentile,
  type Finding,
  type LimitsManifestEntry,
  type OperationResult,
  type RunSummary,
} from '../catalogue';
import { redact } from '../clients/redact';
import { diffRuns, type RunDiff } from './diff';
import { renderRateLimitSection, type FingerprintRow, type FingerprintTimeline } from './rate-limit-section';
import { capacitySection, type CapacityResult } from './capacity-section';
import { compareCapacityRuns, samplesFileOf, type CapacityRunComparison } from './capacity-runs';
import type { CompareOptions } from './perf-compare';
import { perfSection } from './perf-section';

export interface BuildReportOptions {
  /** Directory with summary.json (and load/). Default reports. */
  reportsDir?: string;
  /** Summary to render; default <reportsDir>/summary.json. */
  summaryFile?: string;
  /** An older summary.json to diff against. */
  baseline?: string;
  /** Output HTML; default <reportsDir>/index.html. */
  outFile?: string;
  /** The baseline capacity run (folder or raw-requests file); default the `load/` folder beside `baseline`, when it has one. */
  capacityBaseline?: string;
  /** How the capacity runs are compared (threshold, seed). */
  compare?: CompareOptions;
}

export interface BuildReportResult {
  htmlPath: string;
  diffPath?: string;
  diff?: RunDiff;
  /** The two capacity runs compared, when both kept their requests. */
  performance?: CapacityRunComparison;
}

interface Timeline {
  windowMs: number;
  operations: {
    id: string;
    environment: string;
    advertisedResetMs: number | null;
    observedRefillMs: number | null;
    samples: { tMs: number; status: number; remaining: number | null }[];
  }[];
}

const esc = (s: unknown): string =>
  redact(String(s ?? ''))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

function readJson<T>(p: string): T | undefined {
  return existsSync(p) ? (JSON.parse(readFileSync(p, 'utf8')) as T) : undefined;
}

const badge = (s: string | undefined) => `<span class="b ${esc(s ?? 'none')}">${esc(s ?? '—')}</span>`;

function facet(row: OperationResult, fact: 'shape' | 'headers'): string {
  const st = row.checks['valid-call'];
  if (st !== 'failed') return st ?? 'skipped';
  const ev = row.evidence ?? '';
  if (fact === 'shape') return /schema|published shape|responses are JSON/.test(ev) ? 'failed' : 'passed';
  return /X-RateLimit|x-ratelimit/.test(ev) ? 'failed' : 'passed';
}

/** The page's style sheet. */
const STYLE = `body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#1b1f24;background:#f6f7f9}
header{background:#14213d;color:#fff;padding:18px 28px;display:flex;justify-content:space-between;align-items:center;flex-wrap:wrap;gap:12px}
header h1{font-size:20px;margin:0}header .meta{opacity:.85;font-size:13px}
.verdict{font-size:18px;font-weight:700;padding:6px 16px;border-radius:6px}.verdict.passed{background:#1f8a4c}.verdict.failed{background:#c0392b}
main{padding:20px 28px;max-width:1500px}section{background:#fff;border:1px solid #e1e4e8;border-radius:8px;padding:14px 18px;margin-bottom:18px}
h2{font-size:16px;margin:0 0 10px}table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #eef0f3;padding:5px 7px;text-align:left;vertical-align:top}
th{font-size:12px;text-transform:uppercase;letter-spacing:.03em;color:#57606a;background:#fafbfc;position:sticky;top:0}td.n{text-align:right;font-variant-numeric:tabular-nums}
.id{color:#6e7781;font-size:11px}.b{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600}
.b.passed{background:#dcf5e6;color:#155d33}.b.failed{background:#fbe0dd;color:#8e1f13}.b.blocked{background:#fff1c9;color:#7a5a00}.b.skipped,.b.none{background:#eceef1;color:#57606a}
.totals{display:flex;gap:14px;flex-wrap:wrap}.totals div{background:#fafbfc;border:1px solid #e1e4e8;border-radius:6px;padding:8px 14px}.totals b{font-size:20px;display:block}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:16px}.chart{height:280px}pre{white-space:pre-wrap;font-size:12px;background:#f6f8fa;padding:8px;border-radius:6px}
.note{color:#7a5a00}.bad{color:#8e1f13}.good{color:#155d33}
`;

/** Draws the plots from the JSON in #chart-data (chart.js loaded before it). */
const CHARTS_SCRIPT = `(function(){
  var d = JSON.parse(document.getElementById('chart-data').textContent);
  Chart.defaults.animation = false;
  var palette = ['#2563eb','#dc2626','#16a34a','#9333ea','#ea580c','#0891b2','#65a30d','#db2777','#4b5563','#ca8a04'];
  var opts = {responsive:true, maintainAspectRatio:false, plugins:{legend:{display:true, labels:{boxWidth:10,font:{size:10}}}}};
  new Chart(document.getElementById('remaining'), {type:'line', data:{datasets:d.timeline.slice(0,12).map(function(o,i){return {label:o.id, data:o.points.filter(function(p){return p.y!==null}), borderColor:palette[i%10], pointRadius:1, showLine:true, stepped:true};})}, options:Object.assign({}, opts, {parsing:true, scales:{x:{type:'linear', title:{display:true,text:'ms since the first probe request'}}, y:{title:{display:true,text:'X-RateLimit-Remaining'}}}})});
  new Chart(document.getElementById('reset'), {type:'bar', data:{labels:d.reset.map(function(r){return r.id}), datasets:[{label:'advertised reset', data:d.reset.map(function(r){return r.advertised}), backgroundColor:'#93c5fd'},{label:'observed refill', data:d.reset.map(function(r){return r.observed}), backgroundColor:'#1d4ed8'}]}, options:opts});
  var lat = d.latencies, max = Math.max.apply(null, lat.concat([1])), bins = 20, w = max / bins, counts = new Array(bins).fill(0);
  lat.forEach(function(v){counts[Math.min(bins-1, Math.floor(v / w))]++;});
  new Chart(document.getElementById('latency'), {type:'bar', data:{labels:counts.map(function(_,i){return (i*w).toFixed(1)}), datasets:[{label:'valid calls', data:counts, backgroundColor:'#0f766e'}]}, options:opts});
  document.body.setAttribute('data-charts', 'rendered');
})();
`;

/** chart.js's UMD build, to inline. */
function chartJsSource(): string {
  const require = createRequire(import.meta.url);
  // The package's exports hide the UMD build: locate it next to the main entry (dist/).
  return readFileSync(join(dirname(require.resolve('chart.js')), 'chart.umd.min.js'), 'utf8');
}

/** One table row per operation row of the run, with the measured limit of the load manifest. */
function operationRows(summary: RunSummary, limits: LimitsManifestEntry[] | undefined): string {
  const lim = new Map((limits ?? []).map((e) => [`${e.id}|${e.environment}`, e]));
  return summary.operations
    .map((r, i) => {
      const m = lim.get(`${r.id}|${r.environment}`);
      const p50 = percentile(r.latencyMs ?? [], 50);
      const p95 = percentile(r.latencyMs ?? [], 95);
      return `<tr class="op" data-status="${esc(r.status)}"><td>${esc(r.family)}</td><td><code>${esc(r.method)}</code></td><td><code>${esc(r.path)}</code><div class="id">${esc(r.id)}</div></td><td>${esc(r.environment)}</td><td>${badge(r.status)}</td><td>${badge(facet(r, 'shape'))}</td><td>${badge(facet(r, 'headers'))}</td><td>${badge(r.checks.auth)}</td><td class="n">${esc(r.advertisedLimit ?? '—')}</td><td class="n">${esc(m?.observedLimit ?? '—')}</td><td class="n">${esc(m?.resetErrorMs ?? '—')}</td><td class="n">${p50 === null ? '—' : p50.toFixed(1)} / ${p95 === null ? '—' : p95.toFixed(1)}</td><td>${r.evidence ? `<a href="#ev${i}">evidence</a>` : '—'}</td></tr>`;
    })
    .join('\n');
}

/** The evidence of each operation row that has some, as a collapsed block the row links to. */
function evidenceBlocks(summary: RunSummary): string {
  return summary.operations
    .map((r, i) =>
      r.evidence
        ? `<details id="ev${i}"><summary>${esc(r.id)} (${esc(r.environment)})</summary><pre>${esc(r.evidence)}</pre></details>`
        : '',
    )
    .join('');
}

/** One row per defined finding: what the run observed, its observations and its policy. */
function findingsLedger(findings: Finding[]): string {
  const byBase = new Map<string, Finding[]>();
  for (const f of findings) byBase.set(f.id.split('@')[0] as string, [...(byBase.get(f.id.split('@')[0] as string) ?? []), f]);
  return findingDefinitions
    .map((d) => {
      const fs = byBase.get(d.id) ?? [];
      const observed = [...new Set(fs.map((f) => f.observed))].join(', ') || 'not probed in this run';
      const pinned = fs.find((f) => f.policy);
      return `<tr class="finding"><td><code>${esc(d.id)}</code><div class="id">${esc(d.kind)}</div></td><td>${esc(d.statement)}</td><td><b>${esc(observed)}</b></td><td>${fs.length ? `<details><summary>${fs.length} observation(s)</summary><pre>${esc(fs.map((f) => `${f.id}: ${f.evidence}`).join('\n\n'))}</pre></details>` : '—'}</td><td>${pinned ? esc(pinned.policy?.strict ? 'strict' : `pinned: ${pinned.policy?.expected}`) + (pinned.policy?.violated ? ' (violated)' : '') : 'not pinned'}</td></tr>`;
    })
    .join('\n');
}

/** The changes since the baseline run; empty without a baseline. */
function diffSection(diff: RunDiff | undefined): string {
  if (!diff) return '';
  return `<section id="diff"><h2>Changes since the baseline run (${esc(diff.baseline.startedAt)})</h2>${
    diff.changed
      ? `<ul>${[
          ...diff.newlyFailing.map((t) => `<li class="bad">newly failing: ${esc(t)}</li>`),
          ...diff.newlyPassing.map((t) => `<li class="good">newly passing: ${esc(t)}</li>`),
          ...diff.limitsChanged.map(
            (l) => `<li>${esc(l.source)} limit of ${esc(l.id)} (${esc(l.environment)}): ${esc(l.before)} → ${esc(l.after)}</li>`,
          ),
          ...diff.algorithmsChanged.map(
            (a) => `<li class="bad">rate limiter of ${esc(a.id)} (${esc(a.environment)}): ${esc(a.before)} → ${esc(a.after)}</li>`,
          ),
          ...diff.findingsChanged.map((f) => `<li>finding ${esc(f.id)}: ${esc(f.before ?? 'absent')} → ${esc(f.after ?? 'absent')}</li>`),
          ...diff.headersAppeared.map((h) => `<li>header appeared on ${esc(h.row)}: ${esc(h.header)}</li>`),
          ...diff.headersDisappeared.map((h) => `<li class="bad">header disappeared on ${esc(h.row)}: ${esc(h.header)}</li>`),
          ...diff.fieldsAppeared.map((h) => `<li>field appeared on ${esc(h.row)}: ${esc(h.field)}</li>`),
          ...diff.fieldsDisappeared.map((h) => `<li class="bad">field disappeared on ${esc(h.row)}: ${esc(h.field)}</li>`),
        ].join('')}</ul>`
      : '<p>No change in behaviour.</p>'
  }</section>`;
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
): string {
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
<section><h2>Totals</h2><div class="totals"><div><b>${t.passed}</b>passed</div><div><b>${t.failed}</b>failed</div><div><b>${t.blocked}</b>blocked by environment</div><div><b>${t.skipped}</b>not run</div><div><b>${t.findings}</b>findings</div><div><b>${summary.operations.length}</b>operation rows</div></div></section>
${diffHtml}
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
<script>
${CHARTS_SCRIPT}</script>
</body></html>
`;
}

/**
 * The capacity runs compared: this run's (`<reports>/load`) and the baseline's (`capacityBaseline`, else the `load/`
 * folder beside the baseline summary). None when the baseline kept no requests; an error when it was named but
 * this run kept none.
 */
async function capacityComparison(o: BuildReportOptions, dir: string): Promise<CapacityRunComparison | undefined> {
  const baseline = o.capacityBaseline ?? (o.baseline ? join(dirname(o.baseline), 'load') : undefined);
  if (!baseline) return undefined;
  try {
    samplesFileOf(baseline);
  } catch (e) {
    if (o.capacityBaseline) throw e;
    return undefined;
  }
  return compareCapacityRuns(baseline, join(dir, 'load'), o.compare);
}

/** The behaviour diff against a baseline summary (its probe manifest sits beside it, as this run's does). */
function behaviourDiff(baseline: string, summary: RunSummary, limits: LimitsManifestEntry[] | undefined): RunDiff {
  const base = readJson<RunSummary>(baseline);
  if (!base) throw new Error(`baseline ${baseline} does not exist; give an older reports/summary.json`);
  const baseLimits = readJson<{ operations: LimitsManifestEntry[] }>(join(dirname(baseline), 'load', 'limits.json'))?.operations;
  return diffRuns(base, summary, { ...(baseLimits ? { before: baseLimits } : {}), ...(limits ? { after: limits } : {}) });
}

/** reports/diff.json: the behaviour diff, and the capacity comparison's figures for CI under `performance`. */
function writeDiff(dir: string, diff: RunDiff | undefined, performance: CapacityRunComparison | undefined): string {
  const file = join(dir, 'diff.json');
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, redact(JSON.stringify({ ...(diff ?? {}), ...(performance ? { performance } : {}) }, null, 2)));
  return file;
}

export async function buildReport(o: BuildReportOptions = {}): Promise<BuildReportResult> {
  const dir = o.reportsDir ?? 'reports';
  const summaryFile = o.summaryFile ?? join(dir, 'summary.json');
  const summary = readJson<RunSummary>(summaryFile);
  if (!summary) throw new Error(`no run summary at ${summaryFile}: run \`npm run certify\` first, or pass --summary <file>`);
  const findings = readJson<Finding[]>(join(dir, 'findings.json')) ?? summary.findings;
  const limits = readJson<{ operations: LimitsManifestEntry[] }>(join(dir, 'load', 'limits.json'))?.operations;
  const timeline = readJson<Timeline>(join(dir, 'load', 'probe-timeline.json'));
  const diff = o.baseline ? behaviourDiff(o.baseline, summary, limits) : undefined;
  const performance = await capacityComparison(o, dir);
  const diffPath = diff || performance ? writeDiff(dir, diff, performance) : undefined;
  const htmlPath = o.outFile ?? join(dir, 'index.html');
  const capacity = readJson<CapacityResult>(join(dir, 'load', 'capacity.json'));
  writeFileSync(
    htmlPath,
    renderReport(summary, findings, limits, timeline, diff, { ...(capacity ? { capacity } : {}), ...(performance ? { performance } : {}) }),
  );
  return { htmlPath, ...(diffPath ? { diffPath } : {}), ...(diff ? { diff } : {}), ...(performance ? { performance } : {}) };
}

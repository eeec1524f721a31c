/**
 * The one-page certification report: reports/index.html, self-contained (chart.js inlined, no
 * network), built from reports/summary.json, findings, the run's exchanges (exchanges.har) and the load manifest
 * when present.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Finding, LimitsManifestEntry, RunSummary } from './report-shapes';
import { redact } from '../clients/redact';
import { diffRuns, type RunDiff } from './run-diff';
import type { CapacityResult } from './capacity-section';
import { compareCapacityRuns, samplesFileOf, type CapacityRunComparison } from './capacity-runs';
import type { CompareOptions } from './perf-compare';
import { renderReport, type Timeline } from './report-page';
import type { HarLog } from './har-shapes';
import { changedChecks, type CheckChange } from './exchange-diff';

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
  /** With a baseline: the checks whose verdict changed, with their exchanges that differ (from both runs' exchanges.har). */
  changedChecks: CheckChange[];
}

function readJson<T>(p: string): T | undefined {
  return existsSync(p) ? (JSON.parse(readFileSync(p, 'utf8')) as T) : undefined;
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

/** The exchanges of a run's HAR file; none when the run wrote none. */
const harEntries = (file: string) => readJson<HarLog>(file)?.log.entries ?? [];

/** The checks whose verdict changed since the baseline, with their exchanges (exchanges.har beside each summary) that differ. */
function changedChecksSince(baseline: string, summary: RunSummary, exchanges: ReturnType<typeof harEntries>): CheckChange[] {
  const base = readJson<RunSummary>(baseline);
  return base ? changedChecks(base, harEntries(join(dirname(baseline), 'exchanges.har')), summary, exchanges) : [];
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
  const exchanges = harEntries(join(dir, 'exchanges.har'));
  const changed = o.baseline ? changedChecksSince(o.baseline, summary, exchanges) : [];
  const performance = await capacityComparison(o, dir);
  const diffPath = diff || performance ? writeDiff(dir, diff, performance) : undefined;
  const htmlPath = o.outFile ?? join(dir, 'index.html');
  const capacity = readJson<CapacityResult>(join(dir, 'load', 'capacity.json'));
  writeFileSync(
    htmlPath,
    renderReport(
      summary,
      findings,
      limits,
      timeline,
      diff,
      { ...(capacity ? { capacity } : {}), ...(performance ? { performance } : {}) },
      { exchanges, changed },
    ),
  );
  return {
    htmlPath,
    changedChecks: changed,
    ...(diffPath ? { diffPath } : {}),
    ...(diff ? { diff } : {}),
    ...(performance ? { performance } : {}),
  };
}

/**
 * What a capacity run keeps for a later comparison, and the comparison of two such runs.
 *
 * Beside capacity.json (reports/load by default) a run keeps:
 *   capacity-samples.json.gz  k6's own JSON output (`k6 run --out json=…`, gzip-compressed by k6): every request
 *   capacity-context.json     target, plan (fraction, duration, window, operations and limits), the k6 version, the
 *                             machine's load average (os.loadavg, where the system has one) at the start and the end
 * A run folder holding k6's CSV output instead (`capacity-samples.csv.gz`, or `.json` / `.csv` uncompressed) reads too.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform } from 'node:os';
import { dirname, join } from 'node:path';
import { readRunSamples, type RequestSample, type RunSamples } from './capacity-samples';
import { compareRuns, type CompareOptions, type PerfComparison, type PerfThreshold } from './perf-compare';

/** The exit code of a comparison that found a regression beyond the threshold (k6's thresholds-crossed code). */
const REGRESSION_EXIT = 99;
const SAMPLES_FILE = 'capacity-samples.json.gz';
const CONTEXT_FILE = 'capacity-context.json';
/** The comparison, written in the current run's folder. */
const PERF_DIFF_FILE = 'capacity-diff.json';
/** The file names a run's raw requests may have, in the order looked for. */
const SAMPLE_NAMES = [SAMPLES_FILE, 'capacity-samples.csv.gz', 'capacity-samples.json', 'capacity-samples.csv'];

export interface CapacityContext {
  startedAt: string;
  endedAt?: string;
  target: string;
  environment: string;
  plan: { fraction?: number; duration?: string; windowMs: number; operations: { id: string; limit: number }[] };
  k6: { binary: string; version: string | null };
  /** os.loadavg() (1, 5, 15 minutes) and the cores; null where the system has none (Windows). */
  load: { cores: number; start: number[] | null; end?: number[] | null };
  samplesFile: string;
}

/** The part of the run plan the context keeps (the plan holds no secrets). */
interface ContextPlan {
  environment: string;
  windowMs: number;
  fraction?: number;
  duration?: string;
  operations: readonly { id: string; catalogueLimit: number }[];
}

const loadNow = () => (platform() === 'win32' ? null : loadavg().map((v) => Math.round(v * 100) / 100));

/** The k6 binary's `k6 version` line (K6_BIN, else k6 on PATH), or null when it does not answer. */
function k6Version(binary: string): string | null {
  const r = spawnSync(binary, ['version'], { encoding: 'utf8', timeout: 10_000 });
  return r.status === 0 ? (r.stdout.trim().split('\n')[0] ?? null) : null;
}

/**
 * Before a capacity run: asks k6 for its own JSON output of every request (gzip, beside capacity.json) and
 * writes the run's context. Returns the `--out` value added.
 */
export function keepCapacitySamples(plan: ContextPlan, o: { target: string; reportsDir: string; out: string[] }): string {
  mkdirSync(o.reportsDir, { recursive: true });
  const binary = process.env.K6_BIN || 'k6';
  const context: CapacityContext = {
    startedAt: new Date().toISOString(),
    target: o.target,
    environment: plan.environment,
    plan: {
      ...(plan.fraction !== undefined ? { fraction: plan.fraction } : {}),
      ...(plan.duration !== undefined ? { duration: plan.duration } : {}),
      windowMs: plan.windowMs,
      operations: plan.operations.map((op) => ({ id: op.id, limit: op.catalogueLimit })),
    },
    k6: { binary, version: k6Version(binary) },
    load: { cores: cpus().length, start: loadNow() },
    samplesFile: SAMPLES_FILE,
  };
  writeFileSync(join(o.reportsDir, CONTEXT_FILE), JSON.stringify(context, null, 2));
  const out = `json=${join(o.reportsDir, SAMPLES_FILE)}`;
  o.out.push(out);
  return out;
}

/** After a capacity run: the end time, the load average at the end and the target capacity.json names. */
export function closeCapacityContext(outDir: string): void {
  const f = join(outDir, CONTEXT_FILE);
  if (!existsSync(f)) return;
  const c = JSON.parse(readFileSync(f, 'utf8')) as CapacityContext;
  const result = join(outDir, 'capacity.json');
  // The result names the target's base URL and the fraction and duration the script used (defaults included).
  const r = existsSync(result)
    ? (JSON.parse(readFileSync(result, 'utf8')) as { target?: string; fraction?: number; duration?: string })
    : {};
  const closed: CapacityContext = {
    ...c,
    ...(r.target ? { target: r.target } : {}),
    plan: { ...c.plan, ...(r.fraction !== undefined ? { fraction: r.fraction } : {}), ...(r.duration ? { duration: r.duration } : {}) },
    endedAt: new Date().toISOString(),
    load: { ...c.load, end: loadNow() },
  };
  writeFileSync(f, JSON.stringify(closed, null, 2));
}

/** A run: its folder (the raw-requests file found in it) or the raw-requests file itself. */
export function samplesFileOf(run: string): string {
  if (existsSync(run) && statSync(run).isFile()) return run;
  const found = SAMPLE_NAMES.map((n) => join(run, n)).find((f) => existsSync(f));
  if (!found)
    throw new Error(
      `no raw requests of a capacity run in ${run}: expected one of ${SAMPLE_NAMES.join(', ')} (written by \`npm run load -- capacity\`), or give k6's JSON/CSV output file`,
    );
  return found;
}

function contextOf(samplesFile: string): CapacityContext | null {
  const f = join(dirname(samplesFile), CONTEXT_FILE);
  return existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as CapacityContext) : null;
}

/** Each operation's latencies in both runs, counted in the same bins (for the report page's overlaid distributions). */
interface Distribution {
  id: string;
  binStartsMs: number[];
  baseline: number[];
  current: number[];
}

const BINS = 30;

function distributionOf(id: string, a: readonly RequestSample[], b: readonly RequestSample[]): Distribution {
  const all = [...a, ...b].map((s) => s.durationMs).sort((x, y) => x - y);
  // Up to the 99th percentile of both runs: one stall must not squeeze the rest into a bin.
  const top = all[Math.floor(0.99 * (all.length - 1))] ?? 1;
  const width = Math.max(top, 0.001) / BINS;
  const count = (s: readonly RequestSample[]) => {
    const c = new Array<number>(BINS).fill(0);
    for (const x of s) c[Math.min(BINS - 1, Math.floor(x.durationMs / width))]! += 1;
    return c;
  };
  return {
    id,
    binStartsMs: Array.from({ length: BINS }, (_, i) => Math.round(i * width * 100) / 100),
    baseline: count(a),
    current: count(b),
  };
}

export interface CapacityRunComparison extends PerfComparison {
  baseline: { samplesFile: string; context: CapacityContext | null };
  current: { samplesFile: string; context: CapacityContext | null };
  distributions: Distribution[];
}

/**
 * The requests of the operations a run planned (its setup's token calls are tagged with their operation too, and are
 * no part of the load); all of them when no context says what was planned.
 */
function plannedOnly(samples: RunSamples, contexts: readonly (CapacityContext | null)[]): RunSamples {
  const planned = new Set(contexts.flatMap((c) => c?.plan.operations.map((op) => op.id) ?? []));
  return planned.size ? new Map([...samples].filter(([id]) => planned.has(id))) : samples;
}

/** Two capacity runs (folders or raw-requests files) compared. */
export async function compareCapacityRuns(baselineRun: string, currentRun: string, o: CompareOptions = {}): Promise<CapacityRunComparison> {
  const [fa, fb] = [samplesFileOf(baselineRun), samplesFileOf(currentRun)];
  const [ca, cb] = [contextOf(fa), contextOf(fb)];
  const [a, b] = (await Promise.all([readRunSamples(fa), readRunSamples(fb)])).map((r) => plannedOnly(r, [ca, cb])) as [
    RunSamples,
    RunSamples,
  ];
  const comparison = compareRuns(a, b, o);
  // Nothing compared must not read as "passed".
  if (!comparison.operations.length)
    throw new Error(
      `the runs share no operation with requests to compare (baseline: ${[...a.keys()].join(', ') || 'none'}; current: ${[...b.keys()].join(', ') || 'none'}): run capacity with the same --ops on both`,
    );
  return {
    ...comparison,
    baseline: { samplesFile: fa, context: ca },
    current: { samplesFile: fb, context: cb },
    distributions: comparison.operations.map((op) => distributionOf(op.id, a.get(op.id) ?? [], b.get(op.id) ?? [])),
  };
}

/** The comparison as lines for a terminal: one per operation, then the verdict. */
export function comparisonLines(c: CapacityRunComparison): string[] {
  const ms = (v: number) => `${v >= 0 ? '+' : ''}${v.toFixed(1)}`;
  const stat = (s: PerfComparison['operations'][number]['median']) =>
    `${s.baseline.toFixed(1)}→${s.current.toFixed(1)} ms (${ms(s.change)} [${ms(s.interval[0])}, ${ms(s.interval[1])}])`;
  const rate = (s: PerfComparison['operations'][number]['errorRate']) =>
    `${(s.baseline * 100).toFixed(1)}→${(s.current * 100).toFixed(1)} %`;
  return [
    `capacity comparison: ${c.baseline.samplesFile} → ${c.current.samplesFile}; ${thresholdWords(c.threshold)}; ${c.confidence * 100} % intervals, ${c.resamples} block-bootstrap resamples, seed ${c.seed}`,
    ...c.operations.map(
      (op) =>
        `  ${op.id}: ${op.verdict.toUpperCase()}${op.verdict === 'not enough data' ? ` (about ${neededOf(op)} requests per run would decide)` : ''}; median ${stat(op.median)}, p95 ${stat(op.p95)}, errors ${rate(op.errorRate)}, 429s ${rate(op.rate429)}; requests ${op.requests.baseline}/${op.requests.current}`,
    ),
    ...(c.onlyInBaseline.length ? [`  only in the baseline (not compared): ${c.onlyInBaseline.join(', ')}`] : []),
    ...(c.onlyInCurrent.length ? [`  only in the current run (not compared): ${c.onlyInCurrent.join(', ')}`] : []),
    ...c.operations.flatMap((op) => op.regressions.map((r) => `  regression: ${op.id} ${r}`)),
    `capacity comparison: ${c.verdict.toUpperCase()}`,
  ];
}

/** The margins in words. */
export function thresholdWords(t: PerfThreshold): string {
  return `a change counts beyond ${t.median.relative * 100} % and ${t.median.absoluteMs} ms (median), ${t.p95.relative * 100} % and ${t.p95.absoluteMs} ms (p95), ${t.ratePoints * 100} points (error and 429 rates)`;
}

/** The requests per run that would decide an operation's undecided statistics ("many more" when none would). */
export function neededOf(op: PerfComparison['operations'][number]): string {
  const needs = [op.median, op.p95].filter((s) => s.verdict === 'not enough data').map((s) => s.neededRequests ?? null);
  if (needs.some((n) => n === null || !Number.isFinite(n))) return 'many more';
  return String(Math.max(...(needs as number[])));
}

/**
 * `npm run load -- compare <baseline run> [current run]` (current default: the reports folder): prints the
 * comparison, writes it as JSON in the current run's folder. Exit 0 passed, 99 a regression beyond the threshold (as
 * `npm run load` exits when k6's thresholds are crossed).
 */
export async function runCapacityComparison(inputs: readonly string[], reportsDir: string, o: CompareOptions): Promise<number> {
  const [baseline, current = reportsDir] = inputs;
  if (!baseline || inputs.length > 2)
    throw new Error(
      `compare takes a baseline run and, optionally, the current run (default ${reportsDir}); received ${inputs.length} argument(s)`,
    );
  const c = await compareCapacityRuns(baseline, current, o);
  for (const line of comparisonLines(c)) console.log(line);
  const file = join(dirname(c.current.samplesFile), PERF_DIFF_FILE);
  writeFileSync(file, JSON.stringify(c, null, 2));
  console.log(`capacity comparison: figures in ${file}`);
  return c.verdict === 'failed' ? REGRESSION_EXIT : 0;
}

/**
 * Runs a k6 bundle in Node (test double, see README.md): re-links its k6 imports to the shims, then
 * runs k6's life cycle: init → setup → scenarios (arrival-rate schedules or iterations) → teardown →
 * thresholds → handleSummary, and ends with k6's exit code.
 */
import { build } from 'esbuild';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { configureBridge, stopBridge, requestSync, sleepSync } from './sync-http';
import { contextTags, execution, metrics, record, resetState, sampleListeners, valuesOf } from './modules/state';
import { TestAbort } from './modules/execution';
import { parseDuration } from '../../catalogue/duration';
import { k6SegmentSequence, parseSegment, scheduleOf, MAX_ITERATIONS, type ScenarioConfig, type Schedule } from './executors';
import { OutputWriter, type FileOutput } from './outputs';
import { DEFAULT_TREND_STATS, evaluateThresholds, legacyExport, summaryMetrics, type ThresholdResult } from './summary';

const here = dirname(fileURLToPath(import.meta.url));
const SHIMS: Record<string, string> = {
  k6: join(here, 'modules/k6.ts'),
  'k6/http': join(here, 'modules/http.ts'),
  'k6/metrics': join(here, 'modules/metrics.ts'),
  'k6/execution': join(here, 'modules/execution.ts'),
};

/** k6's exit codes (errext/exitcodes). */
export const EXIT = {
  ok: 0,
  thresholdsFailed: 99,
  setupTimeout: 100,
  invalidConfig: 104,
  scriptException: 107,
  scriptAborted: 108,
  usage: 255,
} as const;

/** k6's default setupTimeout (lib/options.go). */
const DEFAULT_SETUP_TIMEOUT = '60s';

export interface RunOptions {
  /** __ENV of the script. */
  env: Record<string, string>;
  /** Directory relative file names of handleSummary are written to. Default the process cwd. */
  cwd?: string;
  /** `--execution-segment`, e.g. `0:1/3`. */
  executionSegment?: string;
  /** `--execution-segment-sequence`, e.g. `0,1/3,2/3,1`. */
  executionSegmentSequence?: string;
  /** `--summary-export` file. */
  summaryExport?: string;
  /** `--out json=…` / `--out csv=…`: every sample, as k6 writes them (outputs.ts). */
  outputs?: readonly FileOutput[];
  /** Errors and notices (default process.stderr). */
  log?: (line: string) => void;
}

export interface RunResult {
  exitCode: number;
  stdout: string;
  files: string[];
  setupData: unknown;
  thresholds: ThresholdResult[];
  metrics: ReturnType<typeof summaryMetrics>;
}

type ScriptOptions = NonNullable<ScriptModule['options']>;

interface ScriptModule {
  options?: {
    iterations?: number;
    vus?: number;
    duration?: string;
    scenarios?: Record<string, ScenarioConfig>;
    thresholds?: Record<string, (string | { threshold: string })[]>;
    summaryTrendStats?: string[];
    setupTimeout?: string;
  };
  setup?: () => unknown;
  teardown?: (d: unknown) => void;
  handleSummary?: (d: unknown) => Record<string, string>;
  [exec: string]: unknown;
}

class RunError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/**
 * Builds the script with the k6 modules shimmed and imports it. The built file is removed once imported:
 * a run stopped by a signal (k6's --max-duration, a CI timeout) leaves nothing in the temporary folder.
 */
async function load(bundle: string): Promise<ScriptModule> {
  const tmp = mkdtempSync(join(tmpdir(), 'k6-node-'));
  const outfile = join(tmp, 'script.mjs');
  try {
    await build({
      entryPoints: [resolve(bundle)],
      bundle: true,
      format: 'esm',
      platform: 'node',
      outfile,
      logLevel: 'error',
      plugins: [
        {
          name: 'k6-shims',
          setup(b) {
            b.onResolve({ filter: /^k6(\/.*)?$/ }, (args) => {
              const p = SHIMS[args.path];
              if (!p) throw new Error(`k6-node does not implement ${args.path} (see tools/k6-node/README.md)`);
              return { path: p };
            });
          },
        },
      ],
    });
    return (await import(pathToFileURL(outfile).href)) as ScriptModule;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The scenarios of the script; without any, k6's implicit shared-iterations scenario. */
function scenariosOf(o: NonNullable<ScriptModule['options']>): Record<string, ScenarioConfig> {
  if (o.scenarios) return o.scenarios;
  if (o.duration)
    throw new RunError('k6-node does not run duration-based tests without scenarios (constant-vus); use k6', EXIT.invalidConfig);
  if ((o.vus ?? 1) > 1) throw new RunError(`k6-node runs one VU per iterations scenario; the script asks for ${o.vus}`, EXIT.invalidConfig);
  return { default: { executor: 'shared-iterations', vus: 1, iterations: o.iterations ?? 1, exec: 'default' } };
}

interface Due {
  at: number;
  s: Schedule;
  /** Index among the scenario's iterations. */
  i: number;
}

/** Runs every scenario on one thread in start-time order; see README.md for how it differs from k6. */
function runScenarios(
  mod: ScriptModule,
  schedules: Schedule[],
  env: Record<string, string>,
  data: unknown,
  log: (l: string) => void,
): void {
  const queue: Due[] = [];
  for (const s of schedules) {
    if (s.startsMs) s.startsMs.forEach((at, i) => queue.push({ at, s, i }));
    else for (let i = 0; i < s.iterations; i++) queue.push({ at: 0, s, i });
  }
  if (queue.length > MAX_ITERATIONS) throw new RunError(`k6-node schedules at most ${MAX_ITERATIONS} iterations`, EXIT.invalidConfig);
  queue.sort((a, b) => a.at - b.at || a.i - b.i);
  const started = Date.now();
  const lastStart = Math.max(0, ...queue.map((q) => q.at));
  // k6's default gracefulStop: iterations still due 30 s after the last scheduled start are not run.
  const hardStop = started + lastStart + 30_000;
  let errors = 0;
  let inInstance = 0;
  for (const due of queue) {
    const wait = started + due.at - Date.now();
    if (wait > 0) sleepSync(wait);
    const now = Date.now() - started;
    if (due.s.startsMs) {
      // Iterations of this scenario already due and not started: more than maxVUs would need VUs k6 does not have.
      const overdue = due.s.startsMs.filter((t, j) => j >= due.i && t <= now).length;
      if (overdue > due.s.maxVUs || Date.now() > hardStop) {
        record('dropped_iterations', 'counter', 1, { scenario: due.s.name });
        continue;
      }
    }
    const c = due.s.config;
    const fn = mod[c.exec ?? 'default'];
    if (typeof fn !== 'function')
      throw new RunError(
        `scenario "${due.s.name}" executes "${c.exec ?? 'default'}", which the script does not export`,
        EXIT.invalidConfig,
      );
    (globalThis as unknown as { __ENV: Record<string, string> }).__ENV = { ...env, ...c.env };
    Object.assign(execution.scenario, { name: due.s.name, executor: c.executor, iterationInTest: due.i, startTime: started });
    Object.assign(execution.vu, { iterationInScenario: due.i, iterationInInstance: inInstance++ });
    contextTags.current = { scenario: due.s.name, ...c.tags };
    const t0 = performance.now();
    try {
      (fn as (d: unknown) => void)(data);
      record('iterations', 'counter', 1);
    } catch (e) {
      if (e instanceof TestAbort) throw new RunError(e.message, EXIT.scriptAborted);
      errors += 1;
      if (errors <= 10) log(`ERRO[k6-node] ${(e as Error).message} (scenario ${due.s.name}, iteration ${due.i})`);
    } finally {
      record('iteration_duration', 'trend', performance.now() - t0);
      execution.instance.iterationsCompleted += 1;
      contextTags.current = {};
    }
  }
  if (errors > 10) log(`ERRO[k6-node] ${errors - 10} more iteration errors`);
  (globalThis as unknown as { __ENV: Record<string, string> }).__ENV = { ...env };
}

function checksOf(): { name: string; passes: number; fails: number }[] {
  const names = [...new Set((metrics.get('checks')?.samples ?? []).map((s) => s.tags.check as string))];
  return names.map((name) => {
    const v = valuesOf('checks', { check: name });
    return { name, passes: v.filter((x) => x !== 0).length, fails: v.filter((x) => x === 0).length };
  });
}

function defaultSummary(thresholds: ThresholdResult[], m: ReturnType<typeof summaryMetrics>): string {
  const lines = thresholds.map((t) => `  ${t.ok ? '✓' : '✗'} ${t.metric} '${t.expression}' (${t.actual})`);
  for (const [k, v] of Object.entries(m))
    lines.push(
      `  ${k}: ${Object.entries(v.values)
        .map(([a, b]) => `${a}=${Number(b.toFixed(3))}`)
        .join(' ')}`,
    );
  return `\n${lines.join('\n')}\n`;
}

/** Imports the script; a failure in its init context ends the run as k6's does. */
async function loadScript(bundle: string): Promise<ScriptModule> {
  try {
    return await load(bundle);
  } catch (e) {
    throw new RunError(`the script failed in its init context: ${(e as Error).message}`, EXIT.scriptException);
  }
}

/** The schedule of each scenario in this segment; a configuration k6 refuses ends the run with k6's code. */
function schedulesOf(o: ScriptOptions, segment: ReturnType<typeof parseSegment>): Schedule[] {
  try {
    return Object.entries(scenariosOf(o)).map(([name, c]) => scheduleOf(name, c, segment));
  } catch (e) {
    throw e instanceof RunError ? e : new RunError((e as Error).message, EXIT.invalidConfig);
  }
}

/** Runs setup() as k6 does: within setupTimeout, its data handed to the VUs as a JSON copy. */
function runSetup(mod: ScriptModule, o: ScriptOptions): unknown {
  try {
    const setupStarted = performance.now();
    const data = mod.setup?.();
    // k6 interrupts a setup() longer than setupTimeout; the double's runs to its end, then fails as k6 would have.
    const limitMs = parseDuration(o.setupTimeout ?? DEFAULT_SETUP_TIMEOUT);
    if (performance.now() - setupStarted > limitMs)
      throw new RunError(
        `setup() execution timed out after ${limitMs / 1000} seconds (setupTimeout ${o.setupTimeout ?? `${DEFAULT_SETUP_TIMEOUT}, k6's default`})`,
        EXIT.setupTimeout,
      );
    // k6 hands setup data to VUs as a JSON copy.
    return data === undefined ? undefined : JSON.parse(JSON.stringify(data));
  } catch (e) {
    if (e instanceof RunError) throw e;
    if (e instanceof TestAbort) throw new RunError(e.message, EXIT.scriptAborted);
    throw new RunError(`setup failed: ${(e as Error).message}`, EXIT.scriptException);
  }
}

function runTeardown(mod: ScriptModule, data: unknown): void {
  try {
    mod.teardown?.(data);
  } catch (e) {
    throw new RunError(`teardown failed: ${(e as Error).message}`, EXIT.scriptException);
  }
}

/** `--out json` / `--out csv`: every sample from now on, each output's lines (thresholds by metric for JSON's Metric lines). */
function outputWriters(outputs: readonly FileOutput[], o: ScriptOptions): OutputWriter[] {
  const thresholds = Object.fromEntries(
    Object.entries(o.thresholds ?? {}).map(([m, list]) => [m, list.map((t) => (typeof t === 'string' ? t : t.threshold))]),
  );
  const writers = outputs.map((out) => new OutputWriter(out, thresholds));
  if (writers.length)
    sampleListeners.push((metric, type, value, tags, t) => writers.forEach((w) => w.sample(metric, type, value, tags, t)));
  return writers;
}

/**
 * Writes a file as k6 does, relative to `cwd`: k6 creates no folder, so a file in a missing one is not written
 * and is added to `unwritten`. The path written, or undefined.
 */
function fileSaver(cwd: string, unwritten: string[]): (name: string, content: string | Buffer) => string | undefined {
  return (name, content) => {
    const p = resolve(cwd, name);
    if (!existsSync(dirname(p))) {
      unwritten.push(`could not open '${name}': open ${name}: no such file or directory`);
      return undefined;
    }
    writeFileSync(p, content);
    return p;
  };
}

/** The data handleSummary receives, as k6 hands it. */
function summaryData(summary: RunResult['metrics'], setupData: unknown, trendStats: string[], durationMs: number): unknown {
  return {
    metrics: summary,
    setup_data: setupData,
    options: { summaryTrendStats: trendStats, summaryTimeUnit: '', noColor: true },
    state: { isStdOutTTY: false, isStdErrTTY: false, testRunDurationMs: durationMs },
    root_group: { name: '', path: '', id: 'd41d8cd98f00b204e9800998ecf8427e', groups: [], checks: checksOf() },
  };
}

/** handleSummary's outputs (else k6's default summary on stdout): stdout kept, stderr logged, any other name a file. */
function summaryOutputs(
  mod: ScriptModule,
  data: unknown,
  defaultOutputs: () => Record<string, string>,
  save: (name: string, content: string) => string | undefined,
  log: (line: string) => void,
): { stdout: string; files: string[] } {
  let outputs: Record<string, string>;
  try {
    outputs = mod.handleSummary ? mod.handleSummary(data) : defaultOutputs();
  } catch (e) {
    throw new RunError(`handleSummary failed: ${(e as Error).message}`, EXIT.scriptException);
  }
  const files: string[] = [];
  let stdout = '';
  for (const [name, content] of Object.entries(outputs)) {
    if (name === 'stdout' || name === 'stderr') {
      if (name === 'stdout') stdout += content;
      else log(content);
      continue;
    }
    const written = save(name, content);
    if (written) files.push(written);
  }
  return { stdout, files };
}

/** k6's end of test: thresholds, the summary export, handleSummary's outputs, the JSON output, the exit code. */
function endOfTest(
  mod: ScriptModule,
  data: unknown,
  durationMs: number,
  writers: readonly OutputWriter[],
  opts: RunOptions,
  log: (line: string) => void,
): RunResult {
  const o = mod.options ?? {};
  execution.instance.currentTestRunDuration = durationMs;
  const trendStats = o.summaryTrendStats ?? DEFAULT_TREND_STATS;
  const thresholds = evaluateThresholds(o.thresholds ?? {}, durationMs);
  const summary = summaryMetrics(thresholds, durationMs, trendStats);
  // Files k6 could not write: it logs them together after the summary and keeps its exit code.
  const unwritten: string[] = [];
  const save = fileSaver(opts.cwd ?? process.cwd(), unwritten);
  if (opts.summaryExport) save(opts.summaryExport, JSON.stringify(legacyExport(summary, checksOf()), null, 2));
  const { stdout, files } = summaryOutputs(
    mod,
    summaryData(summary, data, trendStats, durationMs),
    () => ({ stdout: defaultSummary(thresholds, summary) }),
    save,
    log,
  );
  if (unwritten.length)
    log(
      `ERRO[k6-node] failed to handle the end-of-test summary: Could not save some summary information:\n\t- ${unwritten.join('\n\t- ')}`,
    );
  // The file outputs (their folders were checked before the run, as k6 opens them before it starts); `-` is stdout.
  let out = stdout;
  for (const w of writers)
    if (w.output.file === '-') out = w.content().toString() + out;
    else save(w.output.file, w.content());
  const failed = thresholds.filter((t) => !t.ok);
  for (const t of failed) log(`ERRO[k6-node] thresholds on metrics '${t.metric}' have been crossed: ${t.expression} (${t.actual})`);
  return { exitCode: failed.length ? EXIT.thresholdsFailed : EXIT.ok, stdout: out, files, setupData: data, thresholds, metrics: summary };
}

export async function runBundle(bundle: string, opts: RunOptions): Promise<RunResult> {
  const log = opts.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  resetState();
  configureBridge();
  let phase: 'init' | 'vu' = 'init';
  const g = globalThis as unknown as { __ENV: Record<string, string>; __k6node: unknown };
  g.__ENV = { ...opts.env };
  g.__k6node = { requestSync, sleepSync, record, execution, phase: () => phase };
  const empty = { stdout: '', files: [], setupData: undefined, thresholds: [], metrics: {} };
  const started = Date.now();
  try {
    const mod = await loadScript(bundle);
    const o = mod.options ?? {};
    const writers = outputWriters(opts.outputs ?? [], o);
    const segment = parseSegment(opts.executionSegment);
    const schedules = schedulesOf(o, segment);
    execution.test.options = {
      ...o,
      executionSegment: segment?.text ?? null,
      executionSegmentSequence: k6SegmentSequence(opts.executionSegmentSequence),
    };
    phase = 'vu';
    const data = runSetup(mod, o);
    runScenarios(mod, schedules, opts.env, data, log);
    runTeardown(mod, data);
    return endOfTest(mod, data, Date.now() - started, writers, opts, log);
  } catch (e) {
    if (!(e instanceof RunError)) throw e;
    log(`ERRO[k6-node] ${e.message}`);
    return { ...empty, exitCode: e.exitCode };
  } finally {
    metrics.clear();
    await stopBridge();
  }
}

/**
 * Runs a k6 bundle in Node (test double, see README.md): re-links its k6 imports to the shims, then
 * runs k6's life cycle: init → setup → scenarios (arrival-rate schedules or iterations) → teardown →
 * thresholds → handleSummary, and ends with k6's exit code.
 */
import { configureBridge, stopBridge, requestSync, sleepSync } from './sync-http';
import { declareMetric, execution, metrics, record, registry, resetState, sampleListeners } from './run-state';
import { k6SegmentSequence, executionSegmentOf } from './executors';
import { OutputWriter, type FileOutput } from './outputs';
import { RunError, TestAbort, type RunOptions } from './run-result';
import type { RunResult } from './run-outcome';
import { checkOptions } from './option-checks';
import { loadScript, type ScriptOptions } from './script';
import { runScenarios, schedulesOf } from './scenario-run';
import { runSetup, runTeardown } from './setup-teardown';
import { endOfTest } from './end-of-test';
import { checkThresholds } from './thresholds';

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

export async function runBundle(bundle: string, opts: RunOptions): Promise<RunResult> {
  const log = opts.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  resetState();
  configureBridge();
  let phase: 'init' | 'vu' = 'init';
  const g = globalThis as unknown as { __ENV: Record<string, string>; __k6node: unknown };
  g.__ENV = { ...opts.env };
  const abort = (message: string): never => {
    throw new TestAbort(message);
  };
  g.__k6node = { requestSync, sleepSync, record, declareMetric, execution, abort, phase: () => phase };
  // k6's globals in the init context and setup: VU 0.
  Object.assign(globalThis, { __VU: 0, __ITER: 0 });
  const empty = { stdout: '', files: [], setupData: undefined, thresholds: [], metrics: {} };
  const started = Date.now();
  try {
    const mod = await loadScript(bundle);
    const o = mod.options ?? {};
    checkOptions(o);
    const writers = outputWriters(opts.outputs ?? [], o);
    const segment = executionSegmentOf(opts.executionSegment);
    const schedules = schedulesOf(o, segment);
    checkThresholds(o.thresholds ?? {}, registry);
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

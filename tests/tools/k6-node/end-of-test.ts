/** k6's end of test: thresholds, the summary export, handleSummary's outputs (or the default summary), the file outputs, the exit code. */
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { execution, metrics, valuesOf } from './run-state';
import type { OutputWriter } from './outputs';
import { DEFAULT_TREND_STATS, legacyExport, summaryMetrics } from './summary-data';
import { evaluateThresholds, type ThresholdResult } from './thresholds';
import { EXIT, RunError, type RunOptions } from './run-result';
import type { RunResult } from './run-outcome';
import type { ScriptModule } from './script';

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
  // k6 writes nothing of a summary with a value other than text.
  const invalid = Object.entries(outputs).find(
    ([, content]: [string, unknown]) => typeof content !== 'string' && !(content instanceof ArrayBuffer),
  );
  if (invalid) {
    log(
      `ERRO[k6-node] failed to handle the end-of-test summary: error handling summary object ${invalid[0]}: invalid type ${typeof invalid[1]}, it needs to be a string or ArrayBuffer`,
    );
    return { stdout, files };
  }
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
export function endOfTest(
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

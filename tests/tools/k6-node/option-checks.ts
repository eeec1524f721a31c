/**
 * The script options k6 refuses as it reads them, before the run starts, with its exit code and words: thresholds
 * that are not a list, a summary trend statistic it does not know, a timeout that is not a duration.
 */
import { parseDurationOption } from './executors';
import { EXIT, RunError } from './run-result';
import type { ScriptOptions } from './script';

/** k6's trend statistics for summaryTrendStats (lib/options.go). */
const TREND_STAT = /^(avg|min|med|max|count|p\(\d+(\.\d+)?\))$/;

function checkThresholdLists(o: ScriptOptions): void {
  for (const [key, list] of Object.entries(o.thresholds ?? {}))
    if (!Array.isArray(list))
      throw new RunError(
        `json: cannot unmarshal ${typeof list} into Go struct field Options.thresholds of type []metrics.thresholdConfig (thresholds of ${key}: a list, e.g. ['p(95)<800'])`,
        EXIT.invalidConfig,
      );
}

function checkTimeouts(o: ScriptOptions): void {
  for (const key of ['setupTimeout', 'teardownTimeout'] as const) {
    const value = o[key];
    try {
      parseDurationOption(value);
    } catch {
      throw new RunError(`time: invalid duration "${value}" (${key})`, EXIT.invalidConfig);
    }
  }
}

/** Refuses what k6 refuses in the options; k6 reads summaryTrendStats as a command-line value (exit 255). */
export function checkOptions(o: ScriptOptions): void {
  checkThresholdLists(o);
  const stat = (o.summaryTrendStats ?? []).find((s) => !TREND_STAT.test(s));
  if (stat !== undefined) throw new RunError(`invalid trend stat '${stat}', unknown format`, EXIT.usage);
  checkTimeouts(o);
}

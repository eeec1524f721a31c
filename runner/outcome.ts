/** How a k6 command ended, as our exit code. */
import { NOT_JUDGED } from '../clients/exit-codes';

/** Our exit code for a k6 run that ended with 0 but left no result file (a manifest, capacity.json). */
export const NO_RESULT = 4;

/** Our exit code for a run that found a documented fact broken (an advertised limit not honoured, a 429 not documented). */
export const FACT_BROKEN = 1;

/** A command's result per operation (its manifest's, its capacity.json's): a header, which columns hold numbers, a row each. */
export interface OperationTable {
  head: string[];
  numeric: boolean[];
  rows: string[][];
}

/** How a k6 command ended: k6's code, whether the step found its result file, the facts it found broken, the operations left out. */
export interface K6Outcome {
  exitCode: number;
  wrote: boolean;
  /** Each broken fact in a line naming the operation, what was advertised, what was observed and the evidence. */
  broken: readonly string[];
  /** Each fact in scope the run could not judge, with its reason. */
  notJudged: readonly string[];
  notRun: readonly { id: string; reason: string }[];
  summaryExport: string;
  /** The result per operation, when the step read one. */
  table?: OperationTable;
}

/**
 * Our exit code for a k6 command, with what it says on stderr: k6's own code, except NO_RESULT for a
 * run that ended with 0 without its result file, and NOT_JUDGED for a run that left selected operations out (no id of the target's data for one, or
 * an operation probe-reset could not read), whatever k6 ended with for the others (a k6 failure keeps k6's own code).
 */
export function exitCodeOf(name: string, r: K6Outcome, say: (line: string) => void = (l) => console.error(l)): number {
  if (r.exitCode === 99) say(`load: ${name}: k6 exit 99, thresholds crossed (see the table above and ${r.summaryExport})`);
  else if (r.exitCode !== 0) say(`load: ${name}: k6 exited with ${r.exitCode}`);
  // k6 ends with 0 when its summary could not be written; the command cannot, having no result.
  if (r.exitCode === 0 && !r.wrote) return NO_RESULT;
  // A broken fact fails the run whatever else was not judged (k6's 99); a k6 failure keeps k6's own code.
  if (r.broken.length && (r.exitCode === 0 || r.exitCode === 99)) {
    say(
      `load: ${name}: ${r.broken.length} documented fact(s) broken (lines above and in the manifest's limitVerdict); exit ${FACT_BROKEN}`,
    );
    return FACT_BROKEN;
  }
  if (r.notJudged.length && r.exitCode === 0) {
    say(`load: ${name}: ${r.notJudged.length} fact(s) not judged: ${r.notJudged.join('; ')}; exit ${NOT_JUDGED}`);
    return NOT_JUDGED;
  }
  if (!r.notRun.length) return r.exitCode;
  const code = r.exitCode === 0 ? NOT_JUDGED : r.exitCode;
  // Each left out for a reason: no id of the target's data for it, or beyond the budget of a partial run.
  const budget = r.notRun.filter((n) => n.reason.startsWith('budget')).length;
  const why =
    budget === 0
      ? "no id of the target's data for them"
      : budget === r.notRun.length
        ? 'beyond the budget'
        : "no id of the target's data or beyond the budget";
  say(
    `load: ${name}: ${r.notRun.length} selected operation(s) not run, ${why}: ${r.notRun.map((n) => n.id).join(', ')} (reasons above and in the result's notRun); exit ${code}`,
  );
  return code;
}

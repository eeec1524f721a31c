/**
 * The exit code of a certification run (`npm run certify`): what could not be judged says so (blocked,
 * not run) with its reason and a non-zero exit. A failed check ends the run with 1 (Playwright's code);
 * a run in which nothing failed but a check was blocked or not run ends with NOT_JUDGED; 0 only when
 * every check ran and passed.
 */
import type { RunSummary } from '../../reporting/report-shapes';
import { NOT_JUDGED } from '../../clients/exit-codes';

/** The run's exit code from Playwright's and the summary's totals (summary.json). */
export function certifyExitCode(playwrightStatus: number, totals: RunSummary['totals']): number {
  if (playwrightStatus !== 0) return playwrightStatus;
  if (totals.failed > 0) return 1;
  return totals.blocked + totals.skipped > 0 ? NOT_JUDGED : 0;
}

/** The command's last line: the time and the exit code, and for a run not judged whole how many checks were not (their reasons are in the summary above). */
export function closingLine(seconds: string, code: number, totals: RunSummary['totals']): string {
  const line = `certify: finished in ${seconds} s with exit code ${code}`;
  if (code !== NOT_JUDGED) return line;
  return `${line}: nothing failed, but ${totals.blocked} checks were blocked and ${totals.skipped} not run (see "Not judged" above)`;
}

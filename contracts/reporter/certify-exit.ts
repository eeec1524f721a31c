/**
 * The exit code of a certification run (`npm run certify`), the interface a CI gates on: 0 when every check
 * in the scope the user chose passed; 1 when a check failed (Playwright's code); NOT_JUDGED when none failed
 * but a check in scope could not be judged (blocked, or not run: budget spent, ids not found). Checks out of
 * scope (ENVIRONMENTS, FAMILIES, PROBE_LIMITS, credentials, writes) and checks that cannot apply to the target
 * (the embedded mock's clock) are listed and leave the code alone, unless REQUIRE_EVERY_CHECK asks every
 * check to be judged: then out-of-scope checks count as not judged.
 */
import type { Totals } from '../../reporting/report-shapes';
import { NOT_JUDGED } from '../../clients/exit-codes';

/** Checks that could not be judged, under the run's rule. */
function unjudged(totals: Totals, requireEveryCheck: boolean): number {
  return totals.blocked + totals.skipped + (requireEveryCheck ? (totals.outOfScope ?? 0) : 0);
}

/** The run's exit code from Playwright's and the summary's totals (summary.json). */
export function certifyExitCode(playwrightStatus: number, totals: Totals, requireEveryCheck = false): number {
  if (playwrightStatus !== 0) return playwrightStatus;
  if (totals.failed > 0) return 1;
  return unjudged(totals, requireEveryCheck) > 0 ? NOT_JUDGED : 0;
}

/** The command's last line: the time, the exit code, and what it leaves aside or could not judge (the summary above lists each reason). */
export function closingLine(seconds: string, code: number, totals: Totals, requireEveryCheck = false): string {
  const line = `certify: finished in ${seconds} s with exit code ${code}`;
  const scope = totals.outOfScope ?? 0;
  const notApplicable = totals.notApplicable ?? 0;
  const aside = [scope ? `${scope} out of scope` : '', notApplicable ? `${notApplicable} not applicable to this target` : '']
    .filter(Boolean)
    .join(', ');
  if (code === NOT_JUDGED) {
    const counted = requireEveryCheck && scope ? ` and ${scope} out of scope (REQUIRE_EVERY_CHECK)` : '';
    return `${line}: nothing failed, but ${totals.blocked} checks were blocked and ${totals.skipped} not run${counted} (see "Not judged" above)`;
  }
  return aside ? `${line}; left aside: ${aside} (listed above with what brings them in)` : line;
}

/**
 * Prints the plain closing line of the harness's test runs, alone on its line:
 * `N passed, N failed, N skipped`, summed over Playwright's JSON reports (the fast suite's and the long
 * one's). Arguments: the reports (`*.json`; default the fast suite's), then each step of the CI run as
 * `name=exitCode` (e.g. `check=0 working-tree=1`): a failed step, or a report that is missing, counts as one
 * failed check so it can never hide.
 * Exit code 1 when anything failed or no test ran.
 */
import { readFileSync, existsSync } from 'node:fs';

interface JsonReport {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
}
interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

/** One report's counts; a missing report is one failure, said on stderr. */
function countsOf(file: string): Counts {
  if (!existsSync(file)) {
    console.error(`test summary: expected Playwright's JSON report at ${file}, found none; did its suite start? Counted as 1 failed`);
    return { passed: 0, failed: 1, skipped: 0 };
  }
  const { stats } = JSON.parse(readFileSync(file, 'utf8')) as JsonReport;
  if (stats.flaky > 0) console.error(`${file}: ${stats.flaky} test(s) passed only on a retry (flaky): see the report's flaky list`);
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected, skipped: stats.skipped };
}

const args = process.argv.slice(2);
const reports = args.filter((a) => a.endsWith('.json'));
const failedSteps = args
  .filter((a) => !a.endsWith('.json'))
  .map((s) => s.split('=') as [string, string | undefined])
  .filter(([, rc]) => rc !== '0')
  .map(([name]) => name);
for (const name of failedSteps) console.error(`${name} failed: counted as 1 failed`);
const total = (reports.length ? reports : ['reports/harness-tests/results.json'])
  .map(countsOf)
  .reduce((a, b) => ({ passed: a.passed + b.passed, failed: a.failed + b.failed, skipped: a.skipped + b.skipped }), {
    passed: 0,
    failed: failedSteps.length,
    skipped: 0,
  });
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(total.failed > 0 || total.passed === 0 ? 1 : 0);

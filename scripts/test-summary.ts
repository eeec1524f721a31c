/**
 * Prints the plain closing line of a harness test run, alone on its line:
 * `N passed, N failed, N skipped`, read from Playwright's JSON report. Each further argument is a
 * step of the CI run as `name=exitCode` (e.g. `check=0 working-tree=1`; a bare number is `check`): a
 * failed step counts as one failed check so it can never hide.
 * Exit code 1 when anything failed or no test ran.
 */
import { readFileSync, existsSync } from 'node:fs';

interface JsonReport {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
}

const [file = 'reports/harness-tests/results.json', ...steps] = process.argv.slice(2);
if (!existsSync(file)) {
  console.error(`test summary: expected Playwright's JSON report at ${file}, found none; did npm test start?`);
  console.log('0 passed, 1 failed, 0 skipped');
  process.exit(1);
}
const { stats } = JSON.parse(readFileSync(file, 'utf8')) as JsonReport;
const failedSteps = steps
  .map((s) => (s.includes('=') ? s.split('=') : ['check', s]) as [string, string])
  .filter(([, rc]) => rc !== '0')
  .map(([name]) => name);
for (const name of failedSteps) console.error(`${name} failed: counted as 1 failed`);
if (stats.flaky > 0) console.error(`${stats.flaky} test(s) passed only on a retry (flaky): see the report's flaky list`);
const passed = stats.expected + stats.flaky;
const failed = stats.unexpected + failedSteps.length;
console.log(`${passed} passed, ${failed} failed, ${stats.skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);

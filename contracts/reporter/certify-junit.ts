/**
 * reports/junit.xml of a certification run, one test case per check (a grouped check included), so a CI
 * shows each verdict: a failure with its evidence, and every check without a verdict as skipped with its
 * kind (not-run, blocked, out-of-scope, not-applicable), its reason and what brings it in.
 */
import junit from 'junit-report-builder';
import type { TestResult } from '../../reporting/report-shapes';
import { redact } from '../../clients/redact';
import { reproductionText } from './reproduction';

/** The kind a skipped JUnit case names, by the check's status. */
const KIND_OF: Partial<Record<TestResult['status'], string>> = {
  skipped: 'not-run',
  blocked: 'blocked',
  'out-of-scope': 'out-of-scope',
  'not-applicable': 'not-applicable',
};

/** A failure's text: its error, then the commands that send its requests again. */
function failureText(t: TestResult): string {
  const again = t.reproduction ? ['', 'Send it again:', ...reproductionText(t.reproduction)] : [];
  return [t.error ?? 'failed', ...again].join('\n');
}

/** The run's checks as JUnit XML, one suite per spec file (redacted). */
export function certifyJunit(tests: readonly TestResult[]): string {
  const builder = junit.newBuilder().name('certify');
  const suites = new Map<string, ReturnType<typeof builder.testSuite>>();
  for (const t of tests) {
    const suite = suites.get(t.file) ?? builder.testSuite().name(t.file);
    suites.set(t.file, suite);
    const c = suite
      .testCase()
      .className(t.file.replace(/\.spec\.ts$/, ''))
      .name(t.title)
      .time(t.durationMs / 1000);
    const kind = KIND_OF[t.status];
    if (t.status === 'failed') c.failure(redact(failureText(t)));
    else if (kind) {
      c.skipped()
        .property('kind', kind)
        .property('reason', t.reason ?? 'no reason recorded');
      if (t.bringsIn) c.property('brought-in-by', t.bringsIn);
      c.standardOutput(`${kind}: ${t.reason ?? 'no reason recorded'}${t.bringsIn ? ` (brought in by ${t.bringsIn})` : ''}`);
    }
  }
  return redact(builder.build());
}

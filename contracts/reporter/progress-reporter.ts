/**
 * The run's progress on the terminal: one line per check group with its counts (`✓ valid call of each operation
 * (production): 35 checks, 0 failed`), the failed checks under it with the first lines of their failure. A group is a
 * grouped test (outcomes/check-groups.ts), or a spec file's single-check tests together, printed when its last one
 * ended; at the end, every failure in full. Tags stay in the reports (summary.json, JUnit, Allure), not on these lines.
 */
import { basename } from 'node:path';
import type { FullConfig, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import type { CheckStatus } from '../../reporting/report-shapes';
import { redact } from '../../clients/redact';
import type { CheckResult } from '../record/annotations';
import { readAnnotations } from '../record/annotation-reader';
import { unitsOf } from '../record/check-units';
import { entryOf } from './summary-reporter';

/** Lines of a failure shown under its check. */
const ERROR_LINES = 3;

/** How a group's checks ended: the counts the line shows. */
interface Tally {
  checks: number;
  byStatus: Partial<Record<CheckStatus, number>>;
  failed: CheckResult[];
}

const emptyTally = (): Tally => ({ checks: 0, byStatus: {}, failed: [] });

function add(t: Tally, units: readonly CheckResult[]): void {
  for (const u of units) {
    t.checks += 1;
    t.byStatus[u.status] = (t.byStatus[u.status] ?? 0) + 1;
    if (u.status === 'failed') t.failed.push(u);
  }
}

/** A title without its tags (`@tokens @catalog.search …`). */
export const withoutTags = (title: string): string =>
  title
    .replace(/\s@[\w.:-]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/** The counts beside passed and failed that a line names when there are any. */
const OTHERS: readonly [CheckStatus, string][] = [
  ['blocked', 'blocked'],
  ['skipped', 'not run'],
  ['out-of-scope', 'out of scope'],
  ['not-applicable', 'not applicable'],
];

/** A group's line and, under it, its failed checks. */
export function groupLines(name: string, t: Tally): string[] {
  const failed = t.byStatus.failed ?? 0;
  const mark = failed ? '✘' : t.byStatus.passed ? '✓' : '–';
  const others = OTHERS.filter(([s]) => t.byStatus[s]).map(([s, label]) => `, ${t.byStatus[s]} ${label}`);
  return [
    `${mark} ${name}: ${t.checks} check${t.checks === 1 ? '' : 's'}, ${failed} failed${others.join('')}`,
    ...t.failed.flatMap((u) => [
      `    ✘ ${withoutTags(u.title)}`,
      ...(u.error ?? '')
        .split('\n')
        .filter(Boolean)
        .slice(0, ERROR_LINES)
        .map((l) => `        ${l}`),
    ]),
  ];
}

/** The failures of the run in full, after the progress: each failed test's errors, as Playwright's own reporters print them. */
export function failureLines(failures: readonly { file: string; title: string; errors: readonly string[] }[]): string[] {
  if (!failures.length) return [];
  return [
    '',
    'Failures:',
    ...failures.flatMap((f, i) => [
      `  ${i + 1}) ${f.file} › ${withoutTags(f.title)}`,
      ...f.errors.flatMap((e) => e.split('\n')).map((l) => `     ${l}`),
      '',
    ]),
  ];
}

export default class ProgressReporter implements Reporter {
  private readonly remaining = new Map<string, number>();
  private readonly singles = new Map<string, Tally>();
  private readonly failures: { file: string; title: string; errors: string[] }[] = [];

  onBegin(_config: FullConfig, suite: Suite): void {
    for (const t of suite.allTests()) {
      const file = basename(t.location.file);
      this.remaining.set(file, (this.remaining.get(file) ?? 0) + 1);
    }
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    // A test Playwright will retry has not ended; certify runs without retries, where this is every test.
    if (result.status !== 'passed' && result.status !== 'skipped' && result.retry < test.retries) return;
    const entry = entryOf(test, result);
    if (result.status === 'failed' || result.status === 'timedOut') {
      this.failures.push({ file: entry.file, title: test.title, errors: result.errors.map((e) => e.message ?? String(e.value)) });
    }
    const annotations = readAnnotations(entry);
    const units = unitsOf(entry, annotations);
    const lines: string[] = [];
    if (annotations.checkResults.length) {
      const tally = emptyTally();
      add(tally, units);
      lines.push(...groupLines(withoutTags(test.title).replace(/^should /, ''), tally));
    } else {
      const tally = this.singles.get(entry.file) ?? emptyTally();
      this.singles.set(entry.file, tally);
      add(tally, units);
    }
    const left = (this.remaining.get(entry.file) ?? 1) - 1;
    this.remaining.set(entry.file, left);
    const singles = this.singles.get(entry.file);
    if (left === 0 && singles) lines.push(...groupLines(entry.file.replace(/\.spec\.ts$/, ''), singles));
    if (lines.length) process.stdout.write(`${redact(lines.join('\n'))}\n`);
  }

  onEnd(): void {
    const lines = failureLines(this.failures);
    if (lines.length) process.stdout.write(`${redact(lines.join('\n'))}\n`);
  }

  /** An error outside any test (a spec that does not load, a worker that died): printed whole. */
  onError(error: TestError): void {
    process.stderr.write(`${redact(error.stack ?? error.message ?? String(error.value))}\n`);
  }

  printsToStdio(): boolean {
    return true;
  }
}

/**
 * What a certification shows on GitHub Actions: the job page's step summary (GITHUB_STEP_SUMMARY, Markdown) with
 * the verdict, the groups table, the ledger's failed and not-judged (fact, place) pairs, each failed check with its
 * reproduction, and the findings; and one workflow command per failed check (`::error file=…,line=…::`), which
 * GitHub turns into an annotation on the spec's line, the format Playwright's own `github` reporter writes. Everything written or printed is redacted.
 */
import { appendFileSync } from 'node:fs';
import { redact } from '../../clients/redact';
import type { RunSummary, TestResult } from '../../reporting/report-shapes';
import type { GroupCounts } from './certify-summary';
import { reproductionText } from './reproduction';
import { COLUMNS } from './certify-summary-lines';
import { readAnnotations } from '../record/annotation-reader';
import { unitsOf, type RunEntry } from '../record/check-units';
import { cell, fenced, markdownTable, workflowCommand } from '../../reporting/github-markdown';
import { factLedgerMarkdown } from '../../reporting/fact-ledger-lines';

/** Where a check's test is declared: its path from the project root and its line. */
export interface CheckLocation {
  file: string;
  line: number;
}

/** The key of a check among the run's: its spec file's name and its title. */
export const checkKey = (t: Pick<TestResult, 'file' | 'title'>): string => `${t.file}\n${t.title}`;

/** Where each check of the run is declared: a grouped check at its group's test. */
export function checkLocations(tests: readonly { entry: RunEntry; at: CheckLocation }[]): Map<string, CheckLocation> {
  const out = new Map<string, CheckLocation>();
  for (const { entry, at } of tests)
    for (const unit of unitsOf(entry, readAnnotations(entry))) out.set(checkKey({ file: entry.file, title: unit.title }), at);
  return out;
}

/** One `::error` command per failed check, at its test's line, with its failure and its reproduction. */
export function errorAnnotations(summary: RunSummary, locations: ReadonlyMap<string, CheckLocation>): string[] {
  return summary.tests
    .filter((t) => t.status === 'failed')
    .map((t) => {
      const at = locations.get(checkKey(t));
      const again = t.reproduction ? ['', 'Send it again:', ...reproductionText(t.reproduction)] : [];
      // Redacted before the escapes: an escaped line break would hide `client_secret=` from the patterns.
      return workflowCommand(
        'error',
        { file: at?.file, line: at?.line, title: redact(t.title) },
        redact([t.error ?? 'failed', ...again].join('\n')),
      );
    });
}

function groupsTable(groups: ReadonlyMap<string, GroupCounts>, totals: GroupCounts): string[] {
  const row = (name: string, g: GroupCounts) => [name, ...COLUMNS.map(([, k]) => String(g[k]))];
  return markdownTable(
    ['group', ...COLUMNS.map(([h]) => h)],
    [...[...groups.entries()].sort().map(([name, g]) => row(name, g)), row('**total**', totals)],
    [false, ...COLUMNS.map(() => true)],
  );
}

function failedCheckLines(t: TestResult): string[] {
  return [
    `### ❌ ${cell(t.title)} (\`${t.file}\`)`,
    ...fenced(t.error ?? 'failed'),
    ...(t.reproduction ? ['Send it again (paste in bash):', ...fenced(reproductionText(t.reproduction).join('\n'), 'bash')] : []),
  ];
}

/** The step summary of a run, as Markdown (redacted by the caller). */
export function stepSummaryMarkdown(summary: RunSummary, groups: ReadonlyMap<string, GroupCounts>): string {
  const failed = summary.tests.filter((t) => t.status === 'failed');
  const totals: GroupCounts = { outOfScope: 0, notApplicable: 0, ...summary.totals };
  const lines = [
    `## Certification of ${cell(summary.target)} (${summary.environments.join(', ')}): ${summary.verdict === 'passed' ? '✅' : '❌'} ${summary.verdict.toUpperCase()}`,
    '',
    ...groupsTable(groups, totals),
    '',
    ...(summary.facts ? factLedgerMarkdown(summary.facts) : []),
    ...(failed.length ? [`## Failed checks (${failed.length})`, '', ...failed.flatMap((t) => [...failedCheckLines(t), ''])] : []),
    ...(summary.findings.length
      ? [
          '## Findings: where the spec conflicts or is silent, what this target does',
          '',
          '| finding | observed |',
          '|---|---|',
          ...summary.findings.map((f) => `| ${cell(f.id)} | ${cell(f.observed)} |`),
          '',
        ]
      : []),
    'Every exchange of the run is in `exchanges.har` among the reports.',
  ];
  return `${lines.join('\n')}\n`;
}

/** Appends the step summary to `file` and prints the annotations (GitHub reads workflow commands from the log). */
export function writeGithubOutput(
  file: string,
  summary: RunSummary,
  groups: ReadonlyMap<string, GroupCounts>,
  locations: ReadonlyMap<string, CheckLocation>,
): void {
  appendFileSync(file, redact(stepSummaryMarkdown(summary, groups)));
  for (const line of errorAnnotations(summary, locations)) console.log(redact(line));
}

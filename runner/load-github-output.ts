/**
 * What a k6 command of `npm run load` shows on GitHub Actions (GITHUB_ACTIONS on): the job page's step summary
 * (GITHUB_STEP_SUMMARY, Markdown) with the command, its verdict and exit code, its table per operation, each broken
 * fact, each fact not judged and each operation not run; and an annotation per broken fact (`::error`, titled with
 * the operation) and per operation not judged or not run (`::warning`). Everything written or printed is redacted.
 */
import { appendFileSync } from 'node:fs';
import { NOT_JUDGED, USAGE_ERROR } from '../clients/exit-codes';
import { redact } from '../clients/redact';
import { cell, fenced, markdownTable, workflowCommand } from '../reporting/github-markdown';
import type { CapacityRow } from '../reporting/capacity-section';
import type { FingerprintManifestEntry } from '../load/shared/bucket-probe';
import { exitCodeOf, FACT_BROKEN, NO_RESULT, type K6Outcome, type OperationTable } from './outcome';
import type { LoadOptions } from './load-options';

/** What a k6 command ended with, as the step summary shows it. */
export interface LoadReport {
  command: string;
  /** The target as the run names it (the embedded mock, or the base URL). */
  target: string;
  exitCode: number;
  /** How k6 itself ended; undefined when the command ended before k6 ran. */
  k6ExitCode?: number;
  /** Why the command ended before k6 ran (a refusal, no operation left to run), a line per reason. */
  endedBecause?: string;
  broken: readonly string[];
  notJudged: readonly string[];
  notRun: readonly { id: string; reason: string }[];
  table?: OperationTable;
}

/** k6's exit code when --max-duration stopped it. */
const K6_TIMED_OUT = 105;

/** The verdict of an exit code, in words (the exit codes of docs/capacity.md). */
export function verdictOf(r: Pick<LoadReport, 'exitCode' | 'k6ExitCode' | 'broken'>): string {
  if (r.exitCode === 0) return '✅ PASSED';
  if (r.exitCode === FACT_BROKEN && r.broken.length) return '❌ FAILED: a documented fact broken';
  if (r.exitCode === NOT_JUDGED) return r.k6ExitCode === NOT_JUDGED ? '❌ FAILED: thresholds crossed' : '⚠️ NOT JUDGED';
  if (r.k6ExitCode === undefined) return r.exitCode === USAGE_ERROR ? '⛔ REFUSED before start' : '⛔ NOT RUN';
  if (r.exitCode === NO_RESULT) return '❌ NO RESULT: k6 wrote no result file';
  if (r.exitCode === K6_TIMED_OUT) return '❌ STOPPED: --max-duration passed';
  return `❌ FAILED: k6 exited with ${r.exitCode}`;
}

/** The operation a judgement line names (`<operation>: <fact>`), and the fact. */
function split(line: string): { op: string; fact: string } {
  const at = line.indexOf(': ');
  return at < 0 ? { op: '', fact: line } : { op: line.slice(0, at), fact: line.slice(at + 2) };
}

/** A section of operations with a line each, as a table; none when empty. */
function section(title: string, rows: readonly { op: string; fact: string }[]): string[] {
  if (!rows.length) return [];
  return [
    `### ${title} (${rows.length})`,
    '',
    ...markdownTable(
      ['operation', 'what'],
      rows.map((r) => [r.op, r.fact]),
    ),
    '',
  ];
}

/** The step summary of a k6 command, as Markdown (redacted by the caller). */
export function loadStepSummary(r: LoadReport): string {
  const lines = [
    `## npm run load -- ${r.command} on ${cell(r.target)}: ${verdictOf(r)} (exit ${r.exitCode})`,
    '',
    ...(r.endedBecause ? [...fenced(r.endedBecause), ''] : []),
    ...(r.table ? [...markdownTable(r.table.head, r.table.rows, r.table.numeric), ''] : []),
    ...section('Broken facts', r.broken.map(split)),
    ...section('Not judged', r.notJudged.map(split)),
    ...section(
      'Not run',
      r.notRun.map((n) => ({ op: n.id, fact: n.reason })),
    ),
  ];
  return `${lines.join('\n')}\n`;
}

/** One `::error` per broken fact, titled with its operation; one `::warning` per operation not judged or not run. */
export function loadAnnotations(r: LoadReport): string[] {
  const warned = new Map<string, string[]>();
  for (const { op, fact } of [...r.notJudged.map(split), ...r.notRun.map((n) => ({ op: n.id, fact: `not run: ${n.reason}` }))])
    warned.set(op, [...(warned.get(op) ?? []), fact]);
  const title = (op: string) => ({ title: op || undefined });
  return [
    ...r.broken.map(split).map(({ op, fact }) => workflowCommand('error', title(op), fact)),
    ...[...warned].map(([op, facts]) => workflowCommand('warning', title(op), facts.join('\n'))),
  ];
}

/** The target as the run names it. */
function targetLabel(o: LoadOptions): string {
  if (o.target === 'mock') return 'the embedded mock';
  return o.target === 'sandbox' ? (o.deployment.baseUrl ?? 'sandbox') : o.target;
}

/** A command that ended before k6 ran: its exit code and why (runner/run.ts CommandRefusal). */
export interface EndedBeforeK6 {
  exitCode: number;
  message: string;
}

/** A command's report: how k6 ended, or why the command ended before k6 ran; each string redacted. */
export function loadReport(command: string, o: LoadOptions, ended: K6Outcome | EndedBeforeK6, exitCode: number): LoadReport {
  const base = { command, target: redact(targetLabel(o)), exitCode };
  if (!('wrote' in ended)) return { ...base, endedBecause: redact(ended.message), broken: [], notJudged: [], notRun: [] };
  return {
    ...base,
    k6ExitCode: ended.exitCode,
    broken: ended.broken.map(redact),
    notJudged: ended.notJudged.map(redact),
    notRun: ended.notRun.map((n) => ({ id: n.id, reason: redact(n.reason) })),
    ...(ended.table ? { table: { ...ended.table, rows: ended.table.rows.map((row) => row.map(redact)) } } : {}),
  };
}

/** Appends the step summary to `file` and prints the annotations (GitHub reads workflow commands from the log). */
export function writeLoadGithubOutput(file: string, r: LoadReport, print: (line: string) => void = (l) => console.log(l)): void {
  appendFileSync(file, redact(loadStepSummary(r)));
  for (const line of loadAnnotations(r)) print(redact(line));
}

/**
 * A k6 command's exit code (runner/outcome.ts), from how k6 ended or from the code it ended with before k6 ran;
 * on GitHub Actions (GITHUB_STEP_SUMMARY read into the options) its step summary and annotations written too.
 */
export function concludeK6Command(command: string, o: LoadOptions, ended: K6Outcome | EndedBeforeK6): number {
  const exitCode = 'wrote' in ended ? exitCodeOf(command, ended) : ended.exitCode;
  if (o.githubStepSummary) writeLoadGithubOutput(o.githubStepSummary, loadReport(command, o, ended, exitCode));
  return exitCode;
}

const show = (v: number | string | null | undefined): string => (v === null || v === undefined ? '-' : String(v));
/** A measured figure to `digits` decimals, as the terminal's table shows it. */
const round = (v: number | null, digits: number): string => (v === null ? '-' : v.toFixed(digits));

/**
 * The probe's table per operation, from its manifest: its verdict on the limit, what was advertised and observed, and
 * the limiter's fingerprint when the probe read one (probe-reset).
 */
export function manifestTable(entries: readonly FingerprintManifestEntry[]): OperationTable {
  const verdict = (e: FingerprintManifestEntry) =>
    e.limitVerdict?.verdict === 'failed' ? 'failed' : e.verdict ? 'no result' : show(e.limitVerdict?.verdict);
  const fingerprint = entries.some((e) => e.algorithm !== undefined);
  const fp = (e: FingerprintManifestEntry) => (fingerprint ? [show(e.algorithm), show(e.burst), show(e.sustainedPerSecond)] : []);
  return {
    head: [
      'operation',
      'verdict',
      'advertised',
      'observed',
      'window ms',
      'requests',
      ...(fingerprint ? ['algorithm', 'burst', 'per s'] : []),
    ],
    numeric: [false, false, true, true, true, true, ...(fingerprint ? [false, true, true] : [])],
    rows: entries.map((e) => [
      e.id,
      verdict(e),
      show(e.advertisedLimit),
      show(e.observedLimit),
      show(e.windowMs),
      show(e.requestsSpent),
      ...fp(e),
    ]),
  };
}

/** The capacity run's table per operation, from capacity.json. */
export function capacityTable(rows: readonly CapacityRow[]): OperationTable {
  return {
    head: ['operation', 'verdict', 'target /s', 'achieved /s', 'p95 ms', '429s', 'errors'],
    numeric: [false, false, true, true, true, true, true],
    rows: rows.map((r) => [
      r.id,
      r.verdict,
      round(r.targetRate, 2),
      round(r.achievedRate, 2),
      round(r.p95Ms, 1),
      show(r.status429),
      show(r.errors),
    ]),
  };
}

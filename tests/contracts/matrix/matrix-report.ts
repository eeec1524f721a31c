/**
 * Judges the detection matrix from Playwright's JSON report of its run: each test carries the drift mode
 * it ran under (annotation `drift-mode`, matrix-suite.ts) and the labels of its checks, read as the
 * summary reads them (contracts/record/annotations.ts): the test's labels, or one verdict per grouped check. A failure mode is caught when
 * one of the checks its detection names failed; a finding mode when its finding is recorded and no
 * check failed. Titles and failure texts play no part: rewording a check's message keeps its verdict.
 */
import type { Finding } from '../../../reporting/report-shapes';
import { readAnnotations } from '../../../contracts/record/annotation-reader';
import { DRIFT_MODES, type DriftId } from '../../../mock/drift';
import { DETECTIONS, type CheckRef, type Detection } from './detection-matrix';

/** The annotation that names a test's drift mode. */
export const DRIFT_MODE_ANNOTATION = 'drift-mode';
/** The JSON report of the matrix run, in its REPORTS_DIR. */
export const MATRIX_REPORT = 'matrix-results.json';

/** The parts of Playwright's JSON report the matrix reads. */
export interface JsonReport {
  suites: JsonSuite[];
}
interface JsonAnnotation {
  type: string;
  description?: string;
}
interface JsonSuite {
  title: string;
  specs?: { title: string; tests: { annotations?: JsonAnnotation[]; results: { status: string; annotations?: JsonAnnotation[] }[] }[] }[];
  suites?: JsonSuite[];
}

/** One test as it ran: its annotations and final status. */
export interface MatrixEntry {
  title: string;
  annotations: JsonAnnotation[];
  status: string;
}

/** A check's verdict under its labels. */
interface CheckVerdict {
  check?: string;
  operation?: string;
  environment?: string;
  status: string;
}

/** A drift mode's line of the matrix. */
export interface MatrixRow {
  mode: DriftId;
  kind: string;
  breaks: string;
  ran: number;
  failed: string[];
  findings: string[];
  detected: boolean;
  why: string;
}

/** The tests of the report by the drift mode they ran under. */
export function entriesByMode(report: JsonReport): Map<string, MatrixEntry[]> {
  const byMode = new Map<string, MatrixEntry[]>();
  const walk = (s: JsonSuite): void => {
    for (const spec of s.specs ?? [])
      for (const t of spec.tests) {
        const last = t.results.at(-1);
        const seen = new Set<string>();
        const annotations = [...(t.annotations ?? []), ...(last?.annotations ?? [])].filter((a) => {
          const key = `${a.type}\n${a.description ?? ''}`;
          return !seen.has(key) && !!seen.add(key);
        });
        const mode = annotations.find((a) => a.type === DRIFT_MODE_ANNOTATION)?.description;
        if (mode === undefined) continue;
        byMode.set(mode, [...(byMode.get(mode) ?? []), { title: spec.title, annotations, status: last?.status ?? 'skipped' }]);
      }
    for (const c of s.suites ?? []) walk(c);
  };
  for (const s of report.suites) walk(s);
  return byMode;
}

const isFailure = (status: string) => status === 'failed' || status === 'timedOut';

/** The verdicts of a test's checks: one per grouped check, else the test's own under its labels. */
function verdictsOf(e: MatrixEntry): CheckVerdict[] {
  const a = readAnnotations(e);
  if (a.checkResults.length) return a.checkResults;
  const v: CheckVerdict = { status: e.status };
  for (const part of ['check', 'operation', 'environment'] as const) {
    const value = a[part];
    if (value !== undefined) v[part] = value;
  }
  return [v];
}

const matches = (v: CheckVerdict, ref: CheckRef) =>
  v.check === ref.check && (!ref.operation || v.operation === ref.operation) && (!ref.environment || v.environment === ref.environment);
const describe = (v: CheckVerdict) => [v.check ?? '(unlabelled)', v.operation, v.environment].filter(Boolean).join(' ');

/** Findings the checks recorded. */
export function findingsOf(entries: readonly MatrixEntry[]): Finding[] {
  return entries.flatMap((e) => readAnnotations(e).findings);
}

type Verdict = Pick<MatrixRow, 'detected' | 'why'>;

/** A finding mode is caught when its finding is recorded and no test failed. */
function judgeFinding(want: { id: string; observed: string }, entries: readonly MatrixEntry[]): Verdict {
  const failedTests = entries.filter((e) => isFailure(e.status)).length;
  const f = findingsOf(entries).find((x) => x.id.split('@')[0] === want.id && x.observed === want.observed);
  if (!f) return { detected: false, why: `finding ${want.id}=${want.observed} not recorded` };
  if (failedTests) return { detected: false, why: `finding recorded but ${failedTests} test(s) failed` };
  return { detected: true, why: `finding ${f.id}=${f.observed}` };
}

/** A failure mode is caught when one of the checks its detection names failed. */
function judgeFailure(mustFail: readonly CheckRef[], entries: readonly MatrixEntry[], failed: readonly CheckVerdict[]): Verdict {
  const expected = failed.filter((v) => mustFail.some((ref) => matches(v, ref)));
  if (expected.length) return { detected: true, why: `expected check(s) failed: ${[...new Set(expected.map(describe))].join(', ')}` };
  const wanted = mustFail.map((r) => describe({ ...r, status: '' })).join(' or ');
  return {
    detected: false,
    why: `no failure of ${wanted} (${entries.length} test(s) ran, failed: ${failed.map(describe).join(', ') || 'none'})`,
  };
}

/** Was the drift mode caught: one of its checks failed, or its finding was recorded with no check failing? */
export function judgeMode(mode: DriftId, entries: readonly MatrixEntry[]): MatrixRow {
  const m = DRIFT_MODES.find((x) => x.id === mode);
  if (!m) throw new Error(`unknown drift mode ${mode}; expected one of ${DRIFT_MODES.map((x) => x.id).join(', ')}`);
  const d: Detection = DETECTIONS[mode];
  const failed = entries.flatMap(verdictsOf).filter((v) => isFailure(v.status));
  const { detected, why } = d.finding ? judgeFinding(d.finding, entries) : judgeFailure(d.mustFail ?? [], entries, failed);
  const findings = findingsOf(entries);
  return {
    mode,
    kind: m.kind,
    breaks: m.breaks,
    ran: entries.length,
    failed: [...new Set(failed.map(describe))],
    findings: [...new Set(findings.map((f) => `${f.id.split('@')[0]}=${f.observed}`))],
    detected,
    why,
  };
}

/** The matrix as a Markdown table, one line per drift mode. */
export function matrixMarkdown(rows: MatrixRow[]): string {
  const cell = (s: string) => s.replace(/\|/g, '/');
  const detected = rows.filter((r) => r.detected).length;
  return [
    '# Detection matrix',
    '',
    `${detected}/${rows.length} drift modes detected.`,
    '',
    '| mode | kind | breaks | checks run | failed checks | findings | detected |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.mode} | ${r.kind} | ${r.breaks} | ${r.ran} | ${r.failed.length ? r.failed.map(cell).join('<br>') : '—'} | ${r.findings.join('<br>') || '—'} | ${r.detected ? 'yes' : `NO: ${cell(r.why)}`} |`,
    ),
    '',
  ].join('\n');
}

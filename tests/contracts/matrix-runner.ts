/**
 * The detection matrix runner. One Playwright run of the contract suite in DRIFT_MATRIX mode (drift
 * modes packed into projects, ../../playwright.config.ts) starts in the background when the harness
 * run begins (matrix.setup.ts, or the matrix tests themselves when run alone), at a low priority, and stops with it (the
 * global teardown); its reporter (matrix-run-reporter.ts) writes each project's
 * checks as soon as that project is done. One harness test per drift mode then waits for its project
 * and judges it: caught for the right reason, or not. One runner process for every mode keeps the
 * matrix's cost to the workers of the suite itself.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Finding } from '../../catalogue';
import { DETECTIONS, grepTitle, groupModes } from '../../contracts/support/detection-matrix';
import { DRIFT_MODES } from '../../mock/drift';
import { inBackground } from '../cli-bundles';

/** A check's annotation, as Playwright reports it. */
export interface MatrixAnnotation {
  type: string;
  description?: string;
}

/** One contract check as it ran in a project of the matrix. */
export interface MatrixEntry {
  title: string;
  /** Playwright's outcome: a check the drift must break is expected to fail, so a failure there is 'expected'. */
  outcome: 'expected' | 'unexpected' | 'flaky' | 'skipped';
  annotations: MatrixAnnotation[];
  results: { status: string; errors: string[] }[];
}

/** The checks of one project (a drift mode). */
export interface MatrixProject {
  project: string;
  seconds: number;
  entries: MatrixEntry[];
}

/** A drift mode's line of the matrix. */
export interface MatrixRow {
  mode: string;
  kind: string;
  breaks: string;
  ran: number;
  failed: string[];
  findings: string[];
  detected: boolean;
  why: string;
}

const PROJECTS = 'projects';
const PID = 'run.pid';
/** Created exclusively by the one caller that starts the run. */
const LOCK = 'run.lock';
const LOG = 'run.log';
const END = 'run-end.json';

/** The drift modes of this run: all, or those DRIFT_MATRIX_MODES names (the other mode tests are reported skipped). */
export function selectedModes(): string[] {
  const named = (process.env.DRIFT_MATRIX_MODES ?? '').split(',').filter(Boolean);
  return DRIFT_MODES.map((m) => m.id).filter((id) => !named.length || named.includes(id));
}

/** The matrix run's folder inside a harness run folder. */
export const matrixDir = (runDir: string): string => join(runDir, 'detection-matrix');

/** Where the reporter of the matrix run writes a project's checks. */
export const projectFile = (dir: string, project: string): string => join(dir, PROJECTS, `${project}.json`);

/** Writes JSON so that a reader polling for the file never sees it half written. */
export function writeJsonAtomically(file: string, value: unknown): void {
  writeFileSync(`${file}.part`, JSON.stringify(value));
  renameSync(`${file}.part`, file);
}

/** Where the matrix run's reporter writes (its REPORTS_DIR). */
export function reporterDir(): string {
  const dir = process.env.REPORTS_DIR;
  if (!dir) throw new Error('the matrix run reporter needs REPORTS_DIR (set by the matrix runner); received none');
  mkdirSync(join(dir, PROJECTS), { recursive: true });
  return dir;
}

/** Marks the end of the matrix run (written by its reporter). */
export function writeRunEnd(dir: string, status: string): void {
  writeJsonAtomically(join(dir, END), { status });
}

/** The grep titles of the contract suite's tests (`playwright test --list`), for packing the modes. */
export function listSuiteTitles(): string[] {
  const r = spawnSync(
    process.execPath,
    ['node_modules/@playwright/test/cli.js', 'test', '-c', 'playwright.config.ts', '--list', '--reporter', 'json'],
    {
      encoding: 'utf8',
      env: { ...process.env, DRIFT_MATRIX: '', TARGET: 'mock', CI: '' },
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (r.status !== 0) throw new Error(`listing the contract suite's tests failed (exit ${r.status}): ${r.stderr.slice(-2000)}`);
  interface ListSuite {
    title: string;
    specs?: { title: string; tags?: string[] }[];
    suites?: ListSuite[];
  }
  const titles: string[] = [];
  const walk = (s: ListSuite, path: string[]): void => {
    for (const spec of s.specs ?? [])
      titles.push(
        grepTitle(
          [...path, spec.title],
          (spec.tags ?? []).map((t) => (t.startsWith('@') ? t : `@${t}`)),
        ),
      );
    for (const c of s.suites ?? []) walk(c, [...path, c.title]);
  };
  for (const s of (JSON.parse(r.stdout) as { suites: ListSuite[] }).suites) walk(s, [s.title]);
  return titles;
}

/**
 * Starts the contract suite in DRIFT_MATRIX mode in the background, in its own process group, with its
 * output in `dir`. The modes are packed into projects whose tests do not overlap (a worker serves one
 * project: fewer projects, fewer worker starts). Returns its pid (also written to `dir`, for stopMatrixRun).
 */
export async function startMatrixRun(dir: string, modes: readonly string[], workers = 2): Promise<number> {
  mkdirSync(join(dir, PROJECTS), { recursive: true });
  // Once per harness run: also when the matrix tests repeat (--repeat-each) or a worker restart runs their
  // beforeAll again. The caller that creates the lock starts it; the others wait for its pid.
  try {
    closeSync(openSync(join(dir, LOCK), 'wx'));
  } catch {
    for (let i = 0; i < 600 && !existsSync(join(dir, PID)); i++) await new Promise((r) => setTimeout(r, 100));
    if (!existsSync(join(dir, PID))) throw new Error(`the detection matrix run was being started in ${dir} but wrote no pid within 60 s`);
    return Number(readFileSync(join(dir, PID), 'utf8'));
  }
  const groups = groupModes(modes, listSuiteTitles());
  writeFileSync(join(dir, 'groups.json'), JSON.stringify(groups, null, 2));
  const log = openSync(join(dir, LOG), 'w');
  const reporter = resolve('tests/contracts/matrix-run-reporter.ts');
  const child = spawn(
    process.execPath,
    ['node_modules/@playwright/test/cli.js', 'test', '-c', 'playwright.config.ts', '--workers', String(workers), '--reporter', reporter],
    {
      // The drift modes only (no conforming project): the conforming mock passing every check is the certify test's job.
      env: { ...process.env, DRIFT_MATRIX: '1', DRIFT_MATRIX_GROUPS: JSON.stringify(groups), REPORTS_DIR: dir, TARGET: 'mock', CI: '' },
      detached: true,
      stdio: ['ignore', log, log],
    },
  );
  closeSync(log);
  child.unref();
  if (!child.pid) throw new Error('the detection matrix run could not start (no pid); see its log in ' + join(dir, LOG));
  inBackground(child.pid, true);
  writeFileSync(join(dir, PID), String(child.pid));
  return child.pid;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops the matrix run started in `dir` if it still runs (its process group: runner and workers). */
export function stopMatrixRun(dir: string): void {
  const file = join(dir, PID);
  if (!existsSync(file)) return;
  const pid = Number(readFileSync(file, 'utf8'));
  if (Number.isInteger(pid) && pid > 0 && alive(pid)) process.kill(-pid, 'SIGTERM');
}

/** `done` once the project's checks are written; `ended` if the run is over without them; else `running`. */
export function projectState(dir: string, project: string): 'done' | 'ended' | 'running' {
  if (existsSync(projectFile(dir, project))) return 'done';
  if (existsSync(join(dir, END))) return 'ended';
  const pid = existsSync(join(dir, PID)) ? Number(readFileSync(join(dir, PID), 'utf8')) : NaN;
  return Number.isInteger(pid) && alive(pid) ? 'running' : 'ended';
}

/** The project's checks; fails with the run's output when the run ended without them. */
export function readProject(dir: string, project: string): MatrixProject {
  const file = projectFile(dir, project);
  if (!existsSync(file)) {
    const log = existsSync(join(dir, LOG)) ? readFileSync(join(dir, LOG), 'utf8').slice(-3000) : '(no log)';
    throw new Error(`the detection matrix run ended without the checks of ${project}; expected ${file}. Its output:\n${log}`);
  }
  return JSON.parse(readFileSync(file, 'utf8')) as MatrixProject;
}

const failedOf = (e: MatrixEntry) => e.results.some((r) => r.status === 'failed' || r.status === 'timedOut');
const errorOf = (e: MatrixEntry) => e.results.flatMap((r) => r.errors).join('\n');

/** Findings the checks recorded (annotations of type `finding`). */
export function findingsOf(entries: MatrixEntry[]): Finding[] {
  return entries.flatMap((e) => e.annotations.filter((a) => a.type === 'finding').map((a) => JSON.parse(a.description ?? '{}') as Finding));
}

/** Was the drift mode caught: its expected checks failed naming the fact, or its finding was recorded? */
export function judgeMode(mode: string, p: MatrixProject): MatrixRow {
  const m = DRIFT_MODES.find((x) => x.id === mode);
  if (!m) throw new Error(`unknown drift mode ${mode}; expected one of ${DRIFT_MODES.map((x) => x.id).join(', ')}`);
  const d = DETECTIONS[mode];
  const failed = p.entries.filter(failedOf);
  const findings = findingsOf(p.entries);
  let detected = false;
  let why: string;
  if (!d) why = 'no detection declared';
  else if (d.finding) {
    const want = d.finding;
    const f = findings.find(
      (x) => x.id.split('@')[0] === want.id && x.observed === want.observed && (!want.evidence || want.evidence.test(x.evidence)),
    );
    detected = !!f && failed.length === 0;
    why = f
      ? failed.length
        ? `finding recorded but ${failed.length} check(s) failed`
        : `finding ${f.id}=${f.observed}`
      : `finding ${want.id}=${want.observed} not recorded`;
  } else {
    const expected = failed.filter((e) => d.mustFail?.test(e.title));
    const rightReason = expected.filter((e) => d.reason?.test(errorOf(e)));
    detected = rightReason.length > 0;
    why = detected
      ? `${rightReason.length} check(s) failed naming the fact`
      : expected[0]
        ? `failed for another reason: ${errorOf(expected[0]).slice(0, 300)}`
        : `no expected check failed (${p.entries.length} ran)`;
  }
  return {
    mode,
    kind: m.kind,
    breaks: m.breaks,
    ran: p.entries.length,
    failed: failed.map((e) => e.title),
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

/**
 * The detection matrix runner. One Playwright run of the contract suite under the drift modes of the
 * mock (matrix.config.ts: modes packed into projects) starts in the background when the harness run
 * begins (matrix.setup.ts, or the matrix tests themselves when run alone), at a low priority, and stops
 * with it (the global teardown). Playwright's JSON report of that run is then judged, one harness test
 * per drift mode (matrix-report.ts). One runner process for every mode keeps the matrix's cost to the
 * workers of the suite itself.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DriftId } from '../../../mock/drift';
import { inBackground } from '../../cli-bundles';
import { grepTitle, groupModes } from './detection-matrix';
import { MATRIX_REPORT, type JsonReport } from './matrix-report';

const PID = 'run.pid';
/** Created exclusively by the one caller that starts the run. */
const LOCK = 'run.lock';
const LOG = 'run.log';
const CONFIG = 'tests/contracts/matrix/matrix.config.ts';

/** The matrix run's folder inside a harness run folder. */
export const matrixDir = (runDir: string): string => join(runDir, 'detection-matrix');

/** The grep titles of the contract suite's tests (`playwright test --list`), for packing the modes. */
export function listSuiteTitles(): string[] {
  const r = spawnSync(
    process.execPath,
    ['node_modules/@playwright/test/cli.js', 'test', '-c', 'playwright.config.ts', '--list', '--reporter', 'json'],
    { encoding: 'utf8', env: { ...process.env, TARGET: 'mock', CI: '' }, maxBuffer: 64 * 1024 * 1024 },
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
 * Starts the matrix run in the background, in its own process group, with its output and JSON report in
 * `dir`. The modes are packed into projects whose tests do not overlap (a worker serves one project:
 * fewer projects, fewer worker starts). Returns its pid (also written to `dir`, for stopMatrixRun).
 */
export async function startMatrixRun(dir: string, modes: readonly DriftId[], workers = 2): Promise<number> {
  mkdirSync(dir, { recursive: true });
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
  const child = spawn(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', '-c', CONFIG, '--workers', String(workers)], {
    env: { ...process.env, DRIFT_MATRIX_GROUPS: JSON.stringify(groups), REPORTS_DIR: dir, TARGET: 'mock', CI: '' },
    detached: true,
    stdio: ['ignore', log, log],
  });
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

/** `running` while the matrix run's process lives; `ended` once it is gone (its JSON report, if any, is written). */
export function runState(dir: string): 'running' | 'ended' {
  const pid = existsSync(join(dir, PID)) ? Number(readFileSync(join(dir, PID), 'utf8')) : NaN;
  return Number.isInteger(pid) && alive(pid) ? 'running' : 'ended';
}

/** The ended run's JSON report; fails with the run's output when it wrote none. */
export function readReport(dir: string): JsonReport {
  const file = join(dir, MATRIX_REPORT);
  if (!existsSync(file)) {
    const log = existsSync(join(dir, LOG)) ? readFileSync(join(dir, LOG), 'utf8').slice(-3000) : '(no log)';
    throw new Error(`the detection matrix run ended without its JSON report; expected ${file}. Its output:\n${log}`);
  }
  return JSON.parse(readFileSync(file, 'utf8')) as JsonReport;
}

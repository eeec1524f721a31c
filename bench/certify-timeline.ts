/**
 * Where a certification's wall time goes, from Playwright's JSON report (results.json): the start-up before the
 * first test, the test phase (each worker's busy time and its idle gaps between tests), the time after the last
 * test (reporters, exit), and the longest test: the critical path no concurrency shortens.
 */
import { readFileSync } from 'node:fs';

interface JsonResult {
  workerIndex: number;
  startTime: string;
  duration: number;
}
interface JsonSuite {
  specs?: { title: string; tests: { results: JsonResult[] }[] }[];
  suites?: JsonSuite[];
}

export interface CertifyTimeline {
  /** From the run's start to the first test, s (Playwright loading the suite, global setup, the workers starting). */
  startUpS: number;
  /** From the first test's start to the last test's end, s. */
  testsS: number;
  /** Per worker: its tests' time and the idle gaps between them, s. */
  workers: { busyS: number; gapsS: number; tests: number }[];
  /** The longest test, and the sum of every test's time over the workers (what perfect sharing would take). */
  longest: { test: string; s: number } | null;
  sharedS: number;
}

const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** Each test run of the report: its worker, start (ms from the run's start) and duration. */
function runsOf(suites: JsonSuite[], t0: number): { title: string; worker: number; start: number; ms: number }[] {
  return suites.flatMap((s) => [
    ...(s.specs ?? []).flatMap((sp) =>
      sp.tests.flatMap((t) =>
        t.results.map((r) => ({ title: sp.title, worker: r.workerIndex, start: Date.parse(r.startTime) - t0, ms: r.duration })),
      ),
    ),
    ...runsOf(s.suites ?? [], t0),
  ]);
}

/** The timeline of the run whose JSON report is `file`. */
export function certifyTimeline(file: string): CertifyTimeline {
  const report = JSON.parse(readFileSync(file, 'utf8')) as { stats: { startTime: string }; suites: JsonSuite[] };
  const runs = runsOf(report.suites, Date.parse(report.stats.startTime)).filter((r) => r.worker >= 0);
  const byWorker = new Map<number, typeof runs>();
  for (const r of runs) byWorker.set(r.worker, [...(byWorker.get(r.worker) ?? []), r]);
  const workers = [...byWorker.values()].map((rs) => {
    const sorted = rs.sort((a, b) => a.start - b.start);
    const gaps = sorted.slice(1).reduce((sum, r, i) => sum + Math.max(0, r.start - ((sorted[i]?.start ?? 0) + (sorted[i]?.ms ?? 0))), 0);
    return { busyS: seconds(sorted.reduce((sum, r) => sum + r.ms, 0)), gapsS: seconds(gaps), tests: sorted.length };
  });
  const first = Math.min(...runs.map((r) => r.start));
  const last = Math.max(...runs.map((r) => r.start + r.ms));
  const longest = [...runs].sort((a, b) => b.ms - a.ms)[0];
  return {
    startUpS: runs.length ? seconds(first) : 0,
    testsS: runs.length ? seconds(last - first) : 0,
    workers,
    longest: longest ? { test: longest.title, s: seconds(longest.ms) } : null,
    sharedS: seconds(runs.reduce((sum, r) => sum + r.ms, 0) / Math.max(1, workers.length)),
  };
}

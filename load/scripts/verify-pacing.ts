/**
 * verify-pacing: runs every operation at the pacing its probe-reset manifest recommends, for a few
 * windows, and reports the 429s it drew (goal 0) and the throughput it achieved against the
 * measured sustained rate (goal >= 90 %). A miss fails the `pacing_misses` threshold (k6 exits non-zero).
 */
import http from 'k6/http';
import { sleep } from 'k6';
import { Counter } from 'k6/metrics';
import {
  callsToSend,
  periodMs,
  plannedAt,
  verdictOf,
  VERIFY_PERIODS,
  type PacedCall,
  type PacingPlan,
  type PacingVerdict,
} from '../lib/pacer';
import { notRunLines, notRunOf, plan, stamp, type NotRun, type Plan, type PlannedOperation } from '../plan/run-plan';
import { fetchTokens, requestOf, probeStatusOf } from '../shared/requests';

const pacingMisses = new Counter('pacing_misses');

export const options = {
  vus: 1,
  iterations: 1,
  setupTimeout: __ENV.SETUP_TIMEOUT ?? '30m',
  thresholds: { pacing_misses: ['count==0'] },
};

interface Run {
  op: PlannedOperation;
  plan: PacingPlan;
  total: number;
  t0: number;
  calls: PacedCall[];
  /** Send time of the last call that keeps a distance (a burst's first call, or a single call). */
  lastSent: number;
}

/** The least time between two spaced calls: the interval (sliding window), or the period between bursts (fixed window). */
function minGap(r: Run): number {
  const p = r.plan.pacing;
  const k = r.calls.length;
  if (p.kind === 'burst-per-window') return k % p.burst === 0 ? (p.periodMs as number) : 0;
  // A token bucket keeps what a late call left: catching up is safe there.
  if (p.kind === 'burst-then-even') return 0;
  return p.intervalMs as number;
}

/** Whether the call about to be sent is one the next keeps its distance from. */
function startsSpacing(r: Run): boolean {
  const p = r.plan.pacing;
  return p.kind === 'burst-per-window' ? r.calls.length % p.burst === 0 : p.kind === 'even' || r.calls.length >= p.burst - 1;
}

export interface VerifyResult {
  outDir: string;
  operations: { id: string; schedule: string; verdict: PacingVerdict }[];
  skipped: { id: string; reason: string }[];
  /** Selected operations left out of the plan (no id of the target's data for them). */
  notRun?: NotRun[];
  durationMs: number;
}

function sleepUntil(ms: number): void {
  const wait = ms - Date.now();
  // k6's sleep takes seconds.
  if (wait > 0) sleep(wait / 1000);
}

export function verify(p: Plan): VerifyResult {
  const started = Date.now();
  const tokens = fetchTokens(p);
  const skipped: VerifyResult['skipped'] = [];
  const runs: Run[] = [];
  for (const op of p.operations) {
    const pp = p.pacing?.[op.id];
    if (!pp) skipped.push({ id: op.id, reason: 'no pacing in the manifest (run probe-reset first; unresolved operations have none)' });
    else runs.push({ op, plan: pp, total: callsToSend(pp), t0: 0, calls: [], lastSent: -Infinity });
  }
  // Start from full buckets: whatever ran before had one period to give the quota back.
  sleepUntil(Date.now() + Math.max(0, ...runs.map((r) => periodMs(r.plan))));
  const begin = Date.now();
  for (const r of runs) r.t0 = begin;
  // Two periods of slack for slow answers, then the verification stops whatever is left.
  const deadline = begin + Math.max(0, ...runs.map((r) => (VERIFY_PERIODS + 2) * periodMs(r.plan)));
  for (;;) {
    const pending = runs.filter((r) => r.calls.length < r.total);
    if (!pending.length || Date.now() > deadline) break;
    // As Bottleneck's minTime does: after a late call, the next keeps its distance instead of
    // catching up (two calls bunched after a stall would overrun a sliding window).
    const nextOf = (r: Run) => Math.max(r.t0 + plannedAt(r.plan.pacing, r.calls.length), r.lastSent + minGap(r));
    sleepUntil(Math.min(...pending.map(nextOf)));
    const now = Date.now();
    const due = pending.filter((r) => nextOf(r) <= now);
    for (const r of due) if (startsSpacing(r)) r.lastSent = now;
    const responses = http.batch(due.map((r) => requestOf(p, r.op, tokens)) as never) as unknown as { status: number }[];
    const at = Date.now();
    due.forEach((r, i) => {
      // The schedule counts from the first answer: the limiter saw the first call at the latest then.
      if (r.calls.length === 0) r.t0 = at;
      r.calls.push({ tMs: at - r.t0, status: probeStatusOf(p, (responses[i] as { status: number }).status) });
    });
  }
  const operations = runs.map((r) => ({ id: r.op.id, schedule: r.plan.pacing.schedule, verdict: verdictOf(r.plan, r.calls) }));
  return { outDir: p.outDir, operations, skipped, ...notRunOf(p), durationMs: Date.now() - started };
}

export function setup(): VerifyResult {
  const r = verify(plan());
  pacingMisses.add(r.operations.filter((o) => !o.verdict.ok).length + r.skipped.length);
  return r;
}

export default function (): void {
  // The verification runs once, in setup, so its result reaches handleSummary as setup_data.
}

export function handleSummary(data: { setup_data?: VerifyResult }): Record<string, string> {
  const r = data.setup_data;
  if (!r) return { stdout: 'verify-pacing: setup produced no result\n' };
  const lines = [
    ...r.operations.map((o) => `  ${o.verdict.ok ? 'ok  ' : 'MISS'} ${o.id.padEnd(30)} ${o.schedule}: ${o.verdict.summary}`),
    ...r.skipped.map((s) => `  SKIP ${s.id.padEnd(30)} ${s.reason}`),
    ...notRunLines(r),
  ];
  const json = JSON.stringify(r, null, 2);
  return {
    [`${r.outDir}/pacing.json`]: json,
    [`${r.outDir}/verify-pacing-${stamp()}.json`]: json,
    stdout: `\nverify-pacing: ${r.operations.length} operations in ${r.durationMs} ms (goal: 0 refused, >= 90 % of the measured rate)\n${lines.join('\n')}\n`,
  };
}

/**
 * probe-limits: exhausts every selected operation's bucket in parallel and records its limit. An operation
 * whose limit was not measured (no refusal within its limit plus two calls: the window rolled over during the
 * exhaustion, the target advertised a larger limit than the plan's, or it refused otherwise) fails the
 * `probe_unmeasured` threshold, so k6 exits 99: a probe is never silently short. Each operation's verdict (its
 * advertised limit honoured, its 429 the documented JSON error body: load/lib/limit-verdicts.ts) is in the manifest,
 * and `npm run load` ends with exit 1 when one is broken.
 */
import { Counter } from 'k6/metrics';
import { unmeasuredReason } from '../lib/limit-analysis';
import { runnerPlan } from '../plan/run-plan';
import { writeNotices } from '../plan/probe-plan';
import { runProbe, probeSummary, type ProbeResult } from '../shared/bucket-probe';

const probeUnmeasured = new Counter('probe_unmeasured');
/** k6's console (its types leave it out). */
declare const console: { log(message: string): void };

export const options = {
  vus: 1,
  iterations: 1,
  setupTimeout: __ENV.SETUP_TIMEOUT ?? '10m',
  summaryTrendStats: ['avg', 'p(50)', 'p(95)', 'max'],
  thresholds: { probe_unmeasured: ['count==0'] },
};

export function setup(): ProbeResult {
  const plan = runnerPlan();
  if (!plan.writesAnnounced) for (const line of writeNotices(plan, 'probe-limits')) console.log(line);
  const r = runProbe(plan);
  for (const pr of r.probes) {
    const why = unmeasuredReason(pr.samples, plan.windowMs);
    if (why === null) continue;
    probeUnmeasured.add(1);
    console.log(`probe-limits: ${pr.op.id}: limit not measured: ${why}`);
  }
  return r;
}

export default function (): void {
  // The probe runs once, in setup, so its result reaches handleSummary as setup_data.
}

export function handleSummary(data: Record<string, unknown>): Record<string, string> {
  return probeSummary('probe-limits', data as never);
}

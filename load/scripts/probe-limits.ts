/** probe-limits: exhausts every selected operation's bucket in parallel and records its limit. */
import { runnerPlan } from './common';
import { runProbe, probeSummary, type ProbeResult } from './probe';

export const options = {
  vus: 1,
  iterations: 1,
  setupTimeout: __ENV.SETUP_TIMEOUT ?? '10m',
  summaryTrendStats: ['avg', 'p(50)', 'p(95)', 'max'],
};

export function setup(): ProbeResult {
  return runProbe(runnerPlan());
}

export default function (): void {
  // The probe runs once, in setup, so its result reaches handleSummary as setup_data.
}

export function handleSummary(data: Record<string, unknown>): Record<string, string> {
  return probeSummary('probe-limits', data as never);
}

/** probe-reset: exhausts every selected bucket, then finds when each refills versus its advertised reset. */
import { runnerPlan } from './common';
import { runProbe, probeSummary, type ProbeResult } from './probe';

export const options = { vus: 1, iterations: 1, setupTimeout: __ENV.SETUP_TIMEOUT ?? '10m' };

export function setup(): ProbeResult {
  return runProbe(runnerPlan(), true);
}

export default function (): void {
  // The probe runs once, in setup, so its result reaches handleSummary as setup_data.
}

export function handleSummary(data: Record<string, unknown>): Record<string, string> {
  return probeSummary('probe-reset', data as never);
}

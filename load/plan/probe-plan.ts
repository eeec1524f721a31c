/**
 * What a probe-reset run will spend, known from the plan alone (no k6 imports): each operation's caps, and the
 * notice for the operations whose calls create, modify or cancel a resource. The k6 script runs with them, and
 * `npm run load` says the notice before k6 starts.
 */
import type { FingerprintOptions } from '../lib/fingerprint';
import { limitProbeRequests } from '../lib/limit-analysis';
import { allOperations } from '../../catalogue/operations';
import type { Plan, PlannedOperation } from './run-plan';

/** Longest wait of a run for a bucket to reopen, ms: `--probe-wait-ms`, else 3 windows (at least 5 s). */
export function longestWaitMs(p: Pick<Plan, 'probeWaitMs' | 'windowMs'>): number {
  return p.probeWaitMs ?? Math.max(3 * p.windowMs, 5000);
}

/** Caps of one operation's fingerprint: its share of the run budget, and times from the window. */
export function fingerprintConfig(p: Plan, op: PlannedOperation): FingerprintOptions {
  return {
    burstCap: op.catalogueLimit + 2,
    maxRequests: Math.max(4 * op.catalogueLimit + 20, Math.floor(p.budget / p.operations.length)),
    maxWaitMs: longestWaitMs(p),
    maxDurationMs: p.probeMaxMs ?? 25 * p.windowMs,
  };
}

/** The operations whose calls create, modify or cancel a resource (a search sent as POST changes nothing). */
function writeOperations(p: Plan): PlannedOperation[] {
  // The catalogue says which operations are reads.
  return p.operations.filter((op) => op.method !== 'GET' && !allOperations().find((o) => o.id === op.id)?.readOnly);
}

/**
 * A probe of a create, modify or cancel operation creates (modifies, cancels) a resource with every call that
 * passes: said before it starts, with its bound. probe-reset: two measurements at most, each within its request
 * cap, all within the run's budget, and what a quiet run takes (about five times its limit at a 60 s window; a
 * small limit pays a few fixed polls on top). probe-limits: its limit plus two (the advertised limit plus two when
 * the target advertises more), within the run's budget.
 */
export function writeNotices(p: Plan, script: 'probe-reset' | 'probe-limits' = 'probe-reset'): string[] {
  return writeOperations(p).map((op) => {
    if (script === 'probe-limits')
      return `probe-limits: ${op.id} (${op.method}) may create up to ${Math.min(limitProbeRequests(op.catalogueLimit), p.budget)} resources (its limit of ${op.catalogueLimit} plus two; a target advertising a higher limit: that limit plus two, at most the run's budget of ${p.budget}); --reads-only probes the read operations alone`;
    const most = Math.min(2 * fingerprintConfig(p, op).maxRequests, p.budget);
    return `probe-reset: ${op.id} (${op.method}) may create up to ${most} resources (its request caps; a quiet run: about ${5 * op.catalogueLimit}, five times its limit of ${op.catalogueLimit}, more for a small limit); --reads-only probes the read operations alone`;
  });
}

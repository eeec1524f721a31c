/**
 * What a probe-reset run will spend, known from the plan alone (no k6 imports): each operation's caps, and the
 * notice for the operations whose calls create, modify or cancel a resource. The k6 script runs with them, and
 * `npm run load` says the notice before k6 starts.
 */
import type { FingerprintOptions, RateLimitFingerprint, ReadsNamed } from '../lib/fingerprint';
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
    awaitReads: writesAfterReads(p) && isWrite(op),
    burstCap: op.catalogueLimit + 2,
    maxRequests: Math.max(4 * op.catalogueLimit + 20, Math.floor(p.budget / p.operations.length)),
    maxWaitMs: longestWaitMs(p),
    maxDurationMs: p.probeMaxMs ?? 25 * p.windowMs,
  };
}

/** Whether an operation's calls create, modify or cancel a resource (a search sent as POST changes nothing). */
export function isWrite(op: PlannedOperation): boolean {
  // The catalogue says which operations are reads.
  return op.method !== 'GET' && !allOperations().find((o) => o.id === op.id)?.readOnly;
}

/** A run of reads and writes: each write may be named like the reads, once they are done (`awaitReads`). */
export function writesAfterReads(p: Plan): boolean {
  return p.operations.some(isWrite) && p.operations.some((op) => !isWrite(op));
}

/** What every read operation was named, each without doubt or verdict; null when they disagree or one has no name. */
export function readsNamedOf(reads: { id: string; result: RateLimitFingerprint }[]): ReadsNamed | null {
  const named = reads.filter(({ result: r }) => r.verdict === null && r.uncertain === null && r.algorithm !== 'unknown');
  const first = named[0]?.result;
  if (!first || named.length !== reads.length || named.some(({ result: r }) => r.algorithm !== first.algorithm)) return null;
  const counted = named.every(({ result: r }) => r.refusedCallsCount === first.refusedCallsCount) ? first.refusedCallsCount : null;
  return { algorithm: first.algorithm, refusedCallsCount: counted, operations: reads.map((r) => r.id) };
}

/**
 * A probe of a create, modify or cancel operation creates (modifies, cancels) a resource with every call that
 * passes: said before it starts, with its bound. probe-reset: two measurements at most, each within its request
 * cap, all within the run's budget, and what a run takes once (about three times its limit: the exhaustion, a volley
 * or a split, and the refill watch; a small limit pays a few fixed polls on top). Probed beside read operations that
 * all named a token bucket, a write whose refill agrees takes the exhaustion and the refill watch alone. probe-limits: its limit plus two (the advertised limit plus two when
 * the target advertises more), within the run's budget.
 */
export function writeNotices(p: Plan, script: 'probe-reset' | 'probe-limits' = 'probe-reset'): string[] {
  return p.operations.filter(isWrite).map((op) => {
    if (script === 'probe-limits')
      return `probe-limits: ${op.id} (${op.method}) may create up to ${Math.min(limitProbeRequests(op.catalogueLimit), p.budget)} resources (its limit of ${op.catalogueLimit} plus two; a target advertising a higher limit: that limit plus two, at most the run's budget of ${p.budget}); --reads-only probes the read operations alone`;
    const most = Math.min(2 * fingerprintConfig(p, op).maxRequests, p.budget);
    const reads = writesAfterReads(p)
      ? `, about ${Math.round(1.5 * op.catalogueLimit)} when the read operations probed beside it all name a token bucket`
      : '';
    return `probe-reset: ${op.id} (${op.method}) may create up to ${most} resources (its request caps; one measurement: about ${3 * op.catalogueLimit}, three times its limit of ${op.catalogueLimit}${reads}, more for a small limit); --reads-only probes the read operations alone`;
  });
}

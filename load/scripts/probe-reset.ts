/**
 * probe-reset: identifies every selected operation's limiter (fixed window, sliding window, token
 * bucket) with the fingerprint experiments, and measures its burst, sustained rate, window and a
 * pacing that never draws a 429. An operation without a result, or with an uncertain one (readings
 * that disagreed twice: a cautious pacing, no faster than the lowest rate observed), fails the
 * `probe_unresolved` threshold, so k6 exits non-zero.
 */
import { Counter } from 'k6/metrics';
import { allOperations } from '../../catalogue/operations';
import { runnerPlan, type Plan } from './common';
import {
  fingerprintConfig,
  manifestOf,
  probeSummary,
  runFingerprint,
  unresolved,
  type FingerprintManifestEntry,
  type ProbeResult,
} from './probe';

const probeUnresolved = new Counter('probe_unresolved');
/** k6's console (its types leave it out). */
declare const console: { log(message: string): void };

export const options = {
  vus: 1,
  iterations: 1,
  // A burst volley sends a bucket's worth of calls to one operation at once (k6's default is 6 per host).
  batchPerHost: 64,
  setupTimeout: __ENV.SETUP_TIMEOUT ?? '30m',
  thresholds: { probe_unresolved: ['count==0'] },
};

/**
 * A probe of a create, modify or cancel operation creates (modifies, cancels) a resource with every call that
 * passes: said before it starts, with its bound (two measurements at most, each within its request cap, all within
 * the run's budget) and what a quiet run takes (about five times its limit at a 60 s window; a small limit pays a
 * few fixed polls on top).
 */
export function writeNotices(p: Plan): string[] {
  return (
    p.operations
      // A search sent as POST changes nothing: the catalogue says which operations are reads.
      .filter((op) => op.method !== 'GET' && !allOperations().find((o) => o.id === op.id)?.readOnly)
      .map((op) => {
        const most = Math.min(2 * fingerprintConfig(p, op).maxRequests, p.budget);
        return `probe-reset: ${op.id} (${op.method}) may create up to ${most} resources (its request caps; a quiet run: about ${5 * op.catalogueLimit}, five times its limit of ${op.catalogueLimit}, more for a small limit); --reads-only probes the read operations alone`;
      })
  );
}

export function setup(): ProbeResult {
  const plan = runnerPlan();
  for (const line of writeNotices(plan)) console.log(line);
  const r = runFingerprint(plan);
  const entries = manifestOf(r);
  probeUnresolved.add(unresolved(entries).length + uncertain(entries).length);
  return r;
}

/** Operations whose readings disagreed twice (unresolved ones aside). */
function uncertain(entries: FingerprintManifestEntry[]): FingerprintManifestEntry[] {
  const none = new Set(unresolved(entries));
  return entries.filter((e) => !none.has(e) && (e.uncertain?.length ?? 0) > 0);
}

export default function (): void {
  // The probe runs once, in setup, so its result reaches handleSummary as setup_data.
}

export function handleSummary(data: Record<string, unknown>): Record<string, string> {
  const out = probeSummary('probe-reset', data as never);
  const r = (data as { setup_data?: ProbeResult }).setup_data;
  const doubts = r ? uncertain(manifestOf(r)) : [];
  if (doubts.length && out.stdout !== undefined)
    out.stdout += `${doubts.map((e) => `  ${e.id}: UNCERTAIN (${(e.uncertain ?? []).join('; ')}); cautious pace ${e.pacing?.schedule ?? '-'}`).join('\n')}\n`;
  return out;
}

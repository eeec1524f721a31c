/**
 * probe-reset: identifies every selected operation's limiter (fixed window, sliding window, token
 * bucket) with the fingerprint experiments, and measures its burst, sustained rate, window and a
 * pacing that never draws a 429. An operation without a result, or with an uncertain one (readings
 * that disagreed twice: a cautious pacing, no faster than the lowest rate observed), fails the
 * `probe_unresolved` threshold, so k6 exits non-zero.
 */
import { Counter } from 'k6/metrics';
import { runnerPlan } from '../plan/run-plan';
import { writeNotices } from '../plan/probe-plan';
import {
  manifestOf,
  probeSummary,
  runFingerprint,
  unresolved,
  type FingerprintManifestEntry,
  type ProbeResult,
} from '../shared/bucket-probe';

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

export function setup(): ProbeResult {
  const plan = runnerPlan();
  // `npm run load` said it before k6 started; a runner started otherwise (k6-operator) says it here.
  if (!plan.writesAnnounced) for (const line of writeNotices(plan)) console.log(line);
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

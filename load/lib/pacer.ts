/**
 * A client that follows a recommended pacing, and the verdict of running it: how many 429s it
 * drew (goal 0) and the throughput it achieved against the measured sustained rate (goal >= 90 %).
 * Pure: the k6 verify-pacing script sends the calls.
 */
import type { Pacing, RateLimitFingerprint } from './fingerprint';

export type PacingPlan = Pick<RateLimitFingerprint, 'algorithm' | 'burst' | 'sustainedPerSecond' | 'windowMs'> & { pacing: Pacing };

/** Periods (windows, or full refills) a verification runs for. */
export const VERIFY_PERIODS = 3;

/** The time a full bucket takes to come back, ms: the window, or burst / rate. */
export function periodMs(plan: PacingPlan): number {
  if (plan.pacing.periodMs !== null) return plan.pacing.periodMs;
  return plan.windowMs ?? Math.ceil(((plan.burst ?? 1) / (plan.sustainedPerSecond as number)) * 1000);
}

/** How many calls a verification sends. */
export function callsToSend(plan: PacingPlan, periods = VERIFY_PERIODS): number {
  const p = plan.pacing;
  if (p.kind === 'burst-per-window') return periods * p.burst;
  const even = Math.ceil((periods * periodMs(plan)) / (p.intervalMs as number));
  return p.kind === 'even' ? even : p.burst + even;
}

/** Planned send time of call `k` (0-based), relative to the first call. */
export function plannedAt(p: Pacing, k: number): number {
  if (p.kind === 'burst-per-window') return Math.floor(k / p.burst) * (p.periodMs as number);
  if (p.kind === 'even') return k * (p.intervalMs as number);
  return k < p.burst ? 0 : (k - p.burst + 1) * (p.intervalMs as number);
}

export interface PacedCall {
  /** ms since the first call. */
  tMs: number;
  status: number;
}

export interface PacingVerdict {
  calls: number;
  refused: number;
  /** Calls per second achieved in the steady part (after the initial burst of a token bucket). */
  achievedPerSecond: number | null;
  /** achieved / measured sustained rate. */
  share: number | null;
  ok: boolean;
  summary: string;
}

export function verdictOf(plan: PacingPlan, calls: readonly PacedCall[]): PacingVerdict {
  const p = plan.pacing;
  const refused = calls.filter((c) => c.status === 429).length;
  const last = calls[calls.length - 1];
  let counted = calls.filter((c) => c.status !== 429).length;
  let spanMs: number | null = null;
  // Windows: up to the start of the burst that would follow the last one.
  if (last && p.kind === 'burst-per-window')
    spanMs = (calls[Math.floor((calls.length - 1) / p.burst) * p.burst] as PacedCall).tMs + (p.periodMs as number);
  else if (last && p.kind === 'even') spanMs = last.tMs + (p.intervalMs as number);
  else if (last && calls.length > p.burst) {
    // The burst emptied the bucket at 0: what came after is the refill rate.
    counted = calls.slice(p.burst).filter((c) => c.status !== 429).length;
    spanMs = last.tMs;
  }
  const achieved = spanMs && spanMs > 0 ? (counted / spanMs) * 1000 : null;
  const sustained = plan.sustainedPerSecond;
  const share = achieved !== null && sustained !== null && sustained > 0 ? achieved / sustained : null;
  const ok = calls.length > 0 && refused === 0 && share !== null && share >= 0.9;
  const pct = share === null ? 'n/a' : `${Math.round(share * 100)} %`;
  return {
    calls: calls.length,
    refused,
    achievedPerSecond: achieved === null ? null : Math.round(achieved * 1000) / 1000,
    share: share === null ? null : Math.round(share * 1000) / 1000,
    ok,
    summary: `${calls.length} calls, ${refused} refused, ${achieved === null ? 'n/a' : achieved.toFixed(2)}/s = ${pct} of the measured ${sustained ?? 'n/a'}/s`,
  };
}

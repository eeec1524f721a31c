/**
 * Decisions of the limit and reset probes: pure TypeScript, no k6 imports, unit-tested in Node.
 */
import { canonicalHeader } from '../../clients/header-names';

/** One response of a probe: when it arrived, its status (refusals as 429) and its rate-limit headers. */
export interface ProbeSample {
  /** Epoch ms when the response arrived. */
  tMs: number;
  status: number;
  limit: number | null;
  remaining: number | null;
  reset: number | null;
}

import { advertisedResetMs, detectResetUnit, intHeader, RESET_PRECISION_MS, type ResetUnit } from '../../catalogue/rules';
import { percentile } from '../../common/statistics';

// The reset-unit reading, integer headers (catalogue/rules.ts) and percentiles (common/statistics.ts) are shared with the mock and the suite.
export { advertisedResetMs, detectResetUnit, intHeader, percentile, type ResetUnit };

export interface LimitAnalysis {
  advertisedLimit: number | null;
  /** Calls allowed before the first 429 (the measured limit when the window was fresh). */
  observedLimit: number | null;
  /** The first response said Remaining = Limit - 1 (nothing spent before the probe). */
  freshWindow: boolean;
  /** Remaining fell by exactly 1 per allowed call. */
  remainingStep: boolean;
  /** Index of the first 429, or -1. */
  first429: number;
  requestsSpent: number;
  /**
   * Why no limit is concluded though a 429 came: the window rolled over (or the bucket refilled) before it
   * was spent, so the calls allowed span two windows; null otherwise.
   */
  inconclusive: string | null;
}

/**
 * The first sample before `upTo` that counts in a later window than the one before it: its advertised
 * reset (the one reset-unit rule) is more than a second later and its Remaining higher; -1 when none.
 */
function newWindowAt(samples: readonly ProbeSample[], upTo: number): number {
  for (let i = 1; i < upTo; i++) {
    const a = samples[i - 1] as ProbeSample;
    const b = samples[i] as ProbeSample;
    const resetA = advertisedResetMs(a.reset, a.tMs);
    const resetB = advertisedResetMs(b.reset, b.tMs);
    if (resetA === null || resetB === null || a.remaining === null || b.remaining === null) continue;
    if (resetB - resetA > RESET_PRECISION_MS && b.remaining > a.remaining) return i;
  }
  return -1;
}

/** Why `allowed` calls before the 429 at `upTo` measure no limit (they span two windows), or null. */
function spanOfTwoWindows(samples: readonly ProbeSample[], upTo: number, allowed: number): string | null {
  const at = newWindowAt(samples, upTo);
  if (at === -1) return null;
  return `the window rolled over at call ${at + 1} (Remaining ${samples[at - 1]?.remaining} then ${samples[at]?.remaining}), before the bucket was spent: the ${allowed} calls allowed span two windows`;
}

export function analyseLimit(samples: readonly ProbeSample[]): LimitAnalysis {
  const first429 = samples.findIndex((s) => s.status === 429);
  const allowed = first429 === -1 ? samples.filter((s) => s.status < 400).length : first429;
  const first = samples[0];
  const advertisedLimit = first?.limit ?? null;
  let remainingStep = true;
  const upTo = first429 === -1 ? samples.length : first429;
  for (let i = 1; i < upTo; i++) {
    const a = samples[i - 1]?.remaining;
    const b = samples[i]?.remaining;
    if (a === null || a === undefined || b === null || b === undefined || a - b !== 1) remainingStep = false;
  }
  const inconclusive = first429 === -1 ? null : spanOfTwoWindows(samples, upTo, allowed);
  return {
    advertisedLimit,
    observedLimit: first429 === -1 || inconclusive ? null : allowed,
    freshWindow: !!first && first.limit !== null && first.remaining === first.limit - 1,
    remainingStep: upTo > 0 && remainingStep,
    first429,
    requestsSpent: samples.length,
    inconclusive,
  };
}

/**
 * Why a limit probe measured no limit, from its samples: the window rolled over during the exhaustion (Remaining
 * rose), with the call and the time it took to get there; else none of its calls was refused. Null when measured.
 */
export function unmeasuredReason(samples: readonly ProbeSample[], windowMs: number): string | null {
  if (analyseLimit(samples).observedLimit !== null) return null;
  const first = samples[0];
  for (let i = 1; i < samples.length; i++) {
    const a = samples[i - 1]?.remaining;
    const b = samples[i]?.remaining;
    if (a !== null && a !== undefined && b !== null && b !== undefined && b > a && first)
      return `the window rolled over during the exhaustion: Remaining rose from ${a} to ${b} at call ${i + 1}, ${Math.round((samples[i]?.tMs ?? 0) - first.tMs)} ms after the first, within a window of ${windowMs} ms; probe fewer operations at once (--ops) or a longer window`;
  }
  return `none of its ${samples.length} calls was refused (the target advertised no lower limit, or does not refuse)`;
}

/** Most requests a limit probe may send to one operation of a given limit: the limit plus two (one 429, one margin). */
export function limitProbeRequests(limit: number): number {
  return limit + 2;
}

/** Most requests a limit probe may send to one operation: by its advertised limit, else by the fallback (a cap). */
export function probeCap(advertisedLimit: number | null, fallback: number): number {
  return advertisedLimit === null ? fallback : limitProbeRequests(advertisedLimit);
}

export { canonicalHeader };

/** Reads a header whatever its case (k6 canonicalises, other runtimes may not). */
export function header(headers: Record<string, string>, name: string): string | undefined {
  const c = canonicalHeader(name);
  if (headers[c] !== undefined) return headers[c];
  const lower = name.toLowerCase();
  for (const k of Object.keys(headers)) if (k.toLowerCase() === lower) return headers[k];
  return undefined;
}

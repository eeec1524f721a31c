/**
 * The capacity run's plan, by construction under every limit: each operation's arrival rate is an exact share of
 * its limit per window (k6's `rate` per `timeUnit`); the calls the run makes before its scenarios (one token
 * request per family, in setup) spend the token endpoint's bucket, never an operation's. Pure TypeScript: the k6 script builds
 * its scenarios from it, and `npm run load` prints it and its warnings before k6 starts.
 */
import { arrivalRate, formatRate, peakPerWindow, type ExactRate } from './load-shapes';

export interface CapacityInput {
  id: string;
  family: string;
  /** Calls per window the operation's bucket allows. */
  limit: number;
}

export interface PlannedRate extends ExactRate {
  id: string;
  limit: number;
  durationMs: number;
  /** The most calls that fall within one window of the operation's bucket. */
  peakPerWindow: number;
}

export interface CapacityPlan {
  operations: PlannedRate[];
  /** Token requests in setup, per family (one app each): on the token endpoint's bucket, never an operation's. */
  tokenCalls: Record<string, number>;
  /** One line per bucket the plan would overrun, said before the run starts. */
  warnings: string[];
}

/** The plan for `fraction` of each limit per `windowMs`, for `durationMs`. */
export function capacityPlan(ops: readonly CapacityInput[], o: { windowMs: number; fraction: number; durationMs: number }): CapacityPlan {
  const tokenCalls: Record<string, number> = {};
  for (const op of ops) tokenCalls[op.family] = 1;
  const warnings: string[] = [];
  const operations = ops.map((op): PlannedRate => {
    const r = arrivalRate(op.limit, o.windowMs, o.fraction);
    const planned: PlannedRate = {
      id: op.id,
      limit: op.limit,
      durationMs: o.durationMs,
      ...r,
      peakPerWindow: peakPerWindow(r, o.windowMs, o.durationMs),
    };
    // Nothing else spends the bucket: setup's token calls go to the token endpoint's own.
    if (planned.peakPerWindow > op.limit)
      warnings.push(
        `${op.id}: ${formatRate(r.perSecond)} (${r.rate} every ${r.timeUnitMs} ms) puts up to ${planned.peakPerWindow} calls in one window of ${o.windowMs} ms, over its limit of ${op.limit}: expect 429s (lower --fraction below ${((op.limit - 1) / op.limit).toFixed(3)})`,
      );
    return planned;
  });
  return { operations, tokenCalls, warnings };
}

import type { K6ArrivalRate, Pacing, RateLimitFingerprint } from './types';

/** k6's arrival rate for `rate` calls every `unitMs`. */
const k6 = (rate: number, unitMs: number): K6ArrivalRate => ({
  executor: 'constant-arrival-rate',
  rate,
  timeUnit: `${unitMs}ms`,
  preAllocatedVUs: 2,
});

/** One call every `interval` ms, no burst; `why` ends the schedule's words. */
function evenPacing(interval: number, share: number, why: string): Pacing {
  return {
    schedule: `1 call every ${interval} ms, no burst (${why})`,
    kind: 'even',
    burst: 1,
    intervalMs: interval,
    periodMs: null,
    share,
    bottleneck: { reservoir: null, reservoirRefreshAmount: null, reservoirRefreshInterval: null, minTime: interval, maxConcurrent: 1 },
    k6: k6(1, interval),
  };
}

/**
 * The fastest schedule that never draws a 429, from a fingerprint. Null when it is not known.
 * `floorPerSecond`: the lowest rate the measurement allows (a continuous refill counted between empty buckets is
 * known to ±1 call); the calls after a burst go no faster than it, nor than `share` of the rate.
 */
export function pacingFor(
  fp: Pick<RateLimitFingerprint, 'algorithm' | 'burst' | 'sustainedPerSecond' | 'windowMs'>,
  share = 0.95,
  floorPerSecond: number | null = null,
): Pacing | null {
  const burst = fp.burst;
  // NaN and absent values never make a pacing.
  if (burst === null || !(burst >= 1) || fp.sustainedPerSecond === null || !(fp.sustainedPerSecond > 0)) return null;
  if (fp.algorithm === 'fixed-window' && fp.windowMs !== null) {
    const period = Math.ceil(fp.windowMs / share);
    return {
      schedule: `burst ${burst} then wait until Reset (one burst every ${period} ms)`,
      kind: 'burst-per-window',
      burst,
      intervalMs: null,
      periodMs: period,
      share,
      bottleneck: { reservoir: burst, reservoirRefreshAmount: burst, reservoirRefreshInterval: period, minTime: 0, maxConcurrent: 1 },
      k6: k6(burst, period),
    };
  }
  const perSecond = Math.min(fp.sustainedPerSecond * share, floorPerSecond !== null && floorPerSecond > 0 ? floorPerSecond : Infinity);
  const interval = Math.ceil(1000 / perSecond);
  // The share of the measured rate the schedule keeps (below `share` where the floor is slower).
  const kept = perSecond < fp.sustainedPerSecond * share ? Math.round((perSecond / fp.sustainedPerSecond) * 1000) / 1000 : share;
  if (fp.algorithm === 'sliding-window') return evenPacing(interval, kept, 'a burst is refused until it leaves the sliding window');
  if (fp.algorithm === 'token-bucket') {
    return {
      schedule: `burst ${burst} then 1 call every ${interval} ms`,
      kind: 'burst-then-even',
      burst,
      intervalMs: interval,
      periodMs: null,
      share: kept,
      bottleneck: {
        reservoir: burst,
        reservoirRefreshAmount: null,
        reservoirRefreshInterval: null,
        reservoirIncreaseAmount: 1,
        reservoirIncreaseInterval: interval,
        reservoirIncreaseMaximum: burst,
        minTime: 0,
        maxConcurrent: 1,
      },
      k6: k6(1, interval),
    };
  }
  return null;
}

/**
 * A pacing for an uncertain result: one call at a time, evenly, no faster than `perSecond` (the lowest rate
 * observed), whatever the algorithm. It gives up the burst a window or a bucket would allow.
 */
export function cautiousPacing(perSecond: number | null, share = 0.95): Pacing | null {
  if (perSecond === null || !(perSecond > 0)) return null;
  return evenPacing(Math.ceil(1000 / perSecond / share), share, 'uncertain: no faster than the lowest rate observed');
}

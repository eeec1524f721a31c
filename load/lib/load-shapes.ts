/**
 * Load shapes as data. `fraction` is of the operation's measured (or advertised) limit per window,
 * so capacity runs stay under the limit: a 429 there is unexpected.
 */
export interface LoadShape {
  /** Share of the limit per window used as the arrival rate. */
  fraction: number;
  /** Duration of the run, k6 syntax. */
  duration: string;
  /** p95 latency threshold in ms. */
  p95Ms: number;
  /** Largest accepted failure rate. */
  maxFailureRate: number;
}

export const SHAPES: Readonly<Record<'smoke' | 'average' | 'stress', LoadShape>> = {
  smoke: { fraction: 0.1, duration: '10s', p95Ms: 800, maxFailureRate: 0.01 },
  average: { fraction: 0.5, duration: '1m', p95Ms: 800, maxFailureRate: 0.01 },
  stress: { fraction: 0.9, duration: '2m', p95Ms: 1500, maxFailureRate: 0.02 },
};

/**
 * An arrival rate as k6 takes it: `rate` iterations per `timeUnit`, both integers, so a share of a limit is exact
 * (30 per minute is 1 every 2000 ms, never a second's rounded 1).
 */
export interface ExactRate {
  /** Iterations per time unit (k6's `rate`). */
  rate: number;
  /** k6's `timeUnit`, in ms. */
  timeUnitMs: number;
  /** The same rate per second (for reports). */
  perSecond: number;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** A decimal as a fraction of integers: 0.5 → [1, 2], 0.125 → [1, 8]. */
function ratio(x: number): [number, number] {
  const digits = Math.min(9, (String(x).split('.')[1] ?? '').length);
  const den = 10 ** digits;
  const num = Math.round(x * den);
  const g = gcd(num, den);
  return [num / g, den / g];
}

/** `fraction` of `limit` calls per `windowMs`, exactly, as k6's rate and timeUnit. */
export function arrivalRate(limit: number, windowMs: number, fraction: number): ExactRate {
  if (!(limit > 0) || !(windowMs > 0) || !(fraction > 0))
    throw new Error(`an arrival rate needs a limit, a window and a fraction above 0; received ${limit} per ${windowMs} ms at ${fraction}`);
  const [p, q] = ratio(fraction);
  const num = Math.round(limit) * p;
  const den = Math.round(windowMs) * q;
  const perSecond = (num * 1000) / den;
  // A whole number per second reads as one (250 per 1 s, not 1 per 4 ms); otherwise the smallest exact pair.
  if (Number.isInteger(perSecond)) return { rate: perSecond, timeUnitMs: 1000, perSecond };
  const g = gcd(num, den);
  return { rate: num / g, timeUnitMs: den / g, perSecond };
}

/** Iterations a constant arrival rate starts in `durationMs`: at 0, one interval, …, up to the end itself. */
export function iterationsIn(r: ExactRate, durationMs: number): number {
  return Math.floor((durationMs * r.rate) / r.timeUnitMs) + 1;
}

/**
 * The most calls a constant arrival rate sends within any window of `windowMs` over a run of `durationMs`: the
 * schedule's first and last call can both fall in one window (calls at 0 and at exactly one window later).
 */
export function peakPerWindow(r: ExactRate, windowMs: number, durationMs: number): number {
  return iterationsIn(r, Math.min(windowMs, durationMs));
}

/** A rate for people: `0.50/s`, `1.25/s`, `250/s`. */
export function formatRate(perSecond: number): string {
  return `${perSecond >= 100 ? perSecond.toFixed(0) : perSecond.toFixed(2)}/s`;
}

/**
 * Load shapes as data. `fraction` is of the operation's measured (or advertised) limit per window,
 * so capacity runs stay under the limit: a 429 there is unexpected.
 */
export interface Shape {
  /** Share of the limit per window used as the arrival rate. */
  fraction: number;
  /** Duration of the run, k6 syntax. */
  duration: string;
  /** p95 latency threshold in ms. */
  p95Ms: number;
  /** Largest accepted failure rate. */
  maxFailureRate: number;
}

export const SHAPES: Readonly<Record<'smoke' | 'average' | 'stress', Shape>> = {
  smoke: { fraction: 0.1, duration: '10s', p95Ms: 800, maxFailureRate: 0.01 },
  average: { fraction: 0.5, duration: '1m', p95Ms: 800, maxFailureRate: 0.01 },
  stress: { fraction: 0.9, duration: '2m', p95Ms: 1500, maxFailureRate: 0.02 },
};

/** Requests per second for a limit per window and a fraction of it. */
export function arrivalRate(limit: number, windowMs: number, fraction: number): number {
  return Math.max(1, Math.floor(((limit * fraction) / windowMs) * 1000));
}

/**
 * Order statistics of measured values (latencies, ratios, intervals), for the probes, the report, the
 * benchmark and the k6 test double. Two percentile rules, each under its own name: the nearest rank (always
 * a value that was measured) and k6's, interpolated between the two nearest ranks (what a k6 trend reports as
 * `p(N)` and `med`). Pure: no node:*, no k6/*, so k6 bundles import it as it is.
 */

const ascending = (values: readonly number[]): number[] => [...values].sort((a, b) => a - b);

/** Nearest-rank percentile (0–100) of values in any order; null for no values. */
export function percentile(values: readonly number[], p: number): number | null {
  if (!values.length) return null;
  const sorted = ascending(values);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

/** k6's trend percentile (0–100) of values in any order: linear interpolation between the two nearest ranks; null for no values. */
export function interpolatedPercentile(values: readonly number[], p: number): number | null {
  if (!values.length) return null;
  const sorted = ascending(values);
  const k = (p / 100) * (sorted.length - 1);
  const below = sorted[Math.floor(k)] as number;
  const above = sorted[Math.ceil(k)] as number;
  return below + (above - below) * (k - Math.floor(k));
}

/** The median: the middle value, or the mean of the two middle values; null for no values. */
export const median = (values: readonly number[]): number | null => interpolatedPercentile(values, 50);

/** A figure measured in several rounds, and its printing. */
import { median } from '../common/statistics';

/** A figure measured in several rounds: median and range, with every value. */
export interface Spread {
  median: number;
  min: number;
  max: number;
  values: number[];
}

export function spread(values: number[]): Spread {
  if (!values.length || values.some((v) => !Number.isFinite(v)))
    throw new Error(`bench: a figure has no finite values: [${values.join(', ')}]`);
  return { median: median(values) as number, min: Math.min(...values), max: Math.max(...values), values };
}

export const fmt = (s: Spread, digits = 2) =>
  `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)}, ${s.values.length} rounds)`;

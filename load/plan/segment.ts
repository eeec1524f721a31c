/**
 * Distributed runs: which operations belong to this runner. k6-operator (and `k6 run
 * --execution-segment`) gives every runner a segment `from:to` of [0, 1]; operation i of n belongs to
 * the runner whose segment holds i/n, so N runners that tile [0, 1] probe every operation exactly once.
 * Pure TypeScript (no k6 imports): compared with exact fractions, never floats.
 */

/** [numerator, denominator] */
type Rat = [number, number];

function rat(s: string): Rat {
  const t = s.trim();
  if (t.endsWith('%')) return [Number(t.slice(0, -1)), 100];
  if (t.includes('/')) {
    const [a, b] = t.split('/');
    return [Number(a), Number(b)];
  }
  const dot = t.indexOf('.');
  const den = dot < 0 ? 1 : Math.pow(10, t.length - dot - 1);
  return [Math.round(Number(t) * den), den];
}

export interface SegmentShare {
  /** The segment as given, e.g. `1/3:2/3`. */
  text: string;
  from: Rat;
  to: Rat;
}

/** Parses k6's segment syntax: `from:to`, or `to` alone (from 0); fractions, decimals or percentages. */
export function parseSegment(text: string): SegmentShare {
  const [a, b] = text.includes(':') ? text.split(':') : ['0', text];
  const from = rat(a as string);
  const to = rat(b as string);
  const ok = [...from, ...to].every((x) => Number.isInteger(x)) && from[1] > 0 && to[1] > 0;
  // 0 <= from < to <= 1, cross-multiplied.
  if (!ok || from[0] < 0 || from[0] * to[1] >= to[0] * from[1] || to[0] > to[1])
    throw new Error(`invalid execution segment "${text}": expected from:to with 0 <= from < to <= 1, e.g. 0:1/3`);
  return { text, from, to };
}

/** Whether index i of n lies in [from, to). */
export function inSegment(i: number, n: number, s: SegmentShare): boolean {
  const [fn, fd] = s.from;
  const [tn, td] = s.to;
  return i * fd >= fn * n && i * td < tn * n;
}

/** The items of this runner's segment (all of them without a segment). */
export function shareOf<T>(items: readonly T[], segment: string | null | undefined): T[] {
  if (!segment) return [...items];
  const s = parseSegment(segment);
  return items.filter((_, i) => inSegment(i, items.length, s));
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** A value as k6 spells it (Go's big.Rat RatString): reduced, `0` and `1` bare. */
function ratString([n, d]: Rat): string {
  const g = gcd(n, d);
  return d / g === 1 ? String(n / g) : `${n / g}/${d / g}`;
}

/**
 * The segment as k6 reports it in `exec.test.options.executionSegment`: `from:to` reduced (`2/4:3/4` is
 * `1/2:3/4`, `0:25%` is `0:1/4`). The runner's folder is named from it, so the process that makes the folder and
 * the k6 script that writes into it agree however the segment was spelled on the command line.
 */
export function canonicalSegment(text: string): string {
  const s = parseSegment(text);
  return `${ratString(s.from)}:${ratString(s.to)}`;
}

/** A folder name for the segment's output, from its k6 spelling: `1/3:2/3` → `segment-1_3-2_3`, `2/4:1` → `segment-1_2-1`. */
export function segmentDirName(segment: string): string {
  return `segment-${canonicalSegment(segment).replace(/\//g, '_').replace(/:/g, '-')}`;
}

/**
 * Scenario schedules of the k6 double: when each iteration of each scenario starts. Arrival-rate
 * executors (constant and ramping) start iterations at the rate, as k6 does; iteration executors run
 * their iterations back to back. Execution segments scale the work as k6 scales it.
 */
import { parseDuration } from '../../../common/k6-duration';

export interface ScenarioConfig {
  executor: string;
  exec?: string;
  env?: Record<string, string>;
  tags?: Record<string, string>;
  startTime?: string;
  // arrival-rate
  rate?: number;
  startRate?: number;
  timeUnit?: string;
  duration?: string;
  stages?: { duration: string; target: number }[];
  preAllocatedVUs?: number;
  maxVUs?: number;
  // iterations
  vus?: number;
  iterations?: number;
  maxDuration?: string;
}

export interface Schedule {
  name: string;
  config: ScenarioConfig;
  /** Iteration start offsets in ms from the test start (arrival-rate), or null: run back to back. */
  startsMs: number[] | null;
  /** Iterations to run back to back when startsMs is null. */
  iterations: number;
  /** Most iterations that may be late at once before one is dropped (k6's maxVUs). */
  maxVUs: number;
}

/** Most iterations a run of the double may schedule: it is a test double, not a load engine. */
export const MAX_ITERATIONS = 100_000;

/** A scenario's duration option: k6 syntax (common/k6-duration.ts), a number of ms as k6 reads one from JSON, or the fallback when absent. */
export function parseDurationOption(d: string | number | undefined, fallbackMs = 0): number {
  if (d === undefined) return fallbackMs;
  return typeof d === 'number' ? d : parseDuration(d);
}

/** A k6 execution segment `from:to` of fractions (`0:1/3`, `1/3:2/3`, `50%:100%`, `0.5`). */
export interface Segment {
  from: number;
  to: number;
  /** As k6 reports it: `from:to`, reduced. */
  text: string;
}

function fraction(s: string): number {
  if (s.endsWith('%')) return Number(s.slice(0, -1)) / 100;
  const [a, b] = s.split('/');
  const v = b === undefined ? Number(a) : Number(a) / Number(b);
  if (!Number.isFinite(v)) throw new Error(`invalid execution segment value "${s}": expected a fraction, decimal or percentage`);
  return v;
}

/** Greatest common divisor of two non-negative integers. */
const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * A segment value as k6 gives it back in exec.test.options (Go's big.Rat RatString): a reduced fraction, `0` and
 * `1` bare; `25%` is `1/4`, `0.5` is `1/2`, `2/4` is `1/2`.
 */
function asK6Spells(v: string): string {
  const t = v.trim();
  const decimals = t.includes('.') ? t.length - t.indexOf('.') - 1 : 0;
  const [num, den] = t.endsWith('%')
    ? [Number(t.slice(0, -1)), 100]
    : t.includes('/')
      ? t.split('/').map(Number)
      : [Math.round(Number(t) * 10 ** decimals), 10 ** decimals];
  const g = gcd(num as number, den as number);
  return (den as number) / g === 1 ? String((num as number) / g) : `${(num as number) / g}/${(den as number) / g}`;
}

/** An --execution-segment-sequence as k6 gives it back: each value reduced (`0,1/4,2/4,3/4,1` → `0,1/4,1/2,3/4,1`). */
export function k6SegmentSequence(text: string | undefined): string | null {
  return text ? text.split(',').map(asK6Spells).join(',') : null;
}

/** The double's --execution-segment (`from:to`, or `to` alone from 0) as decimal bounds; undefined without one. */
export function executionSegmentOf(text: string | undefined): Segment | undefined {
  if (!text) return undefined;
  const [a, b] = text.includes(':') ? text.split(':') : ['0', text];
  const from = fraction(a as string);
  const to = fraction(b as string);
  if (!(from >= 0 && from < to && to <= 1))
    throw new Error(`invalid execution segment "${text}": expected 0 <= from < to <= 1, e.g. 0:1/3`);
  return { from, to, text: `${asK6Spells(a as string)}:${asK6Spells(b as string)}` };
}

/** k6's ExecutionSegment.Scale: this segment's share of an indivisible count. */
export function scaleCount(value: number, seg: Segment | undefined): number {
  if (!seg) return value;
  const roundHalfUp = (x: number) => Math.floor(x + 0.5 + 1e-9);
  return roundHalfUp(value * seg.to - roundHalfUp(value * seg.from));
}

function arrivalStarts(c: ScenarioConfig, seg: Segment | undefined, offsetMs: number): number[] {
  const unitMs = parseDurationOption(c.timeUnit ?? '1s');
  const share = seg ? seg.to - seg.from : 1;
  // Piecewise-linear rate in iterations per ms: [startMs, durationMs, r0, r1].
  const pieces: [number, number, number, number][] = [];
  if (c.executor === 'constant-arrival-rate') {
    const r = ((c.rate ?? 1) * share) / unitMs;
    pieces.push([0, parseDurationOption(c.duration), r, r]);
  } else {
    let at = 0;
    let r0 = ((c.startRate ?? 0) * share) / unitMs;
    for (const st of c.stages ?? []) {
      const d = parseDurationOption(st.duration);
      const r1 = (st.target * share) / unitMs;
      pieces.push([at, d, r0, r1]);
      at += d;
      r0 = r1;
    }
  }
  const starts: number[] = [];
  let done = 0; // iterations whose start lies in earlier pieces (fractional)
  for (const [at, d, r0, r1] of pieces) {
    const area = ((r0 + r1) / 2) * d;
    // Iteration k starts where the cumulative arrivals reach k.
    for (let k = Math.ceil(done - 1e-9); k < done + area - 1e-9; k++) {
      if (starts.length >= MAX_ITERATIONS) throw new Error(`the k6 double schedules at most ${MAX_ITERATIONS} iterations per run`);
      const need = k - done;
      const slope = (r1 - r0) / (d || 1);
      const t = Math.abs(slope) < 1e-15 ? need / r0 : (-r0 + Math.sqrt(r0 * r0 + 2 * slope * need)) / slope;
      starts.push(offsetMs + at + t);
    }
    done += area;
  }
  return starts;
}

export function scheduleOf(name: string, c: ScenarioConfig, seg: Segment | undefined): Schedule {
  const offsetMs = parseDurationOption(c.startTime, 0);
  if (c.executor === 'constant-arrival-rate' || c.executor === 'ramping-arrival-rate') {
    return {
      name,
      config: c,
      startsMs: arrivalStarts(c, seg, offsetMs),
      iterations: 0,
      maxVUs: Math.max(1, c.maxVUs ?? c.preAllocatedVUs ?? 1),
    };
  }
  if (c.executor === 'shared-iterations' || c.executor === 'per-vu-iterations') {
    const perVu = c.executor === 'per-vu-iterations';
    const total = (c.iterations ?? 1) * (perVu ? (c.vus ?? 1) : 1);
    return { name, config: c, startsMs: null, iterations: scaleCount(total, seg), maxVUs: 1 };
  }
  throw new Error(
    `scenario "${name}": the k6 double runs constant-arrival-rate, ramping-arrival-rate, shared-iterations and per-vu-iterations, not "${c.executor}" (use k6)`,
  );
}

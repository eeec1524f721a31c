/**
 * Two capacity runs compared per operation: the change of the median and of p95 latency, of the error
 * rate and of the 429 rate, each with a 95 % interval from a seeded moving-block bootstrap (contiguous
 * blocks of each run's requests in time order, about √n long, so a stretch the busy machine slowed stays
 * together and widens the interval instead of passing for many independent slow requests).
 *
 * A change counts only beyond a margin: for latency the larger of a share of the baseline's value and
 * a number of milliseconds (two runs of one build on a shared machine differ by more than their
 * sampling noise), for the rates a number of percentage points. Per statistic:
 *   slower / faster       the whole interval lies beyond +margin / -margin
 *   no change detected    the whole interval lies within ±margin
 *   not enough data       the interval straddles a margin, or a run has too few requests for the statistic;
 *                         neededRequests estimates the requests per run that would decide (the interval
 *                         narrows as 1/√n)
 * The gate fails only on an operation whose median or p95 is slower, or whose error or 429 rate rose.
 */
import { quantile } from 'simple-statistics';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import type { RequestSample, RunSamples } from './capacity-samples';

/** A latency change counts beyond both `relative` × the baseline's value and `absoluteMs`. */
interface LatencyMargin {
  /** Share of the baseline's value, e.g. 0.2 for 20 %. */
  relative: number;
  /** Milliseconds. */
  absoluteMs: number;
}

/** When a change counts: per latency statistic, and for the error and 429 rates. */
export interface PerfThreshold {
  median: LatencyMargin;
  p95: LatencyMargin;
  /** Error and 429 rates: a change in share of requests, e.g. 0.01 for one percentage point. */
  ratePoints: number;
}

/** The default margin: 20 % and 5 ms (both exceeded), one percentage point of errors or 429s. */
/**
 * The default margins: the median 20 % and 5 ms, p95 50 % and 20 ms (both exceeded), one percentage point of errors
 * or 429s. p95's is wider: on a shared machine it follows the other jobs (5 ms in one run, 35 ms in the next, of one
 * build on a busy 2-core host, while the median moved by under 1 ms).
 */
export const DEFAULT_PERF_THRESHOLD_SPEC = '20%,5ms,p95:50%,p95:20ms,1pt';
/** The bootstrap's seed: the same runs compare to the same figures. */
const DEFAULT_PERF_SEED = 1;
/** Bootstrap resamples per operation. */
const DEFAULT_RESAMPLES = 1000;
/** The intervals' confidence. */
const CONFIDENCE = 0.95;
/**
 * The timing resolution of a latency change, added to both ends of its interval. A process that waited for a slow
 * answer is woken later than one that never slept, by a scheduling delay that grows with the machine's load (0.2 to
 * 0.6 ms measured on a busy 2-core host): a mock made 20 ms slower measured 20.2 to 20.6 ms slower. The bootstrap
 * sees only the sampling noise within each run; this is the part of the run-to-run difference it cannot see.
 */
const TIMING_RESOLUTION_MS = 1;
/** Requests per run below which a statistic is not judged: ten beyond the quantile (20 for the median, 200 for p95). */
const MIN_TAIL = 10;

type StatVerdict = 'slower' | 'faster' | 'no change detected' | 'not enough data';
type RateVerdict = 'more' | 'fewer' | 'no change detected' | 'not enough data';

export interface Change<V> {
  baseline: number;
  current: number;
  /** current - baseline (ms, or a share of requests for the rates). */
  change: number;
  /** The 95 % interval of the change. */
  interval: [number, number];
  /** The change counts beyond ±margin. */
  margin: number;
  verdict: V;
  /** Requests per run that would decide a "not enough data" (null: the change sits on the margin). */
  neededRequests?: number | null;
}

export interface OperationComparison {
  id: string;
  requests: { baseline: number; current: number };
  median: Change<StatVerdict>;
  p95: Change<StatVerdict>;
  errorRate: Change<RateVerdict>;
  rate429: Change<RateVerdict>;
  verdict: StatVerdict;
  /** Why the gate fails on this operation (empty: it does not). */
  regressions: string[];
}

export interface CompareOptions {
  threshold?: PerfThreshold;
  seed?: number;
  resamples?: number;
}

/** What one resample (or the run itself) gives. */
interface Figures {
  median: number;
  p95: number;
  errorRate: number;
  rate429: number;
}

const isError = (s: RequestSample) => !s.expected && s.status !== 429;

function figuresOf(samples: readonly RequestSample[]): Figures {
  const [m, p] = quantile(
    samples.map((s) => s.durationMs),
    [0.5, 0.95],
  ) as [number, number];
  const n = samples.length;
  return {
    median: m,
    p95: p,
    errorRate: samples.filter(isError).length / n,
    rate429: samples.filter((s) => s.status === 429).length / n,
  };
}

type Rng = ReturnType<typeof xoroshiro128plus>;

/** A moving-block resample of a run: blocks of `block` consecutive requests from random starts, n requests in all. */
function blockResample(samples: readonly RequestSample[], block: number, rng: Rng): RequestSample[] {
  const n = samples.length;
  const out: RequestSample[] = [];
  while (out.length < n) {
    const start = uniformInt(rng, 0, n - block);
    for (let i = start; i < start + block && out.length < n; i++) out.push(samples[i] as RequestSample);
  }
  return out;
}

const blockLength = (n: number) => Math.max(1, Math.min(n, Math.round(Math.sqrt(n))));

/** The bootstrap distribution of each figure's change (current - baseline). */
function bootstrapChanges(a: readonly RequestSample[], b: readonly RequestSample[], resamples: number, rng: Rng) {
  const changes: Record<keyof Figures, number[]> = { median: [], p95: [], errorRate: [], rate429: [] };
  const [la, lb] = [blockLength(a.length), blockLength(b.length)];
  for (let i = 0; i < resamples; i++) {
    const fa = figuresOf(blockResample(a, la, rng));
    const fb = figuresOf(blockResample(b, lb, rng));
    for (const k of Object.keys(changes) as (keyof Figures)[]) changes[k].push(fb[k] - fa[k]);
  }
  return changes;
}

/** Requests per run for an interval of half-width `half` (at n) to clear a boundary `distance` away. */
function neededFor(n: number, half: number, distance: number): number | null {
  if (distance <= half / 100) return null;
  return Math.ceil(n * (half / distance) ** 2);
}

/** The verdict of one change against its margin; `minimum` requests per run to judge at all. */
function judge<V extends string>(
  c: Omit<Change<V>, 'verdict' | 'neededRequests'>,
  n: number,
  minimum: number,
  words: { up: V; down: V; none: V; unknown: V },
): Change<V> {
  const [lo, hi] = c.interval;
  if (n < minimum) return { ...c, verdict: words.unknown, neededRequests: minimum };
  if (lo > c.margin) return { ...c, verdict: words.up };
  if (hi < -c.margin) return { ...c, verdict: words.down };
  if (lo >= -c.margin && hi <= c.margin) return { ...c, verdict: words.none };
  const distance = Math.abs(Math.abs(c.change) - c.margin);
  return { ...c, verdict: words.unknown, neededRequests: Math.max(n + 1, neededFor(n, (hi - lo) / 2, distance) ?? Infinity) };
}

const STAT_WORDS = { up: 'slower', down: 'faster', none: 'no change detected', unknown: 'not enough data' } as const;
const RATE_WORDS = { up: 'more', down: 'fewer', none: 'no change detected', unknown: 'not enough data' } as const;

/** The bootstrap's percentile interval, widened by `resolution` at both ends. */
function interval(changes: number[], resolution = 0): [number, number] {
  const tail = (1 - CONFIDENCE) / 2;
  const [lo, hi] = quantile(changes, [tail, 1 - tail]) as [number, number];
  return [lo - resolution, hi + resolution];
}

/** The comparison of one operation's requests in two runs. */
export function compareOperation(
  id: string,
  a: readonly RequestSample[],
  b: readonly RequestSample[],
  o: CompareOptions = {},
): OperationComparison {
  const t = o.threshold ?? DEFAULT_PERF_THRESHOLD;
  const rng = xoroshiro128plus(o.seed ?? DEFAULT_PERF_SEED);
  const [fa, fb] = [figuresOf(a), figuresOf(b)];
  const boot = bootstrapChanges(a, b, o.resamples ?? DEFAULT_RESAMPLES, rng);
  const n = Math.min(a.length, b.length);
  const latency = (k: 'median' | 'p95', q: number) =>
    judge(
      {
        baseline: fa[k],
        current: fb[k],
        change: fb[k] - fa[k],
        interval: interval(boot[k], TIMING_RESOLUTION_MS),
        margin: Math.max(t[k].relative * fa[k], t[k].absoluteMs),
      },
      n,
      Math.ceil(MIN_TAIL / (1 - q)),
      STAT_WORDS,
    );
  const rate = (k: 'errorRate' | 'rate429') =>
    judge({ baseline: fa[k], current: fb[k], change: fb[k] - fa[k], interval: interval(boot[k]), margin: t.ratePoints }, n, 1, RATE_WORDS);
  const r: Omit<OperationComparison, 'verdict' | 'regressions'> = {
    id,
    requests: { baseline: a.length, current: b.length },
    median: latency('median', 0.5),
    p95: latency('p95', 0.95),
    errorRate: rate('errorRate'),
    rate429: rate('rate429'),
  };
  return { ...r, verdict: operationVerdict(r), regressions: regressionsOf(r) };
}

/** slower if a latency statistic is, else faster if one is, else no change when both say so, else not enough data. */
function operationVerdict(r: Pick<OperationComparison, 'median' | 'p95'>): StatVerdict {
  const v = [r.median.verdict, r.p95.verdict];
  if (v.includes('slower')) return 'slower';
  if (v.includes('faster')) return 'faster';
  return v.every((x) => x === 'no change detected') ? 'no change detected' : 'not enough data';
}

function regressionsOf(r: Pick<OperationComparison, 'median' | 'p95' | 'errorRate' | 'rate429'>): string[] {
  const ms = (v: number) => `${v >= 0 ? '+' : ''}${v.toFixed(1)} ms`;
  const pts = (v: number) => `${v >= 0 ? '+' : ''}${(v * 100).toFixed(2)} points`;
  const out: string[] = [];
  for (const k of ['median', 'p95'] as const)
    if (r[k].verdict === 'slower')
      out.push(
        `${k} ${ms(r[k].change)} (95 % interval ${ms(r[k].interval[0])} to ${ms(r[k].interval[1])}, beyond ±${r[k].margin.toFixed(1)} ms)`,
      );
  for (const [k, name] of [
    ['errorRate', 'error rate'],
    ['rate429', '429 rate'],
  ] as const)
    if (r[k].verdict === 'more')
      out.push(
        `${name} ${pts(r[k].change)} (95 % interval ${pts(r[k].interval[0])} to ${pts(r[k].interval[1])}, beyond ${pts(r[k].margin)})`,
      );
  return out;
}

export interface PerfComparison {
  threshold: PerfThreshold;
  confidence: number;
  /** Added to both ends of each latency interval (TIMING_RESOLUTION_MS). */
  resolutionMs: number;
  resamples: number;
  seed: number;
  operations: OperationComparison[];
  /** Operations only one run measured: not compared. */
  onlyInBaseline: string[];
  onlyInCurrent: string[];
  /** failed: a regression beyond the threshold in at least one operation. */
  verdict: 'passed' | 'failed';
}

/** Every operation both runs measured, compared; the run's verdict. */
export function compareRuns(baseline: RunSamples, current: RunSamples, o: CompareOptions = {}): PerfComparison {
  const ids = [...baseline.keys()].filter((id) => current.has(id)).sort();
  const operations = ids.map((id) => compareOperation(id, baseline.get(id) ?? [], current.get(id) ?? [], o));
  return {
    threshold: o.threshold ?? DEFAULT_PERF_THRESHOLD,
    confidence: CONFIDENCE,
    resolutionMs: TIMING_RESOLUTION_MS,
    resamples: o.resamples ?? DEFAULT_RESAMPLES,
    seed: o.seed ?? DEFAULT_PERF_SEED,
    operations,
    onlyInBaseline: [...baseline.keys()].filter((id) => !current.has(id)).sort(),
    onlyInCurrent: [...current.keys()].filter((id) => !baseline.has(id)).sort(),
    verdict: operations.some((op) => op.regressions.length) ? 'failed' : 'passed',
  };
}

/**
 * `--perf-threshold`: comma-separated margins, each optional (the others are 0): for the median a percentage (`20%`)
 * and milliseconds (`5ms`), the same for p95 with a `p95:` prefix (`p95:50%`, `p95:20ms`), and rate points (`1pt`).
 * Throws what was expected and what was received.
 */
export function parsePerfThreshold(spec: string, flag = '--perf-threshold'): PerfThreshold {
  const t: PerfThreshold = { median: { relative: 0, absoluteMs: 0 }, p95: { relative: 0, absoluteMs: 0 }, ratePoints: 0 };
  for (const part of spec.split(',').map((s) => s.trim())) {
    const m = /^(p95:)?(\d+(?:\.\d+)?)(%|ms|pts?)$/.exec(part);
    if (!m || (m[1] && m[3]?.startsWith('pt')))
      throw new Error(
        `${flag} takes margins like "${DEFAULT_PERF_THRESHOLD_SPEC}" (median %, ms; p95:%, p95:ms; rate points); received "${part}" in "${spec}"`,
      );
    const v = Number(m[2]);
    const latency = m[1] ? t.p95 : t.median;
    if (m[3] === '%') latency.relative = v / 100;
    else if (m[3] === 'ms') latency.absoluteMs = v;
    else t.ratePoints = v / 100;
  }
  return t;
}

export const DEFAULT_PERF_THRESHOLD: PerfThreshold = parsePerfThreshold(DEFAULT_PERF_THRESHOLD_SPEC);

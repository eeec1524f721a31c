/** Drives the fingerprint experiments against the mock's limiter algorithms on a manual clock. */
import { ManualClock } from '../../../mock/ground/clock';
import { createLimiter, type LimiterAlgorithm } from '../../../mock/limits/limiter-algorithms';
import { decisionHeaders, type HeaderStyle } from '../../../mock/limits/decision-headers';
import { Fingerprinter, type Algorithm, type FingerprintOptions, type ReadsNamed } from '../../../load/lib/fingerprint';
import { Lab, Runner, type Experiment } from '../../../load/lib/fingerprint/lab';
import type { LabObservation } from '../../../load/lib/fingerprint/types';
import { readRateLimitHeaders } from '../../../load/lib/rate-limit-hints';

/** The algorithm a fingerprint should name for each of the mock's limiters. */
export const EXPECTED: Record<LimiterAlgorithm, Algorithm> = {
  fixed: 'fixed-window',
  'sliding-log': 'sliding-window',
  'sliding-counter': 'sliding-window',
  'token-bucket': 'token-bucket',
  'leaky-bucket': 'token-bucket',
};

export interface SimOptions {
  limit: number;
  windowMs: number;
  countRefused?: boolean;
  resetUnit?: 'epoch' | 'seconds';
  /** ms each call takes (or a function of the call's index). Default 2. */
  latencyMs?: number | ((call: number) => number);
  startMs?: number;
  /** ms between two calls of a volley at the limiter (default 0.05; a loaded target takes them one by one). */
  volleyCallMs?: number;
  /** ms between the limiter's decision and the client reading the answer (a loaded machine), by call index. */
  responseDelayMs?: (call: number) => number;
  /** The first volley's answers are all read together, this many ms after the limiter's last decision (a stalled client). */
  firstVolleyReadLateMs?: number;
  /**
   * The target stops (SIGSTOP) from `atMs` for `ms` after the first call: calls that reach it meanwhile are decided
   * when it resumes, and answers it had not sent go out then.
   */
  stalls?: { atMs: number; ms: number }[];
  /**
   * The client stops (a busy machine) from `atMs` for `ms` after the first call: it sends nothing meanwhile and
   * reads the answers that came in when it resumes.
   */
  clientStalls?: { atMs: number; ms: number }[];
  config?: Partial<FingerprintOptions>;
}

/** What the simulation drives: the fingerprint, or one experiment alone. */
export interface Driven {
  nextAt(): number | null;
  nextCount(): number;
  record(o: LabObservation): void;
}

export const simConfig = (o: SimOptions): FingerprintOptions => ({
  burstCap: o.limit + 2,
  maxRequests: 20 * o.limit + 100,
  maxDurationMs: 30 * o.windowMs,
  maxWaitMs: 5 * o.windowMs,
  ...o.config,
});

/** Sends what `target` asks for to the limiter until it asks for nothing more. */
export function drive(target: Driven, algorithm: LimiterAlgorithm, family: HeaderStyle, o: SimOptions): void {
  const t0 = o.startMs ?? 1_800_000_000_123;
  const clock = new ManualClock(t0);
  const limiter = createLimiter(algorithm, clock, o.windowMs, { countRefused: o.countRefused ?? false });
  const latency = typeof o.latencyMs === 'function' ? o.latencyMs : () => (o.latencyMs as number | undefined) ?? 2;
  // A stopped target: a time inside a stall moves to its end.
  const after = (stalls: { atMs: number; ms: number }[] | undefined) => (ms: number) => {
    for (const s of stalls ?? []) if (ms >= t0 + s.atMs && ms < t0 + s.atMs + s.ms) return t0 + s.atMs + s.ms;
    return ms;
  };
  const resumed = after(o.stalls);
  const clientResumed = after(o.clientStalls);
  let volleys = 0;
  for (let guard = 0; guard < 10_000; guard++) {
    const at = target.nextAt();
    if (at === null) break;
    if (at > clock.now()) clock.set(at);
    clock.set(clientResumed(clock.now()));
    const sentMs = clock.now();
    clock.advance(latency(guard));
    clock.set(resumed(clock.now()));
    // A volley's calls are sent together: they reach the limiter a few microseconds apart.
    const n = target.nextCount();
    const outcomes = Array.from({ length: n }, (_, i) => {
      if (i > 0) clock.advance(o.volleyCallMs ?? 0.05);
      clock.set(resumed(clock.now()));
      return { d: limiter.consume('k', o.limit), now: clock.now() };
    });
    let delay = o.responseDelayMs?.(guard) ?? 0;
    const readTogether = n > 1 && volleys++ === 0 && o.firstVolleyReadLateMs !== undefined;
    if (readTogether) delay += o.firstVolleyReadLateMs as number;
    const lastDecision = clock.now();
    for (const { d, now } of outcomes) {
      const status = d.allowed ? 200 : 429;
      const headers = decisionHeaders(d, family, { nowMs: now, status, windowMs: o.windowMs, resetUnit: o.resetUnit ?? 'epoch' });
      const tMs = clientResumed(resumed((readTogether ? lastDecision : now) + delay));
      target.record({ sentMs, tMs, status, hints: readRateLimitHeaders(headers, tMs) });
    }
    // The client sends its next call after it read this answer.
    clock.advance(delay);
    clock.set(clientResumed(resumed(clock.now())));
  }
}

export function simulate(algorithm: LimiterAlgorithm, family: HeaderStyle, o: SimOptions) {
  const fp = new Fingerprinter(simConfig(o));
  drive(fp, algorithm, family, o);
  return fp.result();
}

/**
 * A write probed beside read operations (`awaitReads`): told what they were named whenever it waits for them, as
 * the probe does once they are done. Returns its fingerprint and how many times it waited.
 */
export function simulateWrite(algorithm: LimiterAlgorithm, family: HeaderStyle, o: SimOptions, named: ReadsNamed | null) {
  const fp = new Fingerprinter({ ...simConfig(o), awaitReads: true });
  let waits = 0;
  const told: Driven = {
    nextAt: () => {
      if (fp.waiting) {
        waits += 1;
        if (fp.nextAt() !== null) throw new Error('a waiting write has a call due');
        fp.readsAre(named);
      }
      return fp.nextAt();
    },
    nextCount: () => fp.nextCount(),
    record: (x) => fp.record(x),
  };
  drive(told, algorithm, family, o);
  return { fp: fp.result(), waits };
}

/** One experiment alone against a limiter, from its first call: its reading, its verdict and its lab. */
export function runAlone<T>(
  experiment: (lab: Lab) => Experiment<T>,
  algorithm: LimiterAlgorithm,
  family: HeaderStyle,
  o: SimOptions,
): { reading: T | undefined; verdict: string | null; lab: Lab } {
  const runner = new Runner(new Lab(simConfig(o)), experiment);
  drive(runner, algorithm, family, o);
  return { reading: runner.reading, verdict: runner.verdict, lab: runner.lab };
}

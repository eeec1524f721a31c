/** What the fingerprint experiments exchange with their driver and report: plain data, no k6, no Node. */
import type { RateLimitHints } from '../rate-limit-hints';
import type { ResetUnit } from '../limit-analysis';

export type Algorithm = 'fixed-window' | 'sliding-window' | 'token-bucket' | 'unknown';

/** What the lab saw of one call: when it was sent, when its answer came, its status and rate-limit hints. */
export interface LabObservation {
  /** Epoch ms when the call was sent (for a batch, when the batch was sent). */
  sentMs: number;
  /** Epoch ms when the response arrived. The target decided between the two. */
  tMs: number;
  status: number;
  hints: RateLimitHints;
}

export interface TimelinePoint {
  /** ms since the probe's first call. */
  tMs: number;
  status: number;
  allowed: boolean;
  phase: string;
}

export interface BottleneckOptions {
  reservoir: number | null;
  reservoirRefreshAmount: number | null;
  reservoirRefreshInterval: number | null;
  /** Token bucket: Bottleneck's reservoirIncrease* settings refill one call at a time. */
  reservoirIncreaseAmount?: number;
  reservoirIncreaseInterval?: number;
  reservoirIncreaseMaximum?: number;
  minTime: number;
  maxConcurrent: number;
}

export interface K6ArrivalRate {
  executor: 'constant-arrival-rate';
  rate: number;
  timeUnit: string;
  preAllocatedVUs: number;
}

export interface Pacing {
  /** The fastest schedule that never draws a 429, in words. */
  schedule: string;
  kind: 'burst-per-window' | 'even' | 'burst-then-even';
  /** Calls sent back to back at the start (and, for windows, at the start of each period). */
  burst: number;
  /** ms between the single calls after the burst (even / burst-then-even). */
  intervalMs: number | null;
  /** ms between bursts (burst-per-window). */
  periodMs: number | null;
  /** Share of the measured sustained rate this pacing uses. */
  share: number;
  bottleneck: BottleneckOptions;
  k6: K6ArrivalRate;
}

/** What the probes add to each operation of the limits manifest. */
export interface RateLimitFingerprint {
  algorithm: Algorithm;
  evidence: string[];
  burst: number | null;
  sustainedPerSecond: number | null;
  windowMs: number | null;
  refusedCallsCount: boolean | null;
  headers: string[];
  resetUnit: ResetUnit;
  resetMoves: boolean | null;
  pacing: Pacing | null;
  /** Set when the probe stopped without a result: why, in words. */
  verdict: string | null;
  /**
   * Set when the readings did not agree with each other or with what the experiments can resolve, twice:
   * what disagreed. The burst, rate and window are then the most cautious readings, and the pacing is an
   * even one no faster than the lowest rate observed; the run fails all the same.
   */
  uncertain?: string[] | null;
  requestsSpent: number;
  durationMs: number;
}

export interface FingerprintOptions {
  /** Most calls the exhaustion may send (advertised limit + 2, or a fallback). */
  burstCap: number;
  /** Most requests for the whole fingerprint of this operation. */
  maxRequests: number;
  /** Longest time the whole fingerprint may take, ms. */
  maxDurationMs: number;
  /** Longest wait for a reopening after a refusal, ms. */
  maxWaitMs: number;
  /** Spacing of fine polls, ms. Default 20. */
  fineMs?: number;
  /** First back-off gap without rate-limit headers, ms (doubles each poll). Default 50. */
  backoffStartMs?: number;
  /** Share of the measured rate the recommended pacing uses. Default 0.95. */
  pacingShare?: number;
  /**
   * A create, modify or cancel operation probed beside read operations: at the point where their names would spare it
   * experiments, it waits, sending nothing, until the driver says what they were named (`Fingerprinter.readsAre`).
   */
  awaitReads?: boolean;
}

/**
 * The limiter every read operation of a run was named, each without doubt. A write whose own exhaustion and refill
 * sampling read a continuous refill without a pause is named the same without the burst volley and the refused-call
 * test, whose calls would each create a resource.
 */
export interface ReadsNamed {
  algorithm: Algorithm;
  refusedCallsCount: boolean | null;
  operations: string[];
}

/** Calls sent one after another until the first refusal (or a cap). */
export interface Drain {
  firstMs: number;
  /** When the first call was sent: the target decided on it between this and `firstMs`. */
  firstSentMs: number;
  allowed: number;
  /** Time of the refusal that ended it (bucket empty then), or null if the cap ended it. */
  refusedMs: number | null;
  refusedFirst: boolean;
}

/** What a measurement says: the fields the pacing is made from. */
export interface Claim {
  algorithm: Algorithm;
  burst: number | null;
  /** Calls per ms. */
  rate: number | null;
  windowMs: number | null;
  refusedCallsCount: boolean | null;
}

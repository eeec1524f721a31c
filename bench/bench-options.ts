/** The benchmark's options, its fixed loads and its goals. */
/** The run's options, read from its command line by scripts/bench.ts. */
export interface BenchOptions {
  smoke: boolean;
  quick: boolean;
  json: boolean;
  /** Folder of bench.json (and of profile/); default reports/. */
  out: string;
  profile: boolean;
  instructions: boolean;
  /** Alternating rounds of each ratio. */
  rounds: number;
  /** Seconds of load per server and round. */
  durationS: number;
  /** Rounds of the figures that are not ratios (bundling, OpenAPI import): the smoke run's two suffice. */
  figureRounds: number;
  /** Loads of a fixed number of requests: the smoke preset, unless a duration is given. */
  byAmount: boolean;
  /** Seconds of load per profile (the smoke preset: a fixed number of requests). */
  profileS: number;
  /**
   * The probe's compressed window: the smoke run only proves the figure is produced, in a shorter window.
   * Not shorter than a second: the smoke run waits at a low priority beside the harness tests, and a stall
   * as long as a 400 ms window left the probe with no result (seen once, in a fresh-clone CI run).
   */
  probeWindowMs: number;
  /** Answers before the counters start, and answers counted, per server (--instructions). */
  instructionPreset: { warm: number; count: number };
}

/** Requests per load of a smoke run (about 0.1 s on a quiet machine; enough 10 ms ticks of server CPU to show). */
export const SMOKE_REQUESTS = 500;
export const CONNECTIONS = 50;
/** The fixed rate of the CPU-per-request figures: GET, and POST (a body to read, parse and validate). */
export const FIXED_RATE = { GET: 15_000, POST: 10_000 } as const;
/** The goals, against the headline ceiling (a bare node:http server given the mock's very request). */
export const GOALS = { get: { minThroughputRatio: 0.8, maxCpuPerRequestRatio: 1.25 }, post: { minThroughputRatio: 0.6 } } as const;

/** Prints a line of progress (stderr). */
export type Progress = (m: string) => void;

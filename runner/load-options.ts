/**
 * A `npm run load` run's options, parsed once from its command line (scripts/load.ts): every number,
 * duration and list already of the type its code uses, every default resolved.
 */
import type { EnvironmentName } from '../catalogue';
import { DEFAULT_WINDOW_MS } from '../catalogue';
import { DEFAULT_SEED } from '../fixtures/build-world';
import { runLengthMs } from '../load/plan/run-length';
import type { PerfThreshold } from '../reporting/perf-compare';
import { deploymentSettingsFrom, githubStepSummaryFrom } from '../config/read-config';
import type { DeploymentSettings } from '../config/harness-config';

/** k6's longest run unless --max-duration says otherwise. */
export const DEFAULT_MAX_DURATION = '30m';

/** Requests a probe may send by default on a target other than the embedded mock (the embedded mock: what the plan needs). */
export const DEFAULT_BUDGET = 5000;

export interface LoadOptions {
  /** `mock` (the embedded mock, started for the run), `sandbox` (BASE_URL) or a base URL. */
  target: string;
  environment: EnvironmentName;
  /** Operation ids to run, as given (each a catalogued id); undefined: all. */
  ops?: string[];
  /** Window of the embedded mock, ms (default DEFAULT_WINDOW_MS). */
  windowMs: number;
  /** Seed of the embedded mock's random per-operation limits. */
  randomLimits?: number;
  /** Seed of the plan's fixtures and of the embedded mock's data (one seed per run; default DEFAULT_SEED). */
  seed: number;
  /** Most requests a probe may send; undefined: DEFAULT_BUDGET, or on the embedded mock what the plan needs if more. */
  budget?: number;
  /** Run what the budget covers when it is short of the plan: the operations left out are not run (exit 99). */
  partial: boolean;
  allowQuotaSpend: boolean;
  allowProduction: boolean;
  reportsDir: string;
  out: string[];
  summaryExport?: string;
  bundleDir?: string;
  skipBuild: boolean;
  openapi?: string;
  /** capacity: duration per operation, k6 syntax (checked). */
  duration?: string;
  /** capacity: share of each limit used as the arrival rate, above 0 (above 1: past the limits). */
  fraction?: number;
  executionSegment?: string;
  executionSegmentSequence?: string;
  /** More `npm run mock` arguments, one per item (never --seed: the run's own --seed goes to the mock). */
  mockArgs: string[];
  /** Only the read operations (a probe creates nothing). */
  readsOnly?: boolean;
  webDashboard: boolean;
  webDashboardExport?: string;
  /** Stop k6 after this long, ms. */
  maxDurationMs: number;
  probeWaitMs?: number;
  /** Statuses taken as refusals besides 429. */
  refusedStatuses?: number[];
  probeMaxMs?: number;
  manifest?: string;
  /** compare: the margins a change must exceed to count (default DEFAULT_PERF_THRESHOLD). */
  perfThreshold?: PerfThreshold;
  /** What the environment says about the deployment (BASE_URL, apps, IM-* headers, KNOWN_IDS…), read once. */
  deployment: DeploymentSettings;
  /** GITHUB_STEP_SUMMARY when GITHUB_ACTIONS is on (read once): the step summary file a k6 command appends to. */
  githubStepSummary?: string;
}

/** A run's options with every default, its deployment settings read from `env` (the tests' starting point). */
export function defaultLoadOptions(env: NodeJS.ProcessEnv = process.env): LoadOptions {
  return { ...defaultCommandOptions(), deployment: deploymentSettingsFrom(env), ...githubOptions(env) };
}

/** The run's GitHub Actions settings, from the environment (none off GitHub Actions). */
export function githubOptions(env: NodeJS.ProcessEnv = process.env): Pick<LoadOptions, 'githubStepSummary'> {
  const file = githubStepSummaryFrom(env);
  return file ? { githubStepSummary: file } : {};
}

/** The command line's defaults: the base its options override. */
export function defaultCommandOptions(): Omit<LoadOptions, 'deployment'> {
  return {
    target: 'mock',
    environment: 'production',
    windowMs: DEFAULT_WINDOW_MS,
    seed: DEFAULT_SEED,
    partial: false,
    allowQuotaSpend: false,
    allowProduction: false,
    reportsDir: 'reports/load',
    out: [],
    skipBuild: false,
    mockArgs: [],
    webDashboard: false,
    maxDurationMs: runLengthMs(DEFAULT_MAX_DURATION),
  };
}

/**
 * The run plan every k6 script reads (built by runner/plan.ts from the catalogue and the fixtures, passed as
 * __ENV.PLAN), this runner's share of it, and what the result files say of it. requests.ts builds the calls.
 */
import exec from 'k6/execution';
import type { Family, EnvironmentName } from '../../catalogue';
import type { PacingPlan } from '../lib/pacer';
import { segmentDirName, shareOf } from './segment';

export interface PlannedOperation {
  id: string;
  family: Family;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Catalogue path template (for reports). */
  pathTemplate: string;
  /** Filled path from {base_url}, with the environment base. */
  path: string;
  query: string;
  body: string | null;
  /** Limit per window from the catalogue (used when the target advertises none). */
  catalogueLimit: number;
  /** The published request headers the operation requires (IM-*, from the configuration); IM-CorrelationID is added per request. */
  headers?: Record<string, string>;
}

/** A selected operation left out of the plan (no id of the target's data for it), and why. */
export interface NotRun {
  id: string;
  reason: string;
}

export interface Plan {
  baseUrl: string;
  environment: EnvironmentName;
  windowMs: number;
  outDir: string;
  /** Most requests the whole run may send. */
  budget: number;
  operations: PlannedOperation[];
  /** Selected operations left out of `operations`, with the reason: every result file of the run lists them. */
  notRun?: NotRun[];
  /** probe-reset: longest wait for a bucket to reopen, ms. Default 3 windows (at least 5 s). */
  probeWaitMs?: number;
  /** probe-reset: longest fingerprint of one operation, ms. Default 25 windows. */
  probeMaxMs?: number;
  /** Statuses taken as refusals besides 429 (e.g. 503, nginx limit_req's default). */
  refusedStatuses?: number[];
  /** verify-pacing: the pacing of each operation, from a probe-reset manifest. */
  pacing?: Record<string, PacingPlan>;
  /** probe-reset: `npm run load` already said what the write operations may create (load/plan/probe-plan.ts). */
  writesAnnounced?: boolean;
  /** Capacity runs: share of the limit and duration. */
  fraction?: number;
  duration?: string;
}

/** The result file's `notRun` field: the operations left out of the plan, with their reasons (none: no field). */
export function notRunOf(p: Pick<Plan, 'notRun'>): { notRun?: NotRun[] } {
  return p.notRun?.length ? { notRun: p.notRun } : {};
}

/** One line per operation left out of the plan, for a script's summary on stdout. */
export function notRunLines(p: Pick<Plan, 'notRun'>): string[] {
  return (p.notRun ?? []).map((n) => `  ${n.id}: NOT RUN: ${n.reason}`);
}

export function plan(): Plan {
  const raw = __ENV.PLAN;
  if (!raw)
    throw new Error('PLAN is not set: run the scripts through `npm run load -- <script>`, which builds the plan from the catalogue');
  return JSON.parse(raw) as Plan;
}

/**
 * This runner's share of the plan: in a distributed run (k6-operator `parallelism`, or `k6 run
 * --execution-segment`) each runner gets a disjoint slice of the operations and writes under
 * `<outDir>/segment-<from>-<to>`, so one app's quota is spent once per operation. LOAD_SEGMENT sets
 * a segment by hand. Call from setup() or an iteration: k6 refuses execution details in the init context.
 */
export function runnerPlan(p: Plan = plan()): Plan {
  const segment = exec.test.options.executionSegment || __ENV.LOAD_SEGMENT;
  if (!segment) return p;
  return { ...p, operations: shareOf(p.operations, segment), outDir: `${p.outDir}/${segmentDirName(segment)}` };
}

/** JSON file names of a run: `<outDir>/<script>-<timestamp>.json`. */
export function stamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-');
}

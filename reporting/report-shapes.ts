/**
 * Shapes of what the harness writes to reports/: shared by the contract suite, the load runner
 * and the report builder. Types only.
 */
import type { EnvironmentName } from '../catalogue/environments';
import type { FactPlace } from '../catalogue/facts';
import type { Family, HttpMethod } from '../catalogue/operations';

/** One entry of reports/findings.json. */
export interface Finding {
  /** Stable id from catalogue/findings.ts, optionally suffixed by scope, e.g. `token.lifetime@reseller/production`. */
  id: string;
  statement: string;
  /** Short machine-comparable value, e.g. "epoch" or "seconds". */
  observed: string;
  /** Request and response excerpts, secrets redacted. */
  evidence: string;
  family?: Family;
  environment?: EnvironmentName;
  operationId?: string;
  /** Set when a policy pins or promotes this finding. */
  policy?: { expected?: string; strict?: boolean; violated: boolean };
}

/**
 * A check's verdict. Not judged (exit 99): `blocked` (the environment stopped it) and `skipped` (not run: budget
 * spent, ids not found). Neither failing nor judged, never turning a run red: `out-of-scope` (left out by what the
 * user chose or did not give) and `not-applicable` (needs what only the embedded mock has).
 */
export type CheckStatus = 'passed' | 'failed' | 'blocked' | 'skipped' | 'out-of-scope' | 'not-applicable';

/** The kinds of a check that did not reach a verdict, in the order the summary lists them. */
export type LeftOutKind = 'out-of-scope' | 'not-applicable' | 'blocked' | 'not-run';

/** Checks of one kind left without a verdict for one reason (reports/summary.json `leftOut`). */
export interface LeftOut {
  kind: LeftOutKind;
  reason: string;
  /** For out-of-scope checks: the setting that brings them in, e.g. `PROBE_LIMITS=1`. */
  bringsIn?: string;
  checks: number;
}

/** The totals of a run; `outOfScope` and `notApplicable` are absent from summaries written before they existed. */
export interface Totals {
  passed: number;
  failed: number;
  blocked: number;
  skipped: number;
  outOfScope?: number;
  notApplicable?: number;
  findings: number;
}

/** One row of reports/summary.json `operations`: an operation in one environment. */
export interface OperationResult {
  id: string;
  family: Family;
  environment: EnvironmentName;
  method: HttpMethod;
  path: string;
  status: CheckStatus;
  checks: Record<string, CheckStatus>;
  /** Advertised X-RateLimit-Limit seen on the valid call. */
  advertisedLimit?: number;
  latencyMs?: number[];
  /** Response headers names and body fields seen, for regression diffs. */
  headers?: string[];
  fields?: string[];
  evidence?: string;
}

export interface TestResult {
  title: string;
  file: string;
  status: CheckStatus;
  durationMs: number;
  tags: string[];
  error?: string;
  /** Why a check reached no verdict. */
  reason?: string;
  /** What brings an out-of-scope check in. */
  bringsIn?: string;
  /** A failed check's requests as commands to send again (contracts/reporter/reproduction.ts). */
  reproduction?: Reproduction;
}

/**
 * A failed check's exchanges that show the broken fact, as shell commands: `curl` per request, the token as
 * "$ACCESS_TOKEN" and secrets as variables, with the one command that sets ACCESS_TOKEN.
 */
export interface Reproduction {
  /** `read -r ACCESS_TOKEN < <(curl …)` (bash) for the family and environment of the requests; absent when none carries a token. */
  token?: string;
  curls: string[];
  /** The variables the commands read that the user sets (the client secret's). */
  variables: string[];
  /** What the commands cannot send as the check did (a made-up token, a signature): each redacted in the output. */
  notReproduced: string[];
}

/** What the run sent, read from the run's request counter (run-budget.ts). */
export interface RequestsSummary {
  /** Requests sent to the target (token requests and retries included). */
  sent: number;
  /** REQUEST_BUDGET, else the plan's grown by `grownBy`; null when unlimited. */
  budget: number | null;
  /** Requests a planned budget grew by: the calls the target's buckets advertise above their documented limits. */
  grownBy?: number;
  /** Checks not run because the budget was spent. */
  checksLeftOutByBudget: number;
  /** What the run planned before its first request (plan.ts). */
  planned?: number;
  /** Workers, the most calls one sent at once, and the median of their round trips (ms). */
  pace?: { workers: number; atOnce: number; medianRttMs: number | null; unexpected429s: number };
}

export type IdOrigin = 'configured' | 'discovered' | 'created' | 'given';

/** An id a check used, and where it came from (clients/ids.ts). */
export interface ResolvedId {
  name: string;
  value: string;
  origin: IdOrigin;
  /** KNOWN_IDS, the operation whose answer listed it, or the operation that created it. */
  from: string;
  environment: EnvironmentName;
}

/** The verdict of a (fact, place) pair of the ledger (catalogue/facts.ts). */
export type PairStatus = 'passed' | 'failed' | 'not-judged' | 'out-of-scope' | 'not-applicable';

/** One (fact, place) pair of the ledger with its verdict in the run. */
export interface LedgerCell extends FactPlace {
  family: Family | undefined;
  status: PairStatus;
  /** Why not judged, out of scope or not applicable. */
  reason?: string;
  bringsIn?: string;
}

/** The run's ledger of facts x places (reports/summary.json `facts`; contracts/outcomes/fact-ledger.ts builds it). */
export interface FactLedger {
  places: number;
  judged: number;
  failed: number;
  /** Pairs without a verdict, by status and reason (with what brings each in), most first. */
  leftOut: { status: Exclude<PairStatus, 'passed' | 'failed'>; reason: string; bringsIn?: string; places: number }[];
  cells: LedgerCell[];
}

/** reports/summary.json */
export interface RunSummary {
  harnessVersion: string;
  target: string;
  environments: EnvironmentName[];
  startedAt: string;
  durationMs: number;
  verdict: 'passed' | 'failed';
  totals: Totals;
  /** Checks without a verdict, by kind and reason. */
  leftOut?: LeftOut[];
  operations: OperationResult[];
  tests: TestResult[];
  findings: Finding[];
  timings?: Record<string, number>;
  openapi?: unknown;
  /** Certify: what the run sent (contracts/plan/run-budget.ts). */
  requests?: RequestsSummary;
  /** The ids the checks used, from the target or KNOWN_IDS. */
  ids?: ResolvedId[];
  /** Certify: where each fact was judged; absent from summaries written before the ledger existed. */
  facts?: FactLedger;
}

/** One entry of reports/load/limits.json `operations` (names are read by other tools: keep them). */
export interface LimitsManifestEntry {
  id: string;
  method: HttpMethod;
  path: string;
  environment: EnvironmentName;
  advertisedLimit: number | null;
  observedLimit: number | null;
  remainingStep: boolean;
  windowMs: number | null;
  resetUnit: 'epoch' | 'seconds' | 'unknown';
  resetErrorMs: number | null;
  requestsSpent: number;
  /** Why observedLimit is null though a 429 came (the window rolled over before the bucket was spent). */
  inconclusive?: string;
}

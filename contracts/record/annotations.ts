/**
 * The results a check records on its test, as Playwright annotations: every type's name, payload and typed
 * writer. Their one reader (annotation-reader.ts) is shared by the summary reporter, the plan and the
 * detection matrix.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { TestInfo, TestInfoError } from '@playwright/test';
import type { EnvironmentName } from '../../catalogue';
import type { CheckStatus, Finding } from '../../reporting/report-shapes';
import type { ResolvedId } from '../../clients/ids';

/** The type name of each annotation the suite writes. */
export const ANNOTATION = {
  /** A finding (finding-recorder.ts): JSON Finding. */
  finding: 'finding',
  /** What a call showed (headers, fields, latency, advertised limit): JSON CallObservation. */
  observed: 'observed',
  /** "METHOD url → status: IM-CorrelationID id" of one of the check's last requests. */
  correlationId: 'correlation-id',
  /** A response validated against the OPENAPI document: JSON OpenApiValidation. */
  openapiValidation: 'openapi-validation',
  /** An id the check used and where it came from (clients/ids.ts): JSON ResolvedId. */
  idSource: 'id-source',
  /** The verdict of one check of a group (outcomes/check-groups.ts): JSON CheckResult. */
  checkResult: 'check-result',
  /** The labels of a test that is one check: operation id, environment, check name. */
  operation: 'operation',
  environment: 'environment',
  check: 'check',
  /** The reason a test was blocked by the environment or not run on this target. */
  blocked: 'blocked',
  notRun: 'not-run',
  /** A check left out by the run's scope: JSON OutOfScope. */
  outOfScope: 'out-of-scope',
  /** The reason a check cannot apply to this target (it needs what only the embedded mock has). */
  notApplicable: 'not-applicable',
  /** What a test plans to send, declared with the test (request-request-plan.ts): JSON PlannedRequests. */
  plannedRequests: 'planned-requests',
  /** What the test sent and how: JSON TestTraffic. */
  traffic: 'traffic',
  /** The facts a test that is one check judged, and those it found broken (record/fact-verdicts.ts): JSON FactVerdicts. */
  factVerdicts: 'fact-verdicts',
} as const;

export type AnnotationType = (typeof ANNOTATION)[keyof typeof ANNOTATION];

/** One check's verdict inside a grouped test. */
export interface CheckResult {
  title: string;
  operation?: string;
  environment?: EnvironmentName;
  check?: string;
  status: CheckStatus;
  durationMs: number;
  error?: string;
  /** The reason of a check not run, blocked, out of scope or not applicable. */
  reason?: string;
  /** What brings an out-of-scope check in. */
  bringsIn?: string;
  /** What the check's calls showed, and their last correlation lines (a grouped check's own). */
  observed?: CallObservation[];
  correlationIds?: string[];
  /** Which of its declared facts the check judged and found broken, where it says (record/fact-verdicts.ts). */
  facts?: FactVerdicts;
}

/** The facts (catalogue/facts.ts) a check judged to the end, and those it found broken. */
export interface FactVerdicts {
  judged: string[];
  broken: string[];
}

/** Why a check is out of the run's scope, and the setting that brings it in. */
export interface OutOfScope {
  reason: string;
  bringsIn: string;
}

/**
 * What a test (or one check of a group) plans to send, and the unit the budget plan keeps or leaves out whole
 * in a partial run: an operation id, or a check family such as `token`.
 */
export interface PlannedRequests {
  unit: string;
  requests: number;
  /** A grouped check's title and own tags: the run's greps select it by them (outcomes/run-grep.ts). */
  check?: string;
  tags?: string[];
  /** A check that spends a bucket to its 429: the limit it spends and what its writes create or change. */
  spends?: BucketCost;
}

/** What spending one bucket costs: its limit in calls and, for a write operation, the resources it creates or changes. */
export interface BucketCost {
  operation: string;
  limit: number;
  /** "150 orders created", "150 cancels of 1 order": none for a read-only operation. */
  writes?: string;
}

/** The requests a test sent (its worker's count before and after it), and the pace its worker had reached. */
export interface TestTraffic {
  requests: number;
  /** Calls the worker sent at once by then (call-pace.ts). */
  concurrency: number;
  /** The median round trip of the worker's calls by then, in ms; null before any. */
  medianRttMs: number | null;
  /** 429s the test met on calls no check asked a 429 of (each waited out and sent again). */
  unexpected429s: number;
}

/** What a call showed; the summary keeps headers, fields, latency and the advertised limit per operation. */
export interface CallObservation {
  status?: number;
  headers?: string[];
  fields?: string[];
  latencyMs?: number;
  /** X-RateLimit-Limit as advertised (header text) or as read (number); null when absent. */
  limit?: string | number | null;
  correlationId?: string;
  /** Calls the limiter allowed in one window, and requests sent to learn it. */
  allowed?: number;
  requests?: number;
  /** How an exhaustion spent the bucket: calls, latency, concurrency, time to the reset, calls past the first 429. */
  pace?: string;
}

export interface OpenApiValidation {
  validated: boolean;
  failed: boolean;
}

/** The labels that place a test's verdict in its operation's row. */
export interface Labels {
  operation?: string;
  environment?: EnvironmentName;
  check?: string;
}

/** Everything the suite recorded on one test. */
export interface TestAnnotations extends Labels {
  findings: Finding[];
  observed: CallObservation[];
  correlationIds: string[];
  openapiValidations: OpenApiValidation[];
  idSources: ResolvedId[];
  checkResults: CheckResult[];
  blocked: string[];
  notRun: string[];
  outOfScope: OutOfScope[];
  notApplicable: string[];
  planned: PlannedRequests[];
  /** What the test sent; undefined when not recorded. */
  traffic?: TestTraffic;
  /** The facts a test that is one check judged and found broken, where it says. */
  factVerdicts?: FactVerdicts;
}

/** A test as the reporter or Playwright's JSON report gives it. */
export interface AnnotatedTest {
  title: string;
  annotations: readonly { type: string; description?: string }[];
}

type Annotated = Pick<TestInfo, 'annotations'>;

/**
 * A check of a group while it runs (outcomes/check-groups.ts): what its calls record (observations,
 * correlation lines) and a soft assertion's error raised in its async context are its own, not the group
 * test's, so checks running at once keep their own evidence.
 */
export interface RunningCheck {
  result: CheckResult;
  softErrors: TestInfoError[];
}

const running = new AsyncLocalStorage<RunningCheck>();

/** The check running in this async context, if any. */
export const runningCheck = (): RunningCheck | undefined => running.getStore();

/** Runs `work` as the check `check`. */
export const runAsCheck = <T>(check: RunningCheck, work: () => Promise<T>): Promise<T> => running.run(check, work);

const push = (info: Annotated, type: AnnotationType, payload: unknown): void => {
  info.annotations.push({ type, description: typeof payload === 'string' ? payload : JSON.stringify(payload) });
};

export const writeFinding = (info: Annotated, finding: Finding): void => push(info, ANNOTATION.finding, finding);
/** What a call showed: the running grouped check's, else the test's. */
export function writeObserved(info: Annotated, observation: CallObservation): void {
  const check = runningCheck()?.result;
  if (check) check.observed = [...(check.observed ?? []), observation];
  else push(info, ANNOTATION.observed, observation);
}
export const writeOpenApiValidation = (info: Annotated, v: OpenApiValidation): void => push(info, ANNOTATION.openapiValidation, v);
export const writeCheckResult = (info: Annotated, result: CheckResult): void => push(info, ANNOTATION.checkResult, result);
export const writeBlocked = (info: Annotated, reason: string): void => push(info, ANNOTATION.blocked, reason);
export const writeNotRun = (info: Annotated, reason: string): void => push(info, ANNOTATION.notRun, reason);
export const writeOutOfScope = (info: Annotated, scope: OutOfScope): void => push(info, ANNOTATION.outOfScope, scope);
export const writeTraffic = (info: Annotated, traffic: TestTraffic): void => push(info, ANNOTATION.traffic, traffic);

/** The labels of a test that is one check. */
export function writeLabels(info: Annotated, labels: Labels): void {
  if (labels.operation) push(info, ANNOTATION.operation, labels.operation);
  if (labels.environment) push(info, ANNOTATION.environment, labels.environment);
  if (labels.check) push(info, ANNOTATION.check, labels.check);
}

/** An id the test used, once per id and origin. */
export function writeIdSource(info: Annotated, id: ResolvedId): void {
  const description = JSON.stringify(id);
  if (!info.annotations.some((a) => a.type === ANNOTATION.idSource && a.description === description)) push(info, ANNOTATION.idSource, id);
}

/** A request's correlation line; the running grouped check (else the test) keeps the last `keep` of them. */
export function writeCorrelationId(info: Annotated, line: string, keep = 3): void {
  const check = runningCheck()?.result;
  if (check) {
    check.correlationIds = [...(check.correlationIds ?? []), line].slice(-keep);
    return;
  }
  const kept = info.annotations.filter((a) => a.type === ANNOTATION.correlationId);
  for (const old of kept.slice(0, Math.max(0, kept.length - keep + 1))) info.annotations.splice(info.annotations.indexOf(old), 1);
  push(info, ANNOTATION.correlationId, line);
}

/**
 * The results a check records on its test, as Playwright annotations: every type's name, payload, typed
 * writer, and the one reader the summary reporter and the detection matrix share. The reader refuses a
 * malformed annotation with the test's title and the annotation's type: a result is never dropped.
 * Annotations of other types (Playwright's own `skip` and `fail`, the harness tests' notes) are left alone.
 */
import type { TestInfo } from '@playwright/test';
import type { ValidateFunction } from 'ajv';
import { ENVIRONMENTS, type EnvironmentName } from '../../catalogue';
import type { CheckStatus, Finding } from '../../reporting/report-shapes';
import { createAjv, errorLines } from '../../clients/ajv';
import type { ResolvedId } from '../../clients/ids';
import { redact } from '../../clients/redact';

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
  /** The verdict of one check of a group (checks.ts): JSON CheckResult. */
  checkResult: 'check-result',
  /** The labels of a test that is one check: operation id, environment, check name. */
  operation: 'operation',
  environment: 'environment',
  check: 'check',
  /** The reason a test was blocked by the environment or not run on this target. */
  blocked: 'blocked',
  notRun: 'not-run',
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
  /** The reason of a check not run or blocked. */
  reason?: string;
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
}

/** A test as the reporter or Playwright's JSON report gives it. */
export interface AnnotatedTest {
  title: string;
  annotations: readonly { type: string; description?: string }[];
}

type Annotated = Pick<TestInfo, 'annotations'>;

const push = (info: Annotated, type: AnnotationType, payload: unknown): void => {
  info.annotations.push({ type, description: typeof payload === 'string' ? payload : JSON.stringify(payload) });
};

export const writeFinding = (info: Annotated, finding: Finding): void => push(info, ANNOTATION.finding, finding);
export const writeObserved = (info: Annotated, observation: CallObservation): void => push(info, ANNOTATION.observed, observation);
export const writeOpenApiValidation = (info: Annotated, v: OpenApiValidation): void => push(info, ANNOTATION.openapiValidation, v);
export const writeCheckResult = (info: Annotated, result: CheckResult): void => push(info, ANNOTATION.checkResult, result);
export const writeBlocked = (info: Annotated, reason: string): void => push(info, ANNOTATION.blocked, reason);
export const writeNotRun = (info: Annotated, reason: string): void => push(info, ANNOTATION.notRun, reason);

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

/** A request's correlation line; the test keeps the last `keep` of them. */
export function writeCorrelationId(info: Annotated, line: string, keep = 3): void {
  const kept = info.annotations.filter((a) => a.type === ANNOTATION.correlationId);
  for (const old of kept.slice(0, Math.max(0, kept.length - keep + 1))) info.annotations.splice(info.annotations.indexOf(old), 1);
  push(info, ANNOTATION.correlationId, line);
}

const str = { type: 'string' } as const;
const strings = { type: 'array', items: str } as const;
const num = { type: 'number' } as const;
const environment = { enum: [...ENVIRONMENTS] } as const;

/** The JSON Schema of each JSON payload. */
const PAYLOAD_SCHEMAS = {
  [ANNOTATION.finding]: {
    type: 'object',
    required: ['id', 'statement', 'observed', 'evidence'],
    properties: {
      id: str,
      statement: str,
      observed: str,
      evidence: str,
      family: { enum: ['reseller', 'vendor'] },
      environment,
      operationId: str,
      policy: {
        type: 'object',
        required: ['violated'],
        properties: { expected: str, strict: { type: 'boolean' }, violated: { type: 'boolean' } },
      },
    },
  },
  [ANNOTATION.observed]: {
    type: 'object',
    properties: {
      status: num,
      headers: strings,
      fields: strings,
      latencyMs: num,
      limit: { type: ['string', 'number', 'null'] },
      correlationId: str,
      allowed: num,
      requests: num,
      pace: str,
    },
  },
  [ANNOTATION.openapiValidation]: {
    type: 'object',
    required: ['validated', 'failed'],
    properties: { validated: { type: 'boolean' }, failed: { type: 'boolean' } },
  },
  [ANNOTATION.idSource]: {
    type: 'object',
    required: ['name', 'value', 'origin', 'from', 'environment'],
    properties: { name: str, value: str, origin: { enum: ['configured', 'discovered', 'created', 'given'] }, from: str, environment },
  },
  [ANNOTATION.checkResult]: {
    type: 'object',
    required: ['title', 'status', 'durationMs'],
    properties: {
      title: str,
      operation: str,
      environment,
      check: str,
      status: { enum: ['passed', 'failed', 'blocked', 'skipped'] },
      durationMs: num,
      error: str,
      reason: str,
    },
  },
} as const;

type JsonType = keyof typeof PAYLOAD_SCHEMAS;
let validators: Map<string, ValidateFunction> | undefined;

/** The validator of a JSON payload: one Ajv instance of the payload schemas only (the reporter needs no catalogue schema). */
function validatorOf(type: JsonType): ValidateFunction {
  if (!validators) {
    const ajv = createAjv({ catalogue: false });
    validators = new Map(Object.entries(PAYLOAD_SCHEMAS).map(([t, schema]) => [t, ajv.compile(schema)]));
  }
  return validators.get(type) as ValidateFunction;
}

/** The refusal of a malformed annotation: which test, which type, what was expected and received. */
function malformed(test: AnnotatedTest, type: string, problems: string[], description: string | undefined): Error {
  const received = description === undefined ? 'no description' : redact(description).slice(0, 300);
  return new Error(
    `Malformed annotation "${type}" on test "${test.title}"\nExpected: ${problems.join('; ')}\nReceived: ${received}\n` +
      `What to do: record it with its writer in contracts/support/annotations.ts (write*), never by hand`,
  );
}

function parseJson<T>(test: AnnotatedTest, type: JsonType, description: string | undefined): T {
  let value: unknown;
  try {
    value = JSON.parse(description ?? '');
  } catch (e) {
    throw malformed(test, type, [`JSON (${(e as Error).message})`], description);
  }
  const validate = validatorOf(type);
  if (!validate(value)) throw malformed(test, type, errorLines(validate.errors), description);
  return value as T;
}

function text(test: AnnotatedTest, type: string, description: string | undefined): string {
  if (typeof description !== 'string') throw malformed(test, type, ['a text'], description);
  return description;
}

function environmentOf(test: AnnotatedTest, description: string | undefined): EnvironmentName {
  const env = text(test, ANNOTATION.environment, description);
  if (!(ENVIRONMENTS as readonly string[]).includes(env))
    throw malformed(test, ANNOTATION.environment, [`one of ${ENVIRONMENTS.join(', ')}`], env);
  return env as EnvironmentName;
}

/** Every result recorded on the test, parsed and checked; throws on a malformed one. A label counts once (the first). */
export function readAnnotations(test: AnnotatedTest): TestAnnotations {
  const r: TestAnnotations = {
    findings: [],
    observed: [],
    correlationIds: [],
    openapiValidations: [],
    idSources: [],
    checkResults: [],
    blocked: [],
    notRun: [],
  };
  for (const { type, description } of test.annotations) {
    if (type === ANNOTATION.finding) r.findings.push(parseJson(test, type, description));
    else if (type === ANNOTATION.observed) r.observed.push(parseJson(test, type, description));
    else if (type === ANNOTATION.openapiValidation) r.openapiValidations.push(parseJson(test, type, description));
    else if (type === ANNOTATION.idSource) r.idSources.push(parseJson(test, type, description));
    else if (type === ANNOTATION.checkResult) r.checkResults.push(parseJson(test, type, description));
    else if (type === ANNOTATION.correlationId) r.correlationIds.push(text(test, type, description));
    else if (type === ANNOTATION.blocked) r.blocked.push(text(test, type, description));
    else if (type === ANNOTATION.notRun) r.notRun.push(text(test, type, description));
    else if (type === ANNOTATION.operation) r.operation ??= text(test, type, description);
    else if (type === ANNOTATION.check) r.check ??= text(test, type, description);
    else if (type === ANNOTATION.environment) r.environment ??= environmentOf(test, description);
  }
  return r;
}

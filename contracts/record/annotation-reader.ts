/**
 * The one reader of the results a check records (annotations.ts), shared by the summary reporter, the plan
 * and the detection matrix. It refuses a malformed annotation with the test's title and the annotation's
 * type: a result is never dropped. Annotations of other types (Playwright's own `skip` and `fail`, the
 * harness tests' notes) are left alone.
 */
import type { ValidateFunction } from 'ajv';
import { ENVIRONMENTS, type EnvironmentName } from '../../catalogue';
import { createAjv, errorLines } from '../../clients/ajv';
import { redact } from '../../clients/redact';
import { ANNOTATION, type AnnotatedTest, type TestAnnotations } from './annotations';

const str = { type: 'string' } as const;
const strings = { type: 'array', items: str } as const;
const num = { type: 'number' } as const;
const environment = { enum: [...ENVIRONMENTS] } as const;

/** What a call showed (CallObservation). */
const OBSERVATION = {
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
} as const;

/** The JSON Schema of each JSON payload. */
/** The facts a check judged and found broken (record/fact-verdicts.ts). */
const FACT_VERDICTS = {
  type: 'object',
  required: ['judged', 'broken'],
  properties: { judged: strings, broken: strings },
} as const;

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
  [ANNOTATION.observed]: OBSERVATION,
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
  [ANNOTATION.factVerdicts]: FACT_VERDICTS,
  [ANNOTATION.checkResult]: {
    type: 'object',
    required: ['title', 'status', 'durationMs'],
    properties: {
      title: str,
      operation: str,
      environment,
      check: str,
      status: { enum: ['passed', 'failed', 'blocked', 'skipped', 'out-of-scope', 'not-applicable'] },
      durationMs: num,
      error: str,
      reason: str,
      bringsIn: str,
      observed: { type: 'array', items: OBSERVATION },
      correlationIds: strings,
      facts: FACT_VERDICTS,
    },
  },
  [ANNOTATION.outOfScope]: {
    type: 'object',
    required: ['reason', 'bringsIn'],
    properties: { reason: str, bringsIn: str },
  },
  [ANNOTATION.traffic]: {
    type: 'object',
    required: ['requests', 'concurrency', 'medianRttMs', 'unexpected429s'],
    properties: {
      requests: { type: 'integer', minimum: 0 },
      concurrency: { type: 'integer', minimum: 1 },
      medianRttMs: { type: ['number', 'null'] },
      unexpected429s: { type: 'integer', minimum: 0 },
    },
  },
  [ANNOTATION.plannedRequests]: {
    type: 'object',
    required: ['unit', 'requests'],
    properties: { unit: str, requests: { type: 'integer', minimum: 0 }, check: str, tags: strings },
  },
} as const;

type JsonType = keyof typeof PAYLOAD_SCHEMAS;
let ajv: ReturnType<typeof createAjv> | undefined;
const validators = new Map<JsonType, ValidateFunction>();

/**
 * The validator of a JSON payload, compiled at its first use (a worker reads two types before its first test):
 * one Ajv instance of the payload schemas only (the reporter needs no catalogue schema).
 */
function validatorOf(type: JsonType): ValidateFunction {
  let validate = validators.get(type);
  if (!validate) {
    ajv ??= createAjv({ catalogue: false });
    validate = ajv.compile(PAYLOAD_SCHEMAS[type]);
    validators.set(type, validate);
  }
  return validate;
}

/** The refusal of a malformed annotation: which test, which type, what was expected and received. */
function malformed(test: AnnotatedTest, type: string, problems: string[], description: string | undefined): Error {
  const received = description === undefined ? 'no description' : redact(description).slice(0, 300);
  return new Error(
    `Malformed annotation "${type}" on test "${test.title}"\nExpected: ${problems.join('; ')}\nReceived: ${received}\n` +
      `What to do: record it with its writer in contracts/record/annotations.ts (write*), never by hand`,
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

/** A label of a test that is one check (operation, check, environment): the first of each counts. */
function readLabel(r: TestAnnotations, test: AnnotatedTest, type: string, description: string | undefined): void {
  if (type === ANNOTATION.operation) r.operation ??= text(test, type, description);
  else if (type === ANNOTATION.check) r.check ??= text(test, type, description);
  else if (type === ANNOTATION.environment) r.environment ??= environmentOf(test, description);
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
    outOfScope: [],
    notApplicable: [],
    planned: [],
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
    else if (type === ANNOTATION.outOfScope) r.outOfScope.push(parseJson(test, type, description));
    else if (type === ANNOTATION.notApplicable) r.notApplicable.push(text(test, type, description));
    else if (type === ANNOTATION.plannedRequests) r.planned.push(parseJson(test, type, description));
    else if (type === ANNOTATION.traffic) r.traffic = parseJson(test, type, description);
    else if (type === ANNOTATION.factVerdicts) r.factVerdicts = parseJson(test, type, description);
    else readLabel(r, test, type, description);
  }
  return r;
}

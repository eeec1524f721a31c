/**
 * The checks of a valid call beyond its shape: the documented success status (not any 2xx), an answer
 * about what was asked, and a 404 told apart as "not served" (the request carried no id of the target's
 * data, or only one the run itself created) or "unknown data" (an id the harness guessed: a finding).
 */
import { test } from '@playwright/test';
import type { EnvironmentName, Operation } from '../../catalogue';
import { evidenceOf, type ApiResponse } from '../../clients/http';
import { describeComparison, echoComparisons, statusVerdict, type SentRequest } from './answer-facts';
import { recordFinding } from '../record/finding-recorder';
import { expect } from './matchers';

const scopeOf = (op: Operation, env: EnvironmentName, policyFile: string | undefined) => ({
  environment: env,
  operationId: op.id,
  family: op.family,
  policyFile,
});

/**
 * Fails a 2xx the document does not give for the operation (expected and received); records a finding
 * where the document does not show the status at all. Returns the schema the answer must match (null:
 * the status has no body), or undefined when no documented schema applies.
 */
export function expectDocumentedStatus(
  op: Operation,
  env: EnvironmentName,
  res: ApiResponse,
  policyFile: string | undefined,
): string | null | undefined {
  const verdict = statusVerdict(op, res.status);
  if (verdict.kind === 'documented') return verdict.schema;
  if (verdict.kind === 'undocumented') {
    expect
      .soft(
        res.status,
        `Broken fact: ${op.id} answers a success status the published document gives (${env})\nExpected: ${verdict.expected.join(' or ')}\nReceived: ${evidenceOf(res)}`,
      )
      .toBe(verdict.expected[0]);
    return undefined;
  }
  if (res.status !== op.successStatus)
    recordFinding('status.success-not-shown', String(res.status), `${verdict.reason}; assumed ${op.successStatus} → ${evidenceOf(res)}`, {
      ...scopeOf(op, env, policyFile),
    });
  return op.responseSchema;
}

/** Fails an answer whose key fields name something other than what the request asked for; keeps both values as evidence. */
export async function expectAboutWhatWasAsked(op: Operation, env: EnvironmentName, sent: SentRequest, res: ApiResponse): Promise<void> {
  const comparisons = echoComparisons(op, sent, res.json);
  if (!comparisons.length) return;
  await test.info().attach('answer-about', { body: JSON.stringify(comparisons), contentType: 'application/json' });
  for (const c of comparisons.filter((x) => x.contradicts)) {
    expect
      .soft(
        c.answered,
        `Broken fact: ${op.id} answers about what was asked (${env})\n${describeComparison(c)}\nReceived: ${evidenceOf(res)}`,
      )
      .toEqual(c.answered.filter((v) => c.asked.includes(v)));
  }
}

/**
 * A 404 to a valid call on a target whose data the harness does not know. A request that carried no id
 * of the target's data (a search, a create) or only one the run created (`ownIds`) is an operation not
 * served in the environment: a failure. A guessed id unknown to the target is a finding.
 */
export function judgeNotFound(
  op: Operation,
  env: EnvironmentName,
  res: ApiResponse,
  ownIds: boolean,
  policyFile: string | undefined,
): void {
  if (op.needs.length === 0 || ownIds) {
    const what = op.needs.length === 0 ? 'a request that names no data of the target' : 'the id of a resource this run created';
    throw new Error(
      `Broken fact: operation not served in ${env}: ${op.method} ${op.path} (${op.id})\nExpected: 2xx to ${what}\nReceived: ${evidenceOf(res)}`,
    );
  }
  // The spec shows no business ids: a fixture id unknown to a real target is recorded, not failed.
  recordFinding('errors.fixture-unknown', 'not-found', evidenceOf(res), scopeOf(op, env, policyFile));
}

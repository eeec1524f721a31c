/**
 * A finding the check could not judge on this run (two answers a write of the run could have come between):
 * recorded as observed `not-judged` with the reason as its evidence, so the summary and findings.json say where
 * the run did not look. A policy pins what a target does, not what a run could not see: it is never violated.
 */
import type { TestInfo } from '@playwright/test';
import { findingDefinition } from '../../catalogue';
import type { Finding } from '../../reporting/report-shapes';
import { redact } from '../../clients/redact';
import { writeFinding } from '../record/annotations';

/** The observed value of a finding not judged. */
export const NOT_JUDGED = 'not-judged';

export function findingNotJudged(
  info: Pick<TestInfo, 'annotations'>,
  id: string,
  reason: string,
  scope: Pick<Finding, 'environment' | 'operationId'> & { environment: NonNullable<Finding['environment']> },
): void {
  writeFinding(info, {
    id: `${id}@${scope.environment}`,
    statement: findingDefinition(id).statement,
    observed: NOT_JUDGED,
    evidence: redact(reason).slice(0, 2000),
    environment: scope.environment,
    ...(scope.operationId ? { operationId: scope.operationId } : {}),
  });
}

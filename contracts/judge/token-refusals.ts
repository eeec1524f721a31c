/**
 * A token the target refused before expires_in and the 24 h guidance ended. The client re-fetches
 * (the spec: a client must be ready for a new token at any time) and the refusal is a finding,
 * recorded once per check, family and environment with when the token was issued and refused.
 */
import { test, type TestInfo } from '@playwright/test';
import type { EnvironmentName, Family } from '../../catalogue';
import type { ApiResponse } from '../../clients/http';
import { describeEarlyRefusal, type EarlyRefusal } from '../../clients/token-core';
import { readAnnotations } from '../record/annotation-reader';
import { recordFinding } from '../record/finding-recorder';

export const EARLY_REFUSAL_FINDING = 'token.refused-early';

export interface RefusalScope {
  family: Family;
  environment: EnvironmentName;
  policyFile?: string;
}

/** The evidence: the two times, the refused call and the call repeated with a new token, by IM-CorrelationID. */
export function earlyRefusalEvidence(r: EarlyRefusal, refused: ApiResponse, again: ApiResponse | undefined): string {
  const retried = again ? `; with a new token: ${again.status} (IM-CorrelationID ${again.correlationId})` : '';
  return `${describeEarlyRefusal(r)}; refused: ${refused.method} ${refused.url} → ${refused.status} (IM-CorrelationID ${refused.correlationId})${retried}`;
}

/**
 * Records the finding on the running check (outside a check, during fixture set-up, there is none to
 * record it on: the re-fetch still happens). A 401 the new token gets as well is not about the token
 * (a webhook signature, say): no finding. Throws when a policy makes the finding strict.
 */
export function recordEarlyRefusal(r: EarlyRefusal, refused: ApiResponse, again: ApiResponse | undefined, scope: RefusalScope): void {
  if (again?.status === refused.status) return;
  let info: TestInfo;
  try {
    info = test.info();
  } catch {
    return;
  }
  const id = `${EARLY_REFUSAL_FINDING}@${scope.family}/${scope.environment}`;
  if (readAnnotations(info).findings.some((f) => f.id === id)) return;
  recordFinding(EARLY_REFUSAL_FINDING, 'refused-early', earlyRefusalEvidence(r, refused, again), scope);
}

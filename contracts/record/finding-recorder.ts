/**
 * Findings: behaviour where the spec conflicts or is silent. Recorded on the test (annotation +
 * attachment, read by the summary reporter into reports/findings.json). A policy file can pin the
 * expected answer or promote a finding to a failure.
 */
import { test } from '@playwright/test';
import { findingDefinition } from '../../catalogue';
import type { Finding } from '../../reporting/report-shapes';
import type { Policy } from '../../catalogue/policy';
import { readPolicy } from '../../config/config-files';
import { redact } from '../../clients/redact';
import { writeFinding } from './annotations';

export type { Policy } from '../../catalogue/policy';

const policies = new Map<string, Policy>();
/** The policy named by POLICY (checked at start-up against its schema), read once per process; {} without one. */
export function loadPolicy(file: string | undefined): Policy {
  if (!file) return {};
  const policy = policies.get(file) ?? readPolicy(file);
  policies.set(file, policy);
  return policy;
}

/**
 * Records a finding on the running test. `scope` makes the id unique per family/environment, e.g.
 * `token.lifetime@reseller/production`. Throws when a policy pins another value or is strict.
 */
export function recordFinding(
  id: string,
  observed: string,
  evidence: string,
  extra: Partial<Pick<Finding, 'family' | 'environment' | 'operationId'>> & { policyFile?: string } = {},
): Finding {
  const def = findingDefinition(id);
  const scope = [extra.family, extra.environment].filter(Boolean).join('/');
  const finding: Finding = {
    id: scope ? `${id}@${scope}` : id,
    statement: def.statement,
    observed,
    evidence: redact(evidence).slice(0, 2000),
    ...(extra.family ? { family: extra.family } : {}),
    ...(extra.environment ? { environment: extra.environment } : {}),
    ...(extra.operationId ? { operationId: extra.operationId } : {}),
  };
  const entry = loadPolicy(extra.policyFile).findings?.[id];
  if (entry) {
    const violated = (entry.strict ?? false) || (entry.expected !== undefined && entry.expected !== observed);
    finding.policy = {
      violated,
      ...(entry.expected !== undefined ? { expected: entry.expected } : {}),
      ...(entry.strict ? { strict: true } : {}),
    };
  }
  writeFinding(test.info(), finding);
  if (finding.policy?.violated) {
    throw new Error(
      `Policy violation for finding ${finding.id}: ` +
        (entry?.strict ? `the policy makes this finding a failure (strict)` : `expected observed "${entry?.expected}"`) +
        `\nReceived: observed "${observed}"\nEvidence: ${finding.evidence}`,
    );
  }
  return finding;
}

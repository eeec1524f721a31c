/**
 * Findings: behaviour where the spec conflicts or is silent. Recorded on the test (annotation +
 * attachment, read by the summary reporter into reports/findings.json). A policy file can pin the
 * expected answer or promote a finding to a failure.
 */
import { readFileSync } from 'node:fs';
import { test } from '@playwright/test';
import { findingDefinition, type Finding } from '../../catalogue';
import { redact } from '../../clients/redact';

export interface PolicyEntry {
  /** The observed value this target must keep (regression pin). */
  expected?: string;
  /** Any occurrence of the finding fails the check. */
  strict?: boolean;
}
export interface Policy {
  findings?: Record<string, PolicyEntry>;
}

let policyCache: Policy | undefined;
export function loadPolicy(file: string | undefined): Policy {
  if (!file) return {};
  if (policyCache) return policyCache;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new Error(`POLICY=${file} cannot be read; expected a JSON file like policy/strict.example.json`);
  }
  try {
    policyCache = JSON.parse(text) as Policy;
  } catch {
    throw new Error(`POLICY=${file} is not valid JSON`);
  }
  return policyCache;
}

export const FINDING_ANNOTATION = 'finding';

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
  const info = test.info();
  info.annotations.push({ type: FINDING_ANNOTATION, description: JSON.stringify(finding) });
  if (finding.policy?.violated) {
    throw new Error(
      `Policy violation for finding ${finding.id}: ` +
        (entry?.strict ? `the policy makes this finding a failure (strict)` : `expected observed "${entry?.expected}"`) +
        `\nReceived: observed "${observed}"\nEvidence: ${finding.evidence}`,
    );
  }
  return finding;
}

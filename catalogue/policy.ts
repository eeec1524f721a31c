/**
 * The policy file (POLICY): pins the observed value of a finding (`expected`) or makes any occurrence a
 * failure (`strict`). Its JSON Schema is derived from the finding definitions, so a policy names only
 * known findings, known keys and answers a probe can record.
 */
import { findingDefinitions, type FindingDefinition } from './findings';
import type { JsonSchema } from './schemas';

export interface PolicyEntry {
  /** The observed value this target must keep (regression pin). */
  expected?: string;
  /** Any occurrence of the finding fails the check. */
  strict?: boolean;
}

export interface Policy {
  findings?: Record<string, PolicyEntry>;
}

const entrySchema = (d: FindingDefinition): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  properties: {
    expected: { type: 'string', enum: [...d.observedValues] },
    strict: { type: 'boolean' },
  },
});

export const policySchema: JsonSchema = {
  $id: 'policy',
  type: 'object',
  additionalProperties: false,
  properties: {
    findings: {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(findingDefinitions.map((d) => [d.id, entrySchema(d)])),
    },
  },
};

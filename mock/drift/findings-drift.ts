/**
 * Findings: behaviours where the spec's sources conflict or are silent, switched to their other
 * reading (each is one of the mock's settings, mock/ground/mock-layer.ts `SpecChoices`), or a silent refusal
 * dropped (a leniency).
 */
import type { DriftEffect, DriftId } from './index';

export const FINDING_DRIFT = {
  'finding.missing-header-accepted': { leniency: 'missing-required-header' },
  'finding.header-constraint-ignored': { leniency: 'header-beyond-constraints' },
  'finding.document-strict': { choice: { strictDocument: true } },
  'finding.reset-seconds': { choice: { resetUnit: 'seconds' } },
  'finding.token-get-rejected': { choice: { tokenGet: 'reject' } },
  'finding.token-get-accepted': { choice: { tokenGet: 'accept' } },
  // Ten years: far beyond the 24 h the spec's guidance gives a token.
  'finding.expires-in-long': { choice: { expiresInS: 315_360_000 } },
} as const satisfies { [id in DriftId]?: DriftEffect };

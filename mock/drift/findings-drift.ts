/**
 * Findings: behaviours where the spec's sources conflict or are silent, switched to their other
 * reading (each is one of the mock's settings, mock/layer/mock-layer.ts `Readings`), or a silent refusal
 * dropped (a leniency).
 */
import type { DriftEffect, DriftId } from './index';

export const FINDING_DRIFT = {
  'finding.missing-header-accepted': { leniency: 'missing-required-header' },
  'finding.header-constraint-ignored': { leniency: 'header-beyond-constraints' },
  'finding.document-strict': { reading: { strictDocument: true } },
  'finding.reset-seconds': { reading: { resetUnit: 'seconds' } },
  'finding.token-get-rejected': { reading: { tokenGet: 'reject' } },
  'finding.token-get-accepted': { reading: { tokenGet: 'accept' } },
  // Ten years: far beyond the 24 h the spec's guidance gives a token.
  'finding.expires-in-long': { reading: { expiresInS: 315_360_000 } },
} as const satisfies { [id in DriftId]?: DriftEffect };

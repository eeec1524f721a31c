/** Drift of the webhook receiver: events it should refuse, accepted. */
import type { DriftEffect, DriftId } from './index';

export const WEBHOOK_DRIFT = {
  'webhooks.invalid-accepted': { leniency: 'invalid-webhook-event' },
  'finding.webhook-signature-ignored': { leniency: 'wrong-webhook-signature' },
} as const satisfies { [id in DriftId]?: DriftEffect };

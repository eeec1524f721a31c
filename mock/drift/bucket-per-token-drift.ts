/**
 * Drift: a gateway keys its buckets on the access token, not on the API app. A new token of the same app
 * starts a fresh count, so an app that fetches tokens gets a bucket per token.
 */
import type { DriftEffect, DriftId } from './index';

export const BUCKET_PER_TOKEN_DRIFT = {
  'limits.bucket-per-token': { leniency: 'counter-per-token' },
} as const satisfies { [id in DriftId]?: DriftEffect };

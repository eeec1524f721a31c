/**
 * Drift: a gateway keys its buckets on the full request path, not on the endpoint. An operation called
 * for two ids (`/resellers/v6.1/orders/A`, `/resellers/v6.1/orders/B`) is counted twice apart.
 */
import type { DriftEffect, DriftId } from './index';

export const BUCKET_PER_PATH_DRIFT = {
  'limits.bucket-per-path': { leniency: 'counter-per-path' },
} as const satisfies { [id in DriftId]?: DriftEffect };

/**
 * Drift: a gateway keys its buckets on a path prefix, the resource whatever its version. Order search
 * (v6) and order details (v6.1) share one bucket: spending one refuses the other.
 */
import type { DriftEffect, DriftId } from './index';

export const BUCKET_PER_PREFIX_DRIFT = {
  'limits.bucket-per-prefix': { leniency: 'counter-per-path-prefix' },
} as const satisfies { [id in DriftId]?: DriftEffect };

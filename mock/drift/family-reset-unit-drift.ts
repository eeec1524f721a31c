/**
 * Drift: the vendor family reads X-RateLimit-Reset in another unit than the reseller family: seconds to wait where
 * the reseller family (and the conforming mock) gives an epoch time, as a vendor gateway of its own would. The seed
 * says the two families share "one rate-limit scheme".
 */
import { resetHeaderValue } from '../../catalogue';
import { HDR } from './answer';
import type { DriftEffect, DriftId } from './index';

/** The vendor family's paths, in either environment. */
const VENDOR_PATH = /^(\/sandbox)?\/vendors\//;

export const FAMILY_RESET_UNIT_DRIFT = {
  'headers.vendor-reset-seconds': {
    answer: (a) => {
      const d = a.decision;
      if (d && VENDOR_PATH.test(a.path) && a.header(HDR.reset) !== undefined)
        a.setHeader(HDR.reset, resetHeaderValue(d.windowEndMs, a.nowMs, 'seconds'));
    },
  },
} as const satisfies { [id in DriftId]?: DriftEffect };

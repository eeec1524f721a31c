/**
 * Drift of one family: the vendor family refuses a spent bucket with a plain-text body instead of the error body,
 * as a vendor gateway of its own might; the reseller family keeps the spec's. Only a vendor bucket spent shows it
 * (the seed: "When any rate limit is hit, the response status is 429 … with a JSON error body").
 */
import { TOO_MANY_REQUESTS_MESSAGE } from '../../catalogue/rules';
import type { DriftEffect, DriftId } from './index';

/** The vendor family's paths, in either environment. */
const VENDOR_PATH = /^(\/sandbox)?\/vendors\//;

export const VENDOR_429_DRIFT = {
  '429.vendor-plain-text': {
    answer: (a) => {
      if (a.status === 429 && VENDOR_PATH.test(a.path)) a.setText('text/plain', TOO_MANY_REQUESTS_MESSAGE);
    },
  },
} as const satisfies { [id in DriftId]?: DriftEffect };

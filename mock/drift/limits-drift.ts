/** Drift of the limits themselves: what is counted, how much, and when the count starts over. */
import { HDR } from './answer';
import type { DriftEffect, DriftId } from './index';

export const LIMIT_DRIFT = {
  'limits.extra-call': { leniency: 'call-beyond-limit' },
  'limits.shared-across-operations': { leniency: 'counter-per-app' },
  'limits.shared-across-apps': { leniency: 'counter-per-operation' },
  'limits.late-refill': { leniency: 'refill-after-reset' },
  'limits.get-61': { leniency: 'sixty-one-get-calls' },
  'limits.header-differs': {
    // Advertises 5 calls more than it enforces (and as many more remaining, but 0 on a 429).
    answer: (a) => {
      const limit = a.header(HDR.limit);
      const remaining = a.header(HDR.remaining);
      if (limit === undefined || remaining === undefined) return;
      a.setHeader(HDR.limit, Number(limit) + 5);
      if (a.status !== 429) a.setHeader(HDR.remaining, Number(remaining) + 5);
    },
  },
} as const satisfies { [id in DriftId]?: DriftEffect };

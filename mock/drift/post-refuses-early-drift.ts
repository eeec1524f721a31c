/**
 * Drift: a POST operation refuses before its advertised limit. Freight estimate advertises and counts its limit of
 * 500 (X-RateLimit-Limit 500, Remaining from 499) and refuses every call past the first 100 of a window with the
 * documented 429, as a gateway enforcing another limit than the one it advertises would.
 */
import { errorOf } from '../ground/errors';
import { HDR } from './answer';
import type { DriftEffect, DriftId } from './index';

/** The calls of a window freight estimate serves before it refuses. */
const SERVED = 100;

export const POST_REFUSES_EARLY_DRIFT = {
  'limits.post-refuses-early': {
    answer: (a) => {
      const [limit, remaining] = [a.header(HDR.limit), a.header(HDR.remaining)];
      if (a.operationId !== 'freight.estimate' || a.status >= 300 || limit === undefined || remaining === undefined) return;
      if (Number(limit) - Number(remaining) <= SERVED) return;
      a.status = 429;
      a.setHeader(HDR.remaining, 0);
      a.setJson(errorOf('tooManyRequests'));
    },
  },
} as const satisfies { [id in DriftId]?: DriftEffect };

/**
 * Drift of one environment: the sandbox answers as if it had no limiter. Its accepted calls all advertise
 * Remaining Limit - 1, the count of a window nobody spends; production keeps counting. Only a header
 * check run in the sandbox itself sees it.
 */
import { HDR } from './answer';
import type { DriftEffect, DriftId } from './index';

export const SANDBOX_FROZEN_DRIFT = {
  'headers.sandbox-frozen': {
    answer: (a) => {
      const limit = a.header(HDR.limit);
      if (limit !== undefined && a.path.startsWith('/sandbox/') && a.decision?.allowed) a.setHeader(HDR.remaining, Number(limit) - 1);
    },
  },
} as const satisfies { [id in DriftId]?: DriftEffect };

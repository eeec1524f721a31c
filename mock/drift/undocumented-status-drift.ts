/**
 * Drift: another 2xx than the documented one. Every operation's 200 answer leaves as 202 Accepted with
 * the same body, as a gateway or an asynchronous backend might answer; the published document gives 202
 * for none of them.
 */
import type { DriftEffect, DriftId } from './index';

const ACCEPTED = 202;

export const UNDOCUMENTED_STATUS_DRIFT = {
  'status.accepted-undocumented': {
    answer: (a) => {
      if (a.operationId !== undefined && a.status === 200) a.status = ACCEPTED;
    },
  },
} as const satisfies { [id in DriftId]?: DriftEffect };

/**
 * Drift: a created return its details do not know. Return create answers a case request number other
 * than the one it stored, as a backend that acknowledges a return it never keeps.
 */
import type { DriftEffect, DriftId } from './index';
import { otherKey } from './other-key-drift';

type Rec = Record<string, unknown>;

export const RETURN_UNKNOWN_DRIFT = {
  'writes.return-unknown': {
    answer: (a) => {
      if (a.operationId !== 'returns.create' || a.status >= 300) return;
      a.editObject((b) => {
        for (const c of Array.isArray(b.returnsClaims) ? (b.returnsClaims as Rec[]) : [])
          if (typeof c.caseRequestNumber === 'string') c.caseRequestNumber = otherKey(c.caseRequestNumber);
      });
    },
  },
} as const satisfies { [id in DriftId]?: DriftEffect };

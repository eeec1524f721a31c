/**
 * Drift: a modify acknowledged that does not take effect. The modify answer echoes the change, but order
 * details read the order back without it: its notes as the order was created (none kept).
 */
import type { DriftEffect, DriftId } from './index';

export const MODIFY_IGNORED_DRIFT = {
  'writes.modify-ignored': {
    answer: (a) => {
      if (a.operationId === 'orders.details' && a.status < 300)
        a.editObject((b) => {
          if (typeof b.notes === 'string') b.notes = '';
        });
    },
  },
} as const satisfies { [id in DriftId]?: DriftEffect };

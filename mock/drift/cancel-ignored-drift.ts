/**
 * Drift: a cancel acknowledged that does not take effect. Order details (and order search) read a
 * cancelled order back as still processing, as a backend that answers the cancel and changes nothing.
 */
import type { DriftEffect, DriftId } from './index';

type Rec = Record<string, unknown>;
const CANCELLED = /^cancel+ed$/i;
const PROCESSING = 'PROCESSING';

/** The order as if never cancelled: its status and its lines' statuses. */
function uncancelled(o: Rec): void {
  if (typeof o.orderStatus === 'string' && CANCELLED.test(o.orderStatus)) o.orderStatus = PROCESSING;
  for (const l of Array.isArray(o.lines) ? (o.lines as Rec[]) : [])
    if (typeof l.lineStatus === 'string' && CANCELLED.test(l.lineStatus)) l.lineStatus = 'Processing';
}

export const CANCEL_IGNORED_DRIFT = {
  'writes.cancel-ignored': {
    answer: (a) => {
      if (a.status >= 300) return;
      if (a.operationId === 'orders.details') a.editObject(uncancelled);
      if (a.operationId === 'orders.search')
        a.editObject((b) => {
          for (const o of Array.isArray(b.orders) ? (b.orders as Rec[]) : []) uncancelled(o);
        });
    },
  },
} as const satisfies { [id in DriftId]?: DriftEffect };

/**
 * Drift: order search ignores its documented customerOrderNumber filter ("Search using your PO/Order number") and
 * lists the orders of other customer order numbers too; its other filters keep working. One place of the fact "a
 * search's documented filter: every item listed matches it".
 */
import type { DriftEffect, DriftId } from './index';
import { otherKey } from './other-key-drift';

type Rec = Record<string, unknown>;

export const CUSTOMER_ORDER_FILTER_IGNORED_DRIFT = {
  'answers.customer-order-number-ignored': {
    answer: (a) => {
      if (a.operationId !== 'orders.search' || a.status >= 300 || a.queryValue('customerOrderNumber') === undefined) return;
      a.editObject((b) => {
        const orders = b.orders;
        const first = Array.isArray(orders) ? (orders[0] as Rec | undefined) : undefined;
        if (!first || typeof first.customerOrderNumber !== 'string') return;
        b.orders = [...(orders as Rec[]), { ...first, customerOrderNumber: otherKey(first.customerOrderNumber) }];
      });
    },
  },
} as const satisfies { [id in DriftId]?: DriftEffect };

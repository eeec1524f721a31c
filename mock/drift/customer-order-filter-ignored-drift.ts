/**
 * Drift: order search ignores its documented customerOrderNumber filter ("Search using your PO/Order number") and
 * lists the orders of other customer order numbers too; its other filters keep working. One place of the fact "a
 * search's documented filter: every item listed matches it".
 */
import type { DriftEffect, DriftId } from './index';
import { listOneNotMatching } from './filter-ignored-drift';

export const CUSTOMER_ORDER_FILTER_IGNORED_DRIFT = {
  'answers.customer-order-number-ignored': {
    answer: (a) => {
      if (a.operationId !== 'orders.search' || a.status >= 300 || a.queryValue('customerOrderNumber') === undefined) return;
      listOneNotMatching(a, { items: 'orders', field: 'customerOrderNumber' });
    },
  },
} as const satisfies { [id in DriftId]?: DriftEffect };

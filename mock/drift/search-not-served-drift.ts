/**
 * Drift: an environment that lacks an operation. The sandbox answers deal search, a request that names
 * no data of the target, with the mock's 404 for an unknown path; production serves it.
 */
import { errorOf } from '../ground/errors';
import type { DriftEffect, DriftId } from './index';

export const SEARCH_NOT_SERVED_DRIFT = {
  'routing.sandbox-search-not-served': {
    answer: (a) => {
      if (a.operationId !== 'deals.search' || !a.path.startsWith('/sandbox/')) return;
      a.status = 404;
      a.setJson(errorOf('noRoute'));
    },
  },
} as const satisfies { [id in DriftId]?: DriftEffect };

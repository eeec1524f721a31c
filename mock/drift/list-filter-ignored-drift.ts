/**
 * Drift: the searches ignore their documented list filters (`orderStatus-in`, `returnStatus-in`: "comma-separated
 * values") and list items of other values too, as a backend that reads only single-value filters would; their
 * single-value filters keep working. One kind of place of the fact "a search's documented filter: every item listed
 * matches it".
 */
import { ANSWER_FACTS, filteredField, isOperationId } from '../../catalogue';
import { isListFilter } from '../api/search';
import type { DriftEffect, DriftId } from './index';
import { listOneNotMatching } from './filter-ignored-drift';

export const LIST_FILTER_IGNORED_DRIFT = {
  'answers.list-filter-ignored': {
    answer: (a) => {
      const id = a.operationId;
      if (id === undefined || !isOperationId(id) || a.status >= 300) return;
      for (const f of ANSWER_FACTS[id].filters)
        if (isListFilter(f.query) && a.queryValue(f.query) !== undefined) listOneNotMatching(a, filteredField(f));
    },
  },
} as const satisfies { [id in DriftId]?: DriftEffect };

/**
 * Drift: a search's recordsFound counts the entries of the page it answers, not the records the search
 * found: a first full page says the search found no more than it lists, and the next page contradicts it.
 */
import type { DriftEffect, DriftId } from './index';
import { pagedAnswer } from './paged-answer';

export const RECORDS_FOUND_WRONG_DRIFT = {
  'paging.records-found-wrong': {
    answer: (a) => {
      const page = pagedAnswer(a);
      if (page) a.editObject((b) => (b.recordsFound = page.items.length));
    },
  },
} as const satisfies { [id in DriftId]?: DriftEffect };

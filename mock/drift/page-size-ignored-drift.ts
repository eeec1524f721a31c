/**
 * Drift: a search ignores the page size asked and answers a page of its default size (25): a page asked
 * smaller than what the search found lists more entries than asked, each added one a copy of an entry
 * listed with another key, and names the default size as its pageSize.
 */
import { DEFAULT_PAGE_SIZE } from '../../catalogue/paging';
import type { DriftEffect, DriftId } from './index';
import { otherKey } from './other-key-drift';
import { pagedAnswer, type Rec } from './paged-answer';

export const PAGE_SIZE_IGNORED_DRIFT = {
  'paging.page-size-ignored': {
    answer: (a) => {
      const page = pagedAnswer(a);
      const asked = page?.askedSize;
      if (!page || !asked || asked >= DEFAULT_PAGE_SIZE || page.items.length === 0) return;
      const { list, id } = page.search;
      a.editObject((b) => {
        const found = typeof b.recordsFound === 'number' ? b.recordsFound : page.items.length;
        const wanted = Math.min(DEFAULT_PAGE_SIZE, found - (page.askedNumber - 1) * asked);
        const items: Rec[] = [...page.items];
        for (let i = 0; items.length < wanted; i++) {
          const copy = page.items[i % page.items.length] as Rec;
          items.push({ ...copy, [id]: typeof copy[id] === 'string' ? otherKey(`${copy[id]}${i}`) : copy[id] });
        }
        b[list] = items;
        b.pageSize = DEFAULT_PAGE_SIZE;
      });
    },
  },
} as const satisfies { [id in DriftId]?: DriftEffect };

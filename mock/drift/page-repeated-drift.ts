/**
 * Drift: a search ignores the page number asked: every page after the first lists the first page's
 * entries again (the first page each search, as asked apart from its page number, answered last).
 */
import { PAGE_QUERY } from '../../catalogue/paging';
import type { DriftEffect, DriftId } from './index';
import { pagedAnswer, type Rec } from './paged-answer';

/** The first pages remembered, by path and query apart from the page number; the oldest forgotten past this many. */
const REMEMBERED = 200;
const firstPages = new Map<string, Rec[]>();

export const PAGE_REPEATED_DRIFT = {
  'paging.page-repeated': {
    answer: (a) => {
      const page = pagedAnswer(a);
      if (!page) return;
      const key = `${a.path} ${a.queryWithout([PAGE_QUERY.number])}`;
      if (page.askedNumber === 1) {
        firstPages.delete(key);
        firstPages.set(key, page.items);
        if (firstPages.size > REMEMBERED) firstPages.delete(firstPages.keys().next().value as string);
        return;
      }
      const first = firstPages.get(key);
      if (first) a.editObject((b) => (b[page.search.list] = first));
    },
  },
} as const satisfies { [id in DriftId]?: DriftEffect };

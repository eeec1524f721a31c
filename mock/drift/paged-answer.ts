/** A successful answer of a search the published document pages, as the paging drift modes read it. */
import { PAGED_SEARCHES, PAGE_QUERY, isPagedSearch, type PagedSearch } from '../../catalogue/paging';
import type { Answer } from './answer';

export type Rec = Record<string, unknown>;

export interface PagedAnswer {
  search: PagedSearch;
  /** The page size the call asked (undefined when it asked none). */
  askedSize: number | undefined;
  /** The page number the call asked (1 when it asked none). */
  askedNumber: number;
  /** The page's entries as the mock answered them. */
  items: Rec[];
}

/** The paged answer of a search's successful call with a JSON list; undefined for any other answer. */
export function pagedAnswer(a: Answer): PagedAnswer | undefined {
  const id = a.operationId;
  if (id === undefined || !isPagedSearch(id) || a.status >= 300) return undefined;
  const search: PagedSearch = PAGED_SEARCHES[id];
  const items = a.object()?.[search.list];
  if (!Array.isArray(items)) return undefined;
  const size = Number(a.queryValue(PAGE_QUERY.size));
  return {
    search,
    askedSize: Number.isInteger(size) && size > 0 ? size : undefined,
    askedNumber: Math.max(1, Math.floor(Number(a.queryValue(PAGE_QUERY.number))) || 1),
    items: items as Rec[],
  };
}

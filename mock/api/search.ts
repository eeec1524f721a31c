/**
 * One shape for every search of the mock: the records of its state that pass each filter the call gives,
 * each as its summary view, one page of them (query.ts `paged`). The documented id filters come from the
 * catalogue (catalogue/answers.ts `filters`: the query parameter, and through idSources the list and the
 * field its entries carry); a search adds the filters the document gives without an exact fact.
 */
import { ANSWER_FACTS, PAGE_QUERY, filteredField, type OperationId } from '../../catalogue';
import { MockState } from './state';
import { all, first, paged } from './query';
import { ok, type CallContext, type Handler } from './handlers/handler';

const { eq, has } = MockState.matches;

/** A filter of a search: true when the call does not ask for it or the record matches. */
export type RecordFilter<T> = (record: T, c: CallContext) => boolean;

/** A record's field as text, for filters on it. */
type Field<T> = (record: T) => string | number | undefined;

/** The record's field equals the query parameter (any case). */
export const equals =
  <T>(param: string, field: Field<T>): RecordFilter<T> =>
  (r, c) =>
    eq(field(r), first(c.query, param));

/** The record's field contains the query parameter (any case). */
export const contains =
  <T>(param: string, field: (record: T) => string): RecordFilter<T> =>
  (r, c) =>
    has(field(r), first(c.query, param));

/** The record's field equals one of the values of these query parameters (repeated or comma-separated), when any is given. */
export const oneOf =
  <T>(params: readonly string[], field: Field<T>): RecordFilter<T> =>
  (r, c) => {
    const values = params.flatMap((p) => all(c.query, p));
    return !values.length || values.some((v) => eq(field(r), v));
  };

export interface Search<T> {
  /** The records searched. */
  records: (state: MockState) => Iterable<T>;
  /** The list of the answer (for a search with documented filters, the catalogue's). */
  list: string;
  /** The filters the document gives beyond its id filters. */
  filters?: readonly RecordFilter<T>[];
  view: (record: T) => object;
  /** The query parameters of a page: the document's pageNumber and pageSize unless the search names others. */
  page?: { number: string; size: string };
}

/** The documented id filters of a search (catalogue/answers.ts), on the record field of the same name as the answer's. */
function idFilters<T>(id: OperationId): RecordFilter<T>[] {
  return ANSWER_FACTS[id].filters.map((f) => equals<T>(f.query, (r) => (r as Record<string, string | undefined>)[filteredField(f).field]));
}

/** The handler of a search: records → filters → views → one page. */
export function searchHandler<T>(id: OperationId, s: Search<T>): Handler {
  const filters = [...idFilters<T>(id), ...(s.filters ?? [])];
  const page = s.page ?? PAGE_QUERY;
  return (c) => {
    const items = [...s.records(c.state)].filter((r) => filters.every((f) => f(r, c))).map(s.view);
    return ok(paged(s.list, items, first(c.query, page.number), first(c.query, page.size)));
  };
}

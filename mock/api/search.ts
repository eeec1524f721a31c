/**
 * One shape for every search of the mock: the records of its state that pass each filter of its own the call gives,
 * each as its summary view, then the views that pass each documented filter (catalogue/answers.ts `filters`: the
 * query parameter and the answer field each listed item carries), one page of them (query.ts `paged`). A documented
 * filter is judged on the field as the answer lists it, the value certify compares; a search adds the filters the
 * document gives without an exact fact.
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
  /** The filters the document gives without an exact fact (catalogue/answers.ts), on the records. */
  filters?: readonly RecordFilter<T>[];
  view: (record: T) => object;
  /** The query parameters of a page: the document's pageNumber and pageSize unless the search names others. */
  page?: { number: string; size: string };
}

/** The document's convention for a filter taking a list: `returnStatus-in=Open,Approved`, any of which matches. */
export const isListFilter = (query: string): boolean => query.endsWith('-in');

/** The documented filters of a search (catalogue/answers.ts), on the answer field each listed item carries. */
function documentedFilters(id: OperationId): RecordFilter<Record<string, unknown>>[] {
  return ANSWER_FACTS[id].filters.map((f) => {
    const field = (item: Record<string, unknown>) => item[filteredField(f).field] as string | number | undefined;
    if (f.inPart) return contains(f.query, (item) => String(field(item) ?? ''));
    return isListFilter(f.query) ? oneOf([f.query], field) : equals(f.query, field);
  });
}

/** The handler of a search: records → its own filters → views → documented filters → one page. */
export function searchHandler<T>(id: OperationId, s: Search<T>): Handler {
  const documented = documentedFilters(id);
  const own = s.filters ?? [];
  const page = s.page ?? PAGE_QUERY;
  return (c) => {
    const items = [...s.records(c.state)]
      .filter((r) => own.every((f) => f(r, c)))
      .map((r) => s.view(r) as Record<string, unknown>)
      .filter((v) => documented.every((f) => f(v, c)));
    return ok(paged(s.list, items, first(c.query, page.number), first(c.query, page.size)));
  };
}

/**
 * What two pages of one search must say, by the published document (catalogue/paging.ts): at most
 * `pageSize` entries, the answer's `pageSize` and `pageNumber` as asked where it gives them, the second page
 * not the first again, and `recordsFound` the count the pages hold. Pure functions over the answers.
 */
import type { PagedSearch } from '../../catalogue/paging';
import { valueAt } from '../../clients/ids';

export interface Page {
  /** The page size and number asked. */
  size: number;
  number: number;
  /** The entries of the answer's list (none when it has no list). */
  items: unknown[];
  /** The key of each entry (its id field), in order. */
  keys: string[];
  /** The answer's paging fields, where it gives them as integers (or integer strings). */
  recordsFound: number | undefined;
  pageSize: number | undefined;
  pageNumber: number | undefined;
}

const intOf = (v: unknown): number | undefined => {
  const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) ? n : undefined;
};

/** The page an answer gives for `size` and `number` asked. */
export function pageOf(json: unknown, search: PagedSearch, size: number, number: number): Page {
  const list = valueAt(json, [search.list]);
  const items = Array.isArray(list) ? (list as unknown[]) : [];
  return {
    size,
    number,
    items,
    keys: items.map((e) => String(valueAt(e, [search.id]))),
    recordsFound: intOf(valueAt(json, ['recordsFound'])),
    pageSize: intOf(valueAt(json, ['pageSize'])),
    pageNumber: intOf(valueAt(json, ['pageNumber'])),
  };
}

/** The page's own facts broken: entries beyond the size asked, pageSize or pageNumber other than asked. */
export function pageProblems(p: Page): string[] {
  const problems: string[] = [];
  if (p.items.length > p.size) problems.push(`page ${p.number} lists ${p.items.length} entries where pageSize ${p.size} was asked`);
  if (p.pageSize !== undefined && p.pageSize !== p.size)
    problems.push(`page ${p.number} answers pageSize ${p.pageSize} where ${p.size} was asked`);
  if (p.pageNumber !== undefined && p.pageNumber !== p.number)
    problems.push(`page ${p.number} answers pageNumber ${p.pageNumber} where ${p.number} was asked`);
  return problems;
}

/** The entries a page of `size` holds at `number` when the search found `found`. */
export const entriesOnPage = (found: number, size: number, number: number): number =>
  Math.max(0, Math.min(size, found - (number - 1) * size));

/** Where the page's recordsFound contradicts the entries it lists; null when it agrees or gives none. */
export function recordsFoundProblem(p: Page): string | null {
  if (p.recordsFound === undefined) return null;
  const expected = entriesOnPage(p.recordsFound, p.size, p.number);
  return p.items.length === expected
    ? null
    : `page ${p.number} (pageSize ${p.size}) lists ${p.items.length} entries where recordsFound ${p.recordsFound} leaves ${expected} for it`;
}

/** The second page lists the first page's entries again, in the same order. */
export const repeatsPage = (first: Page, second: Page): boolean =>
  second.keys.length > 0 && second.keys.length === first.keys.length && second.keys.every((k, i) => k === first.keys[i]);

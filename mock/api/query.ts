/** Reading a request's query and paging a list answer. */
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../catalogue/paging';

export type Query = Record<string, string | string[] | undefined>;

/** The first value of a query parameter (repeated parameters arrive as arrays). */
export function first(q: Query, name: string): string | undefined {
  const v = q[name];
  return Array.isArray(v) ? v[0] : v;
}
/** Every value of a query parameter, also comma-separated ones. */
export function all(q: Query, name: string): string[] {
  const v = q[name];
  return (Array.isArray(v) ? v : v === undefined ? [] : [v]).flatMap((x) => x.split(',')).filter(Boolean);
}

/**
 * One page of a list as the published document gives it: `pageNumber` from 1, `pageSize` records at most
 * (default 25, at most 100); `recordsFound` counts the whole list, whatever page is asked.
 */
export function paged<T>(key: string, items: readonly T[], pageNumber?: string, pageSize?: string): Record<string, unknown> {
  const size = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(Number(pageSize)) || DEFAULT_PAGE_SIZE));
  const n = Math.max(1, Math.floor(Number(pageNumber)) || 1);
  const pages = Math.max(1, Math.ceil(items.length / size));
  return {
    recordsFound: items.length,
    pageSize: size,
    pageNumber: n,
    [key]: items.slice((n - 1) * size, n * size),
    ...(n < pages ? { nextPage: `pageNumber=${n + 1}&pageSize=${size}` } : {}),
    ...(n > 1 ? { previousPage: `pageNumber=${n - 1}&pageSize=${size}` } : {}),
  };
}

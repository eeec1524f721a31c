/** Reading a request's query and paging a list answer. */
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

/** One page of a list; `pageNumber` from 1, `pageSize` default 25 (at most 100). */
export function paged<T>(key: string, items: readonly T[], pageNumber?: string, pageSize?: string): Record<string, unknown> {
  const size = Math.min(100, Math.max(1, Number(pageSize) || 25));
  const n = Math.max(1, Number(pageNumber) || 1);
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

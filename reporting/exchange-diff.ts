/**
 * The exchanges of a check whose verdict changed since a baseline run, paired with the baseline's (by request:
 * method and URL path with its query, in the order sent) and what differs between them: the status, the headers
 * present and their values, the answer's JSON fields. Read from both runs' exchanges.har: nothing is sent again.
 */
import type { HarEntry } from './har-shapes';
import type { CheckStatus, RunSummary } from './report-shapes';

/** One request of the check in both runs, and what its answers differ in. */
export interface ExchangeChange {
  request: string;
  status?: { before: number | null; after: number | null };
  headers: string[];
  fields: string[];
}

/** A check whose verdict changed, with its exchanges that differ. */
export interface CheckChange {
  title: string;
  file: string;
  before: CheckStatus;
  after: CheckStatus;
  exchanges: ExchangeChange[];
}

/** Headers whose values are fresh on every answer: they differ without telling anything. */
const VOLATILE_HEADERS = new Set([
  'date',
  'content-length',
  'etag',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'im-correlationid',
  'keep-alive',
]);

/** A request as the pairing sees it: method, path and query (the origin may differ between runs). */
const requestOf = (e: HarEntry): string => {
  const u = new URL(e.request.url);
  return `${e.request.method} ${u.pathname}${u.search}`;
};

/** The answer's JSON fields as `path: value` of its leaves (arrays by index); none when the body is not JSON. */
function fieldsOf(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (v: unknown, at: string): void => {
    if (v !== null && typeof v === 'object') {
      for (const [k, child] of Object.entries(v as Record<string, unknown>)) walk(child, at ? `${at}.${k}` : k);
    } else out.set(at || '(body)', JSON.stringify(v));
  };
  try {
    walk(JSON.parse(text), '');
  } catch {
    return out;
  }
  return out;
}

/** Entries of `before` and `after` that differ, as `name: before → after` (absent as —). */
function differences(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
  skip: (k: string) => boolean = () => false,
): string[] {
  const keys = [...new Set([...before.keys(), ...after.keys()])].filter((k) => !skip(k)).sort();
  return keys.filter((k) => before.get(k) !== after.get(k)).map((k) => `${k}: ${before.get(k) ?? '—'} → ${after.get(k) ?? '—'}`);
}

const headersOf = (e: HarEntry | undefined): Map<string, string> =>
  new Map((e?.response.headers ?? []).map((h) => [h.name.toLowerCase(), h.value]));

/** What differs between the answers to one request in the two runs; undefined when nothing does. */
function exchangeChange(request: string, before: HarEntry | undefined, after: HarEntry | undefined): ExchangeChange | undefined {
  const status = (before?.response.status ?? null) !== (after?.response.status ?? null);
  const headers = differences(headersOf(before), headersOf(after), (k) => VOLATILE_HEADERS.has(k));
  const fields = differences(fieldsOf(before?.response.content.text ?? ''), fieldsOf(after?.response.content.text ?? ''));
  if (!status && !headers.length && !fields.length) return undefined;
  return {
    request,
    ...(status ? { status: { before: before?.response.status ?? null, after: after?.response.status ?? null } } : {}),
    headers,
    fields,
  };
}

/** A check's exchanges paired by request, in the order sent: the n-th of a request with the n-th of the same. */
function paired(before: readonly HarEntry[], after: readonly HarEntry[]): [string, HarEntry | undefined, HarEntry | undefined][] {
  const keyed = (entries: readonly HarEntry[]) => {
    const seen = new Map<string, number>();
    return new Map(
      entries.map((e) => {
        const r = requestOf(e);
        const n = (seen.get(r) ?? 0) + 1;
        seen.set(r, n);
        return [`${r}#${n}`, e] as const;
      }),
    );
  };
  const b = keyed(before);
  const a = keyed(after);
  return [...new Set([...b.keys(), ...a.keys()])].map((k) => [k.replace(/#\d+$/, ''), b.get(k), a.get(k)]);
}

const ownOf = (entries: readonly HarEntry[], t: { title: string; file: string }) =>
  entries.filter((e) => e._check === t.title && e._file === t.file);

/** The checks whose verdict changed between the runs, each with its exchanges that differ. */
export function changedChecks(
  base: RunSummary,
  baseHar: readonly HarEntry[],
  current: RunSummary,
  currentHar: readonly HarEntry[],
): CheckChange[] {
  const before = new Map(base.tests.map((t) => [`${t.file}\n${t.title}`, t]));
  return current.tests.flatMap((t) => {
    const was = before.get(`${t.file}\n${t.title}`);
    if (!was || was.status === t.status) return [];
    const exchanges = paired(ownOf(baseHar, was), ownOf(currentHar, t)).flatMap(([request, b, a]) => exchangeChange(request, b, a) ?? []);
    return [{ title: t.title, file: t.file, before: was.status, after: t.status, exchanges }];
  });
}

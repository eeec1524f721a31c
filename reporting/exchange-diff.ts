/**
 * The exchanges of a check whose verdict changed since a baseline run, paired with the baseline's (by request:
 * method and URL path with its query, in the order sent) and what differs between them of what the checks judge:
 * the status, the judged headers as the checks read them, the answer's fields by type and, where a check judges
 * it, by value (judged-fields.ts). Read from both runs' exchanges.har: nothing is sent again.
 */
import { detectResetUnit, intHeader, RATE_LIMIT_HEADERS } from '../catalogue';
import type { HarEntry } from './har-shapes';
import { judgedFieldsOf } from './judged-fields';
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

/**
 * The answer headers the checks judge, each as the checks read it: the rate-limit headers (present, integers,
 * Remaining within Limit, Reset's unit) and Content-Type (a JSON answer). Remaining counts down and Reset moves with
 * the clock, so each is compared as read, not by value. No check judges another header (Date, ETag, Content-Length,
 * IM-CorrelationID, ids): a fresh value of one is no change.
 */
const JUDGED_HEADERS: Readonly<Record<string, (value: string, limit: number | null) => string>> = {
  [RATE_LIMIT_HEADERS.limit]: (v) => v,
  [RATE_LIMIT_HEADERS.remaining]: (v, limit) => {
    const n = intHeader(v);
    if (n === null) return `"${v}", not an integer`;
    return limit !== null && n > limit ? `${n}, above ${RATE_LIMIT_HEADERS.limit} ${limit}` : 'an integer within the limit';
  },
  [RATE_LIMIT_HEADERS.reset]: (v) => {
    const n = intHeader(v);
    return n === null ? `"${v}", not an integer` : `an integer (${detectResetUnit(n)})`;
  },
  'Content-Type': (v) => v,
};

/** The judged headers of an answer as the checks read them, by the names the spec writes. */
function judgedHeadersOf(e: HarEntry | undefined): Map<string, string> {
  const byName = new Map((e?.response.headers ?? []).map((h) => [h.name.toLowerCase(), h.value]));
  const limit = intHeader(byName.get(RATE_LIMIT_HEADERS.limit.toLowerCase()));
  const out = new Map<string, string>();
  for (const [name, read] of Object.entries(JUDGED_HEADERS)) {
    const v = byName.get(name.toLowerCase());
    if (v !== undefined) out.set(name, read(v, limit));
  }
  return out;
}

/** Entries of `before` and `after` that differ, as `name: before → after` (absent as —). */
function differences(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): string[] {
  const keys = [...new Set([...before.keys(), ...after.keys()])].sort();
  return keys.filter((k) => before.get(k) !== after.get(k)).map((k) => `${k}: ${before.get(k) ?? '—'} → ${after.get(k) ?? '—'}`);
}

/** What differs between the answers to one request in the two runs, of what the checks judge; undefined when nothing does. */
function exchangeChange(request: string, before: HarEntry | undefined, after: HarEntry | undefined): ExchangeChange | undefined {
  const status = (before?.response.status ?? null) !== (after?.response.status ?? null);
  const headers = differences(judgedHeadersOf(before), judgedHeadersOf(after));
  const fields = differences(judgedFieldsOf(before), judgedFieldsOf(after));
  if (!status && !headers.length && !fields.length) return undefined;
  return {
    request,
    ...(status ? { status: { before: before?.response.status ?? null, after: after?.response.status ?? null } } : {}),
    headers,
    fields,
  };
}

/** A request as the pairing sees it: method, path and query (the origin may differ between runs). */
const requestOf = (e: HarEntry): string => {
  const u = new URL(e.request.url);
  return `${e.request.method} ${u.pathname}${u.search}`;
};

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

/**
 * What the checks judge of an answer's JSON body, as a map to compare between two runs: the type of every field
 * (the schema judges presence and type), and the value only of the fields a check of the operation judges by value:
 * the paging fields and the entries of a paged search's list (catalogue/paging.ts), the fields the answer echoes
 * from its request and those a search filters on, when it was asked to (catalogue/answers.ts). An echoed or
 * filtered value reads as "the value asked" when the request carried it: an id the target made up, a timestamp or
 * a description differs between runs without telling anything.
 */
import {
  ANSWER_FACTS,
  environmentRoot,
  fieldPath,
  filteredField,
  isPagedSearch,
  PAGE_QUERY,
  PAGED_SEARCHES,
  resellerOperations,
  type OperationId,
} from '../catalogue';
import type { HarEntry } from './har-shapes';

/** The catalogue's operations with their path as a regular expression (in any environment), most literal first. */
const ROUTES = resellerOperations
  .map((op) => {
    const escaped = op.path
      .split(/\{[^}]+\}/)
      .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
      .join('[^/]+');
    const roots = Object.values(environmentRoot).filter(Boolean).join('|');
    return {
      id: op.id,
      method: op.method,
      re: new RegExp(`^(?:${roots})?${escaped}/?$`),
      literal: op.path.replace(/\{[^}]+\}/g, '').length,
    };
  })
  .sort((a, b) => b.literal - a.literal);

/** The catalogued operation a request called; undefined for a token request or a path the catalogue does not know. */
const operationOf = (method: string, pathname: string): OperationId | undefined =>
  ROUTES.find((r) => r.method === method && r.re.test(pathname))?.id;

/**
 * What a check judges of one operation's answer beyond the types: fields (as `catalog[].id`) by their value, or by
 * whether they carry the value asked (echoes, filters), and lists by their entries.
 */
interface Judged {
  values: ReadonlyMap<string, 'value' | 'asked'>;
  lists: ReadonlySet<string>;
}

/** The fields and lists of an answer a check of its operation judges, for the request's query. */
function judgedOf(op: OperationId | undefined, query: URLSearchParams): Judged {
  if (!op) return { values: new Map(), lists: new Set() };
  const facts = ANSWER_FACTS[op];
  const paging = isPagedSearch(op) ? ['recordsFound', ...Object.values(PAGE_QUERY)] : [];
  const filtered = facts.filters.filter((f) => query.has(f.query)).map((f) => `${filteredField(f).items}[].${filteredField(f).field}`);
  const asked = [...facts.echoes.map((e) => fieldPath(e.answered)), ...filtered];
  return {
    values: new Map([...paging.map((p) => [p, 'value'] as const), ...asked.map((p) => [p, 'asked'] as const)]),
    lists: new Set(isPagedSearch(op) ? [PAGED_SEARCHES[op].list] : []),
  };
}

/** A path segment decoded; as sent when it is not valid percent-encoding. */
const decoded = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** Every value a request carried: its path segments, its query's values, the leaves of its JSON body. */
function askedOf(e: HarEntry, url: URL): Set<string> {
  const asked = new Set([...url.pathname.split('/').map(decoded), ...url.searchParams.values()]);
  const walk = (v: unknown): void => {
    if (v !== null && typeof v === 'object') Object.values(v as Record<string, unknown>).forEach(walk);
    else if (typeof v === 'string' || typeof v === 'number') asked.add(String(v));
  };
  try {
    walk(JSON.parse(e.request.postData?.text ?? 'null'));
  } catch {
    // A body that is not JSON carries no field a check compares with.
  }
  return asked;
}

const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/**
 * What the checks judge of the answer of `e`, by path; none when its body is not JSON or there is no answer. A field
 * judged by value outside any list has one path for its type and its value: the value stands for both (`2`, `"2"`).
 */
export function judgedFieldsOf(e: HarEntry | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!e) return out;
  const url = new URL(e.request.url);
  const judged = judgedOf(operationOf(e.request.method, url.pathname), url.searchParams);
  const asked = askedOf(e, url);
  const walk = (v: unknown, at: string, shape: string): void => {
    const types = new Set([...(out.get(shape || '(body)')?.split(' | ') ?? []), typeOf(v)]);
    out.set(shape || '(body)', [...types].sort().join(' | '));
    const by = judged.values.get(shape);
    if (by && (v === null || typeof v !== 'object'))
      out.set(at, by === 'asked' && asked.has(String(v)) ? 'the value asked' : JSON.stringify(v));
    if (Array.isArray(v)) {
      if (judged.lists.has(shape)) out.set(`${shape} (entries)`, String(v.length));
      v.forEach((child, i) => walk(child, `${at}[${i}]`, `${shape}[]`));
    } else if (v !== null && typeof v === 'object')
      for (const [k, child] of Object.entries(v as Record<string, unknown>))
        walk(child, at ? `${at}.${k}` : k, shape ? `${shape}.${k}` : k);
  };
  try {
    walk(JSON.parse(e.response.content.text), '', '');
  } catch {
    return out;
  }
  return out;
}

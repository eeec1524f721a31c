/**
 * Drift modes: each breaks exactly one documented fact of the spec (kind 'failure'), or switches a
 * conflicting or silent behaviour to its other reading (kind 'finding'). The contract suite's
 * detection matrix proves every one is caught.
 *
 * Drift is a layer over the conforming mock (drift-layer.ts): each mode is one entry of a group file here,
 * either a transform of the mock's answers, a leniency the mock is asked for at one of its decision
 * points (mock/ground/mock-layer.ts names them), or the other reading of one of its spec choices.
 */
import type { LeniencyId, SpecChoices } from '../ground/mock-layer';
import type { AnswerTransform } from './answer';

export interface DriftMode {
  readonly id: string;
  readonly group:
    | 'tokens'
    | 'headers'
    | '429'
    | 'limits'
    | 'auth'
    | 'routing'
    | 'webhooks'
    | 'shapes'
    | 'findings'
    | 'answers'
    | 'writes'
    | 'paging'
    | 'inputs';
  /** The fact it breaks, in the spec's words. */
  readonly breaks: string;
  readonly kind: 'failure' | 'finding';
}

export const DRIFT_MODES = [
  { id: 'token.type-not-bearer', group: 'tokens', breaks: 'token_type is always Bearer', kind: 'failure' },
  { id: 'token.expires-in-string', group: 'tokens', breaks: 'expires_in is an integer', kind: 'failure' },
  { id: 'token.access-token-missing', group: 'tokens', breaks: 'the token response contains access_token', kind: 'failure' },
  { id: 'token.wrong-secret-accepted', group: 'tokens', breaks: 'a token needs the app client secret', kind: 'failure' },
  { id: 'token.json-body-accepted', group: 'tokens', breaks: 'the token request is application/x-www-form-urlencoded', kind: 'failure' },
  {
    id: 'token.no-ratelimit-headers',
    group: 'tokens',
    breaks: 'every API response carries the X-RateLimit headers (token)',
    kind: 'failure',
  },
  {
    id: 'token.refused-early',
    group: 'tokens',
    breaks: 'silent: a token refused seconds after its first use, long before expires_in and the 24 h guidance',
    kind: 'finding',
  },
  { id: 'headers.limit-missing-2xx', group: 'headers', breaks: 'every response carries X-RateLimit-Limit (2xx)', kind: 'failure' },
  { id: 'headers.all-missing-4xx', group: 'headers', breaks: 'every response carries the X-RateLimit headers (4xx)', kind: 'failure' },
  { id: 'headers.remaining-not-decreasing', group: 'headers', breaks: 'X-RateLimit-Remaining counts the requests left', kind: 'failure' },
  {
    id: 'headers.remaining-rising',
    group: 'headers',
    breaks: 'X-RateLimit-Remaining counts the requests left (never rises)',
    kind: 'failure',
  },
  {
    id: 'headers.remaining-step-two',
    group: 'headers',
    breaks: 'X-RateLimit-Remaining counts the requests left (one less per accepted call)',
    kind: 'failure',
  },
  {
    id: 'headers.remaining-after-zero',
    group: 'headers',
    breaks: 'X-RateLimit-Remaining counts the requests left (no call is accepted after 0)',
    kind: 'failure',
  },
  {
    id: 'headers.sandbox-frozen',
    group: 'headers',
    breaks: 'X-RateLimit-Remaining counts the requests left (in the sandbox too: its headers never count down)',
    kind: 'failure',
  },
  { id: 'headers.reset-in-past', group: 'headers', breaks: 'X-RateLimit-Reset is when the counter resets (future)', kind: 'failure' },
  { id: 'headers.reset-not-integer', group: 'headers', breaks: 'X-RateLimit-Reset is an integer', kind: 'failure' },
  {
    id: 'headers.vendor-reset-seconds',
    group: 'headers',
    breaks: 'both families share one rate-limit scheme (the vendor family reads X-RateLimit-Reset as seconds to wait)',
    kind: 'failure',
  },
  { id: '429.no-errors', group: '429', breaks: 'the 429 body has errors[]', kind: 'failure' },
  { id: '429.message-missing', group: '429', breaks: 'errors[].message is a string', kind: 'failure' },
  { id: '429.field-missing', group: '429', breaks: 'errors[].field is a string or null', kind: 'failure' },
  { id: '429.remaining-positive', group: '429', breaks: 'X-RateLimit-Remaining is 0 on a 429', kind: 'failure' },
  { id: '429.no-headers', group: '429', breaks: 'the 429 response carries the X-RateLimit headers', kind: 'failure' },
  { id: '429.non-json', group: '429', breaks: 'the 429 body is JSON', kind: 'failure' },
  { id: '429.sandbox-plain-text', group: '429', breaks: 'the 429 body is JSON with errors[] (in the sandbox too)', kind: 'failure' },
  { id: '429.vendor-plain-text', group: '429', breaks: 'the 429 body is JSON with errors[] (in the vendor family too)', kind: 'failure' },
  {
    id: '429.limit-differs',
    group: '429',
    breaks: 'X-RateLimit-Limit is the limit enforced (the 429 names one more than the 2xx answers advertised)',
    kind: 'failure',
  },
  { id: 'limits.extra-call', group: 'limits', breaks: 'the limit is enforced at X-RateLimit-Limit calls (allows L+1)', kind: 'failure' },
  { id: 'limits.shared-across-operations', group: 'limits', breaks: 'limits are per endpoint', kind: 'failure' },
  { id: 'limits.shared-across-apps', group: 'limits', breaks: 'limits are allocated per API app', kind: 'failure' },
  {
    id: 'limits.bucket-per-token',
    group: 'limits',
    breaks: 'rate limits are allocated per API app (a new token of the app starts a fresh count)',
    kind: 'failure',
  },
  {
    id: 'limits.bucket-per-path',
    group: 'limits',
    breaks: 'calls per minute per endpoint (an operation called for two ids is counted apart)',
    kind: 'failure',
  },
  {
    id: 'limits.bucket-per-prefix',
    group: 'limits',
    breaks: 'calls per minute per endpoint (search and details of a resource, v6 and v6.1, share one count)',
    kind: 'failure',
  },
  { id: 'limits.late-refill', group: 'limits', breaks: 'requests fail only until the refresh period ends', kind: 'failure' },
  { id: 'limits.get-61', group: 'limits', breaks: 'all GET calls: 60 calls per minute per endpoint', kind: 'failure' },
  { id: 'limits.header-differs', group: 'limits', breaks: 'X-RateLimit-Limit is the limit enforced', kind: 'failure' },
  {
    id: 'limits.post-refuses-early',
    group: 'limits',
    breaks: 'X-RateLimit-Limit is the limit enforced (freight estimate advertises 500 and refuses the 101st call)',
    kind: 'failure',
  },
  { id: 'auth.no-token-accepted', group: 'auth', breaks: 'every call carries a valid access token', kind: 'failure' },
  { id: 'auth.garbage-token-accepted', group: 'auth', breaks: 'every call carries a valid access token (garbage)', kind: 'failure' },
  { id: 'auth.other-family-accepted', group: 'auth', breaks: 'silent: other family token accepted', kind: 'finding' },
  { id: 'auth.expired-accepted', group: 'auth', breaks: 'a token expires and must be replaced', kind: 'failure' },
  { id: 'routing.no-sandbox', group: 'routing', breaks: 'the sandbox serves the same paths under /sandbox', kind: 'failure' },
  { id: 'routing.v61-missing', group: 'routing', breaks: 'order and invoice details are served at v6.1', kind: 'failure' },
  { id: 'routing.non-json-content-type', group: 'routing', breaks: 'responses are JSON', kind: 'failure' },
  {
    id: 'webhooks.invalid-accepted',
    group: 'webhooks',
    breaks: 'silent: an event its published schema refuses (eventId a number) is accepted',
    kind: 'finding',
  },
  { id: 'finding.webhook-signature-ignored', group: 'findings', breaks: 'silent: a wrong x-hub-signature is accepted', kind: 'finding' },
  {
    id: 'shapes.field-renamed',
    group: 'shapes',
    breaks:
      'silent: no document requires an answer field; ingramPartNumber (product search) and ingramOrderNumber (order details), which a client relies on, renamed',
    kind: 'finding',
  },
  { id: 'shapes.pna-object', group: 'shapes', breaks: 'price and availability answers a top-level array', kind: 'failure' },
  { id: 'orders.created-unknown', group: 'shapes', breaks: 'a created order number is known to order details', kind: 'failure' },
  {
    id: 'answers.other-key',
    group: 'answers',
    breaks: 'a lookup answers about the key asked for (the part, order, quote, invoice, renewal, deal or return number)',
    kind: 'failure',
  },
  { id: 'answers.filter-ignored', group: 'answers', breaks: "a search's documented filter: every item listed matches it", kind: 'failure' },
  {
    id: 'answers.customer-order-number-ignored',
    group: 'answers',
    breaks: "a search's documented filter: every item listed matches it (order search by customerOrderNumber)",
    kind: 'failure',
  },
  {
    id: 'answers.list-filter-ignored',
    group: 'answers',
    breaks: "a search's documented filter: every item listed matches it (the list filters orderStatus-in and returnStatus-in)",
    kind: 'failure',
  },
  {
    id: 'status.accepted-undocumented',
    group: 'answers',
    breaks: 'each operation answers its documented success status (200, not 202)',
    kind: 'failure',
  },
  {
    id: 'writes.cancel-ignored',
    group: 'writes',
    breaks: 'a cancelled order reads back Canceled (the mock cancels at once)',
    kind: 'failure',
  },
  {
    id: 'writes.return-unknown',
    group: 'writes',
    breaks: 'a created return is known to return details (the mock creates at once)',
    kind: 'failure',
  },
  {
    id: 'writes.modify-ignored',
    group: 'writes',
    breaks: 'a modified order reads back its new notes (the mock modifies at once)',
    kind: 'failure',
  },
  {
    id: 'routing.sandbox-search-not-served',
    group: 'routing',
    breaks: 'the sandbox serves the same operations (deal search)',
    kind: 'failure',
  },
  {
    id: 'finding.vendor-list-answer',
    group: 'shapes',
    breaks: 'silent: a vendor operation answers a top-level list (no document gives its shape)',
    kind: 'finding',
  },
  {
    id: 'finding.missing-header-accepted',
    group: 'findings',
    breaks: 'silent: a call missing a required IM-* header is accepted',
    kind: 'finding',
  },
  {
    id: 'finding.header-constraint-ignored',
    group: 'findings',
    breaks: "silent: a header value longer than the document's maxLength is accepted",
    kind: 'finding',
  },
  {
    id: 'finding.document-strict',
    group: 'findings',
    breaks:
      "conflict: the distributor client's forms (deals.details without vendorName, shipToAddress array, date-time for a date) refused",
    kind: 'finding',
  },
  { id: 'finding.reset-seconds', group: 'findings', breaks: 'conflict: X-RateLimit-Reset as seconds to wait', kind: 'finding' },
  { id: 'finding.token-get-rejected', group: 'findings', breaks: 'conflict: token by GET refused (405)', kind: 'finding' },
  { id: 'finding.token-get-accepted', group: 'findings', breaks: 'conflict: token by GET accepted', kind: 'finding' },
  { id: 'finding.expires-in-long', group: 'findings', breaks: 'conflict: expires_in far beyond 24 h', kind: 'finding' },
  {
    id: 'paging.page-size-ignored',
    group: 'paging',
    breaks: 'pageSize: the number of records required in the call (a page lists at most that many)',
    kind: 'failure',
  },
  { id: 'paging.page-repeated', group: 'paging', breaks: 'pageNumber: the page asked (page 2 is not page 1 again)', kind: 'failure' },
  {
    id: 'paging.records-found-wrong',
    group: 'paging',
    breaks: 'recordsFound: the number of records found for the search (the pages hold that many)',
    kind: 'failure',
  },
  {
    id: 'input.lenient',
    group: 'inputs',
    breaks: 'silent: a query value or body both published forms refuse (pageSize=AAA, a string beyond its maxLength) is served',
    kind: 'finding',
  },
  {
    id: 'input.max-length-exclusive',
    group: 'inputs',
    breaks: 'what both published forms allow is taken: a string of exactly its maxLength refused with 400 (the bound read as exclusive)',
    kind: 'failure',
  },
] as const satisfies readonly DriftMode[];

/** A drift mode's id: one of DRIFT_MODES. */
export type DriftId = (typeof DRIFT_MODES)[number]['id'];

/** What a drift mode does to the mock: one of the three things a layer may change. */
export type DriftEffect =
  { readonly answer: AnswerTransform } | { readonly leniency: LeniencyId } | { readonly choice: Readonly<Partial<SpecChoices>> };

export const DRIFT_IDS: ReadonlySet<string> = new Set(DRIFT_MODES.map((m) => m.id));

const isDriftId = (id: string): id is DriftId => DRIFT_IDS.has(id);

/** Validates drift ids; throws with the list of known ids when one is unknown. */
export function parseDrift(ids: readonly string[]): DriftId[] {
  const unknown = ids.filter((i) => !isDriftId(i));
  if (unknown.length) {
    throw new Error(`unknown drift mode(s): ${unknown.join(', ')}; known: ${[...DRIFT_IDS].join(', ')}`);
  }
  return ids.filter(isDriftId);
}

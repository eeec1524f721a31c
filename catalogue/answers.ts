/**
 * What an answer must say about its request, per reseller operation (facts of the published document,
 * both forms): which request value comes back in which answer field, which documented filters of a
 * search its items must match, and which 2xx statuses the document gives besides the catalogue's
 * `successStatus`, each with the schema of its answer. Field names are the document's. Pure data.
 * The two forms of the document give the same 2xx statuses for every operation they share and the seed
 * shows none: where an operation is not in the document, its status is a finding (status.success-not-shown).
 */
import { idSources, type IdName, type OperationId } from './operations';

/**
 * A path into a JSON value; `*` stands for every entry of a list (`['*', 'ingramPartNumber']`: that
 * field of every entry of a top-level array).
 */
export type ValuePath = readonly string[];

/** A request value that must come back in the answer. */
export interface Echo {
  /** Where the request carries it: a path or query parameter (by name), or a path into the JSON body. */
  readonly asked: { readonly in: 'path' | 'query'; readonly name: string } | { readonly in: 'body'; readonly at: ValuePath };
  /** The answer field(s) that name what the answer is about; each value present must be one that was asked. */
  readonly answered: ValuePath;
}

/**
 * A documented query filter of a search, by the id it filters on: the search lists that id (idSources
 * names the list and the field of its entries), and each item it lists for the filter carries the value.
 */
export interface SearchFilter {
  readonly query: string;
  /**
   * What it filters on: an id (idSources names the list and field; values from the id searches), or another field
   * of the entries of the search's list (values from the entries the search itself lists).
   */
  readonly id: IdName | { readonly items: string; readonly field: string };
  /** The document says a part of a value matches too (quoteNumber): every item listed carries the value asked in its field. */
  readonly inPart?: true;
}

export interface AnswerFacts {
  readonly echoes: readonly Echo[];
  readonly filters: readonly SearchFilter[];
  /**
   * Other 2xx statuses the document gives, with the schema name of their answer (null: no body). The
   * catalogue's `successStatus` answers its own `response` schema.
   */
  readonly otherSuccess: Readonly<Record<number, string | null>>;
}

const path = (name: string): Echo['asked'] => ({ in: 'path', name });
const query = (name: string): Echo['asked'] => ({ in: 'query', name });
const body = (...at: string[]): Echo['asked'] => ({ in: 'body', at });
const echo = (asked: Echo['asked'], ...answered: string[]): Echo => ({ asked, answered });
const filter = (query: string, id: SearchFilter['id']): SearchFilter => ({ query, id });
const filterInPart = (query: string, id: SearchFilter['id']): SearchFilter => ({ query, id, inPart: true });

const NOTHING: AnswerFacts = { echoes: [], filters: [], otherSuccess: {} };
const about = (...echoes: Echo[]): AnswerFacts => ({ ...NOTHING, echoes });
const search = (...filters: SearchFilter[]): AnswerFacts => ({ ...NOTHING, filters });
/** Published: 207 when only part of the request was processed, with the same answer shape. */
const PARTIAL = 207;

export const ANSWER_FACTS: { readonly [K in OperationId]: AnswerFacts } = {
  'catalog.priceAndAvailability': {
    ...about(echo(body('products', '*', 'ingramPartNumber'), '*', 'ingramPartNumber')),
    otherSuccess: { [PARTIAL]: 'price-and-availability-response' },
  },
  // Its documented filters (keyword, vendor, vendorPartNumber, category) may match in part: none is an exact fact.
  'catalog.search': NOTHING,
  'catalog.details': about(echo(path('partNumber'), 'ingramPartNumber')),
  'catalog.detailsByReference': about(echo(query('vendorPartNumber'), 'vendorPartNumber')),
  'orders.create': {
    ...about(echo(body('customerOrderNumber'), 'customerOrderNumber')),
    otherSuccess: { [PARTIAL]: 'order-create-response' },
  },
  'orders.modify': {
    ...about(echo(path('orderNumber'), 'ingramOrderNumber')),
    otherSuccess: { 201: 'order-modify-response', [PARTIAL]: 'order-modify-response' },
  },
  'orders.details': about(echo(path('orderNumber'), 'ingramOrderNumber')),
  // Published: 204 when no order matches.
  // "Search using your PO/Order number" and the order status, also as a list (orderStatus-in, "for multiple entries":
  // one value asked, every order has it): fields each listed order carries. Not judged: vendorName (a name, which
  // the document does not say matches whole), endCustomerOrderNumber, specialBidNumber, the part, serial and
  // tracking numbers (no listed field) and the dates (ranges, or a day the document says to "search by").
  'orders.search': {
    ...search(
      filter('ingramOrderNumber', 'orderNumber'),
      filter('customerOrderNumber', { items: 'orders', field: 'customerOrderNumber' }),
      filter('orderStatus', { items: 'orders', field: 'orderStatus' }),
      filter('orderStatus-in', { items: 'orders', field: 'orderStatus' }),
    ),
    otherSuccess: { 204: null },
  },
  'orders.cancel': NOTHING,
  // The quote number ("a partial quote number in the filter" matches every quote containing it: asked with one as
  // listed, every quote listed contains it), the special bid number and the status (listed as quoteStatus), which each
  // listed quote carries. Not judged: quoteName, vendorName and
  // endUserContact are names, which the document does not say match whole (a name filter may match in part, as
  // catalog.search's vendor); the -bt dates are ranges; sortBy and sortingOrder order the list.
  'quotes.search': search(
    filterInPart('quoteNumber', 'quoteNumber'),
    filter('specialBidNumber', { items: 'quotes', field: 'specialBidNumber' }),
    filter('status', { items: 'quotes', field: 'quoteStatus' }),
  ),
  'quotes.details': about(echo(path('quoteNumber'), 'quoteNumber')),
  'quotes.validate': about(echo(query('quoteNumber'), 'quoteNumber')),
  // Not in the published document: no answer field is a fact.
  'quoteToOrder.create': NOTHING,
  // The ids, order numbers and status each listed invoice carries. Not judged: orderNumber (listed invoices carry
  // erpOrderNumber, not said to be it), specialBidNumber (a listed invoice carries a list of them), invoiceType and
  // serialNumber (no listed field), the dates (the document says "search by" a date or a range) and the sort.
  'invoices.search': search(
    filter('invoiceNumber', 'invoiceNumber'),
    filter('customerOrderNumber', { items: 'invoices', field: 'customerOrderNumber' }),
    filter('endCustomerOrderNumber', { items: 'invoices', field: 'endCustomerOrderNumber' }),
    filter('invoiceStatus', { items: 'invoices', field: 'invoiceStatus' }),
  ),
  'invoices.details': about(echo(path('invoiceNumber'), 'invoiceNumber')),
  // "The reseller's unique PO/Order number", which each listed renewal carries. Not judged: ingramPurchaseOrderNumber
  // and serialNumber (no listed field), the body's vendor and endUser (names), its opportunity status (Open or
  // Closed, values the listed status is not said to take) and its dateType ranges.
  'renewals.search': search(filter('customerOrderNumber', { items: 'renewals', field: 'customerOrderNumber' })),
  'renewals.details': about(echo(path('renewalId'), 'renewalId')),
  // Not judged: endUser and vendor are names, which the document does not say match whole.
  'deals.search': search(filter('dealId', 'dealId')),
  'deals.details': about(echo(path('dealId'), 'dealId')),
  // The ids and the status ("comma-separated values of pre-defined status": one value asked, every item has it) each
  // listed return carries. Not judged: invoiceNumber, ingramPartNumber and vendorPartNumber (no listed field),
  // claimStatus-in (no listed field says which), returnReason-in (pre-defined codes the listed returnReason is not
  // said to take), the -bt date ranges and the sort.
  'returns.search': search(
    filter('caseRequestNumber', 'caseRequestNumber'),
    filter('returnClaimId', { items: 'returnsClaims', field: 'returnClaimId' }),
    filter('referenceNumber', { items: 'returnsClaims', field: 'referenceNumber' }),
    filter('returnStatus-in', { items: 'returnsClaims', field: 'status' }),
  ),
  'returns.details': about(echo(path('caseRequestNumber'), 'caseRequestNumber')),
  'returns.create': NOTHING,
  'freight.estimate': NOTHING,
  'webhooks.orderStatus': NOTHING,
  'webhooks.availabilityUpdate': NOTHING,
  // Published: 201 with the Order Status webhook's shape, 200 with a confirmation.
  'orders.createV7': { ...NOTHING, otherSuccess: { 201: 'webhook-event-answer' } },
  'orders.vendorRequiredInfo': about(echo(body('products', '*', 'ingramPartNumber'), '*', 'ingramPartNumber')),
  // Published (JSON form): 201 with the Quote Status webhook's shape, 200 with the quote number.
  'quotes.create': { ...NOTHING, otherSuccess: { 201: 'webhook-event-answer' } },
};

/** The values at `at` of a JSON value (`*`: every entry of a list); strings and finite numbers only, as strings. */
export function valuesAt(json: unknown, at: ValuePath): string[] {
  let level: unknown[] = [json];
  for (const key of at) {
    level = level.flatMap((v) => {
      if (key === '*') return Array.isArray(v) ? v : [];
      return v !== null && typeof v === 'object' && !Array.isArray(v) && key in v ? [(v as Record<string, unknown>)[key]] : [];
    });
  }
  return level.flatMap((v) => (typeof v === 'string' ? [v] : typeof v === 'number' && Number.isFinite(v) ? [String(v)] : []));
}

/** Whether a value an item lists for a filter's field matches the value asked: the same, or containing it (`inPart`). */
export const matchesFilter = (f: SearchFilter, asked: string, listed: string): boolean =>
  f.inPart ? listed.includes(asked) : listed === asked;

/** The list and the field of a search answer a filter applies to. */
export const filteredField = (f: SearchFilter): { readonly items: string; readonly field: string } =>
  typeof f.id === 'string' ? idSources[f.id] : f.id;

/** A search's paging fields, its list and the id each entry of the list carries. */
const paged = (list: string, id: string): readonly ValuePath[] => [['recordsFound'], ['pageSize'], ['pageNumber'], [list], [list, '*', id]];

/**
 * The answer fields a client cannot do without (the ids, the paging fields, the lists), per operation, in its
 * answer for the catalogue's `successStatus`. No document requires them (the seed shows no business body, the
 * published forms require no answer field): certify records whether a target sends them (finding
 * shapes.expected-field-absent), and fails on one only under a strict policy. A Record over operation ids, so
 * a new operation's entry is asked by the compiler (an empty list where a client needs nothing).
 */
export const EXPECTED_FIELDS: { readonly [K in OperationId]: readonly ValuePath[] } = {
  'catalog.priceAndAvailability': [['*', 'ingramPartNumber']],
  'catalog.search': paged('catalog', 'ingramPartNumber'),
  'catalog.details': [['ingramPartNumber']],
  'catalog.detailsByReference': [['ingramPartNumber']],
  'orders.create': [['orders'], ['orders', '*', 'ingramOrderNumber']],
  'orders.modify': [['ingramOrderNumber']],
  'orders.details': [['ingramOrderNumber'], ['orderStatus']],
  'orders.search': paged('orders', 'ingramOrderNumber'),
  'orders.cancel': [],
  'quotes.search': paged('quotes', 'quoteNumber'),
  'quotes.details': [['quoteNumber']],
  'quotes.validate': [['quoteNumber']],
  'quoteToOrder.create': [],
  'invoices.search': paged('invoices', 'invoiceNumber'),
  'invoices.details': [['invoiceNumber']],
  'renewals.search': paged('renewals', 'renewalId'),
  'renewals.details': [['renewalId']],
  'deals.search': paged('deals', 'dealId'),
  'deals.details': [['dealId']],
  'returns.search': paged('returnsClaims', 'caseRequestNumber'),
  'returns.details': [['caseRequestNumber']],
  'returns.create': [['returnsClaims'], ['returnsClaims', '*', 'caseRequestNumber']],
  'freight.estimate': [['freightEstimateResponse'], ['freightEstimateResponse', 'distribution']],
  'webhooks.orderStatus': [],
  'webhooks.availabilityUpdate': [],
  'orders.createV7': [],
  'orders.vendorRequiredInfo': [],
  'quotes.create': [['quoteNumber']],
};

/** A path as a reader writes it: `catalog[].ingramPartNumber`, `[].ingramPartNumber` (every entry of a top-level list). */
export const fieldPath = (p: ValuePath): string => p.join('.').replace(/(^|\.)\*/g, '[]');

/**
 * The expected fields an answer lacks (absent or null), each once, as `catalog[].ingramPartNumber`. A list
 * answered empty lacks nothing of its entries; a value of another type is the schema's to judge.
 */
export function absentFields(json: unknown, expected: readonly ValuePath[]): string[] {
  const absent = new Set<string>();
  const walk = (v: unknown, rest: ValuePath, at: string): void => {
    const [key, ...more] = rest;
    if (key === undefined) return;
    if (key === '*') {
      if (Array.isArray(v)) for (const x of v) walk(x, more, `${at}[]`);
      return;
    }
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return;
    const next = (v as Record<string, unknown>)[key];
    const here = at ? `${at}.${key}` : key;
    if (next === undefined || next === null) absent.add(here);
    else walk(next, more, here);
  };
  for (const path of expected) walk(json, path, '');
  return [...absent];
}

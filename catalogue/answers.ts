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
  readonly id: IdName;
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
const filter = (query: string, id: IdName): SearchFilter => ({ query, id });

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
  'orders.search': { ...search(filter('ingramOrderNumber', 'orderNumber')), otherSuccess: { 204: null } },
  'orders.cancel': NOTHING,
  'quotes.search': search(filter('quoteNumber', 'quoteNumber')),
  'quotes.details': about(echo(path('quoteNumber'), 'quoteNumber')),
  'quotes.validate': about(echo(query('quoteNumber'), 'quoteNumber')),
  // Not in the published document: no answer field is a fact.
  'quoteToOrder.create': NOTHING,
  'invoices.search': search(filter('invoiceNumber', 'invoiceNumber')),
  'invoices.details': about(echo(path('invoiceNumber'), 'invoiceNumber')),
  'renewals.search': NOTHING,
  'renewals.details': about(echo(path('renewalId'), 'renewalId')),
  'deals.search': search(filter('dealId', 'dealId')),
  'deals.details': about(echo(path('dealId'), 'dealId')),
  'returns.search': search(filter('caseRequestNumber', 'caseRequestNumber')),
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

/** The list and the field of a search answer a filter applies to. */
export const filteredField = (f: SearchFilter): { readonly items: string; readonly field: string } => idSources[f.id];

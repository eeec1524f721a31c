/**
 * Paging as the distributor's published document gives it: the searches that take `pageSize` ("Number of
 * records required in the call - max records 100 per page", default 25) and `pageNumber` (from 1), and
 * answer `recordsFound`, `pageSize` and `pageNumber` beside their list. Pure data for mock and suite.
 */
import type { OperationId } from './operations';

/** The page size a search answers when the call asks none. */
export const DEFAULT_PAGE_SIZE = 25;
/** The most records a page holds, whatever the call asks. */
export const MAX_PAGE_SIZE = 100;

/** The query parameters that ask for a page, as the document names them. */
export const PAGE_QUERY = { size: 'pageSize', number: 'pageNumber' } as const;

/** A paged search: the answer's list, the field that names each of its entries, and the writes that may change it. */
export interface PagedSearch {
  readonly list: string;
  readonly id: string;
  /**
   * The operations whose calls may add, remove or change entries of the list on a target (an order created may
   * be invoiced at once, a stock update may change what the catalogue lists): two pages with one of them in
   * between are not compared.
   */
  readonly changedBy: readonly OperationId[];
}

/** Every call that creates, changes or cancels an order. */
const ORDER_WRITES = [
  'orders.create',
  'orders.createV7',
  'quoteToOrder.create',
  'orders.modify',
  'orders.cancel',
  'webhooks.orderStatus',
] as const satisfies readonly OperationId[];

/** The searches the document gives `pageSize` and `pageNumber` for. */
export const PAGED_SEARCHES = {
  'catalog.search': { list: 'catalog', id: 'ingramPartNumber', changedBy: ['webhooks.availabilityUpdate'] },
  'orders.search': { list: 'orders', id: 'ingramOrderNumber', changedBy: ORDER_WRITES },
  'quotes.search': { list: 'quotes', id: 'quoteNumber', changedBy: ['quotes.create', 'quoteToOrder.create'] },
  'invoices.search': { list: 'invoices', id: 'invoiceNumber', changedBy: ORDER_WRITES },
} as const satisfies Partial<Record<OperationId, PagedSearch>>;

export type PagedSearchId = keyof typeof PAGED_SEARCHES;

export const isPagedSearch = (id: string): id is PagedSearchId => id in PAGED_SEARCHES;

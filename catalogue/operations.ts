/**
 * The endpoint catalogue: one definition per operation of the Distributor Commerce API, the single
 * source of truth for the mock, the contract suite, the summary, the OpenAPI export and the load
 * plan. Pure data and pure functions: no node:*, no k6/*, no process.env, so it compiles for Node
 * and for k6 bundles alike.
 *
 * Adding an operation: one row in SPEC_TABLE_ROWS or DOCUMENT_ROWS, one entry in DEFINITIONS (the compiler asks for
 * it), one handler in mock/api/handlers/ (the compiler asks for that too).
 */
import { IM_HEADERS, NO_RECEIVER_TARGET_URL, WEBHOOK_HEADERS, type ImHeader, type WebhookHeader } from './rules';
import { schemaId } from './schemas';

export { schemaId };
export type Family = 'reseller' | 'vendor';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type VersionSegment = 'v1' | 'v6' | 'v6.1' | 'v7';
type Row = { id: string; group: string; name: string; method: HttpMethod; path: string };

/** The 24 rows of the spec's "Reseller family endpoints" table, in the spec's order (facts of the seed). */
const SPEC_TABLE_ROWS = [
  {
    id: 'catalog.priceAndAvailability',
    group: 'Product Catalog',
    name: 'Price and availability',
    method: 'POST',
    path: '/resellers/v6/catalog/priceandavailability',
  },
  { id: 'catalog.search', group: 'Product Catalog', name: 'Search products', method: 'GET', path: '/resellers/v6/catalog' },
  {
    id: 'catalog.details',
    group: 'Product Catalog',
    name: 'Product details',
    method: 'GET',
    path: '/resellers/v6/catalog/details/{partNumber}',
  },
  { id: 'orders.create', group: 'Orders', name: 'Create order', method: 'POST', path: '/resellers/v6/orders' },
  { id: 'orders.modify', group: 'Orders', name: 'Modify order', method: 'PUT', path: '/resellers/v6/orders/{orderNumber}' },
  {
    id: 'orders.details',
    group: 'Orders',
    name: 'Get order details (version 6.1)',
    method: 'GET',
    path: '/resellers/v6.1/orders/{orderNumber}',
  },
  { id: 'orders.search', group: 'Orders', name: 'Search orders', method: 'GET', path: '/resellers/v6/orders/search' },
  { id: 'orders.cancel', group: 'Orders', name: 'Cancel order', method: 'DELETE', path: '/resellers/v6/orders/{orderNumber}' },
  { id: 'quotes.search', group: 'Quotes', name: 'Search quotes', method: 'GET', path: '/resellers/v6/quotes/search' },
  { id: 'quotes.details', group: 'Quotes', name: 'Quote details', method: 'GET', path: '/resellers/v6/quotes/{quoteNumber}' },
  { id: 'quotes.validate', group: 'Quotes', name: 'Validate quote', method: 'GET', path: '/resellers/v6/q2o/validatequote' },
  { id: 'quoteToOrder.create', group: 'Quote To Order', name: 'Quote to order', method: 'POST', path: '/resellers/v6/q2o/orders' },
  { id: 'invoices.search', group: 'Invoice', name: 'Search invoices', method: 'GET', path: '/resellers/v6/invoices/' },
  {
    id: 'invoices.details',
    group: 'Invoice',
    name: 'Get invoice details (version 6.1)',
    method: 'GET',
    path: '/resellers/v6.1/invoices/{invoiceNumber}',
  },
  { id: 'renewals.search', group: 'Renewals', name: 'Search renewals', method: 'POST', path: '/resellers/v6/renewals/search' },
  { id: 'renewals.details', group: 'Renewals', name: 'Renewal details', method: 'GET', path: '/resellers/v6/renewals/{renewalId}' },
  { id: 'deals.search', group: 'Deals', name: 'Search deals', method: 'GET', path: '/resellers/v6/deals/search' },
  { id: 'deals.details', group: 'Deals', name: 'Deal details', method: 'GET', path: '/resellers/v6/deals/{dealId}' },
  { id: 'returns.search', group: 'Returns', name: 'Search returns', method: 'GET', path: '/resellers/v6/returns/search' },
  { id: 'returns.details', group: 'Returns', name: 'Return details', method: 'GET', path: '/resellers/v6/returns/{caseRequestNumber}' },
  { id: 'returns.create', group: 'Returns', name: 'Create return', method: 'POST', path: '/resellers/v6/returns/create' },
  { id: 'freight.estimate', group: 'Freight Estimate', name: 'Freight estimate', method: 'POST', path: '/resellers/v6/freightestimate' },
  { id: 'webhooks.orderStatus', group: 'Webhook', name: 'Order status', method: 'POST', path: '/resellers/v1/webhooks/orderstatusevent' },
  {
    id: 'webhooks.availabilityUpdate',
    group: 'Webhook',
    name: 'Stock update',
    method: 'POST',
    path: '/resellers/v1/webhooks/availabilityupdate',
  },
] as const satisfies readonly Row[];

/**
 * Operations the distributor's published document adds to the seed's table (facts of the document).
 * Its two forms disagree: vendor required info is in the YAML form only, quote create in the JSON form
 * only (finding openapi.operation-one-form); the catalogue serves every operation of either form.
 */
const DOCUMENT_ROWS = [
  {
    id: 'catalog.detailsByReference',
    group: 'Product Catalog',
    name: 'Product details by reference',
    method: 'GET',
    path: '/resellers/v6/catalog/details',
  },
  { id: 'orders.createV7', group: 'Orders', name: 'Create order (version 7)', method: 'POST', path: '/resellers/v7/orders' },
  {
    id: 'orders.vendorRequiredInfo',
    group: 'Orders',
    name: 'Vendor required info',
    method: 'POST',
    path: '/resellers/v7/vendorrequiredinfo',
  },
  { id: 'quotes.create', group: 'Quotes', name: 'Create quote', method: 'POST', path: '/resellers/v6/quotes/create' },
] as const satisfies readonly Row[];

/** Every reseller operation: the spec's table, then what the published document adds. */
export const RESELLER_ROWS = [...SPEC_TABLE_ROWS, ...DOCUMENT_ROWS] as const;
const DOCUMENT_ONLY: ReadonlySet<string> = new Set(DOCUMENT_ROWS.map((r) => r.id));

/** Id of a reseller operation: the compiler knows every one. */
export type OperationId = (typeof RESELLER_ROWS)[number]['id'];

/** Names of the ids an operation needs from the target's data. */
export type IdName =
  | 'partNumber'
  | 'vendorPartNumber'
  | 'orderNumber'
  | 'quoteNumber'
  | 'invoiceNumber'
  | 'renewalId'
  | 'dealId'
  | 'dealVendor'
  | 'caseRequestNumber';

/** Where an id comes from on a target: the list `items` of the answer of `from`, field `field` of an entry. */
export interface IdSource {
  readonly from: OperationId;
  /** Name of the array in the answer (`''` when the answer itself is the array). */
  readonly items: string;
  readonly field: string;
  /** Ids the run may also take from a resource it created itself (writes allowed). */
  readonly createdBy?: { readonly from: OperationId; readonly path: readonly (string | number)[] };
}

/** Which search or list answer yields each id (for discovery on targets whose data the harness does not know). */
export const idSources: Readonly<Record<IdName, IdSource>> = {
  partNumber: { from: 'catalog.search', items: 'catalog', field: 'ingramPartNumber' },
  /** The vendor's part number of a catalogue entry (product details by reference asks by it). */
  vendorPartNumber: { from: 'catalog.search', items: 'catalog', field: 'vendorPartNumber' },
  orderNumber: {
    from: 'orders.search',
    items: 'orders',
    field: 'ingramOrderNumber',
    createdBy: { from: 'orders.create', path: ['orders', 0, 'ingramOrderNumber'] },
  },
  quoteNumber: { from: 'quotes.search', items: 'quotes', field: 'quoteNumber' },
  invoiceNumber: { from: 'invoices.search', items: 'invoices', field: 'invoiceNumber' },
  renewalId: { from: 'renewals.search', items: 'renewals', field: 'renewalId' },
  dealId: { from: 'deals.search', items: 'deals', field: 'dealId' },
  /** The vendor of the same deal entry as `dealId` (deal details requires it as `vendorName`). */
  dealVendor: { from: 'deals.search', items: 'deals', field: 'vendor' },
  caseRequestNumber: {
    from: 'returns.search',
    items: 'returnsClaims',
    field: 'caseRequestNumber',
    createdBy: { from: 'returns.create', path: ['returnsClaims', 0, 'caseRequestNumber'] },
  },
};

/** Where an operation puts an id it needs. */
export interface IdNeed {
  readonly id: IdName;
  readonly in: 'path' | 'query' | 'body';
  /** The path parameter, query parameter or body field name. */
  readonly as: string;
}

export interface QueryParam {
  readonly name: string;
  readonly required: boolean;
  readonly type: 'string' | 'integer' | 'boolean';
}

/** The parts of a valid request that depend on data: path parameters, query, body. Headers come from the configuration. */
export interface RequestParts {
  params: Record<string, string>;
  query: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Ids to build a request with: the fixture world's by default, discovered or configured ones on other targets. */
export type Ids = Readonly<Partial<Record<IdName, string>>>;

/** What request builders read of a data world (the fixture world satisfies it). */
export interface WorldView {
  readonly seed: number;
  readonly products: readonly { readonly ingramPartNumber: string; readonly totalAvailability: number }[];
  readonly orders: readonly { readonly ingramOrderNumber: string; readonly customerOrderNumber: string }[];
  readonly invoices: readonly {
    readonly invoiceNumber: string;
    readonly invoiceDate: string;
    readonly lines: readonly { readonly ingramPartNumber: string }[];
  }[];
}

export interface BuildContext {
  world: WorldView;
  ids: Ids;
  /** Varies generated numbers (customer order numbers, event ids) between calls. */
  n: number;
}

export interface OperationDefinition {
  /**
   * Schema names (see schemas.ts) of the success answer and of the JSON request body. No response schema where
   * no document gives the answer's shape (quote to order: the seed lists it, the published document does not).
   */
  readonly response?: string;
  readonly request?: string;
  /** Published required request headers. */
  readonly headers: readonly (ImHeader | WebhookHeader)[];
  /** Published query parameters (the ones the harness knows of). */
  readonly query: readonly QueryParam[];
  readonly successStatus: 200 | 201;
  /** Calls per window: GET 60 (spec); others an assumption (the spec does not show them). */
  readonly limit: number;
  /** True when the operation changes no state on the target (safe on production). */
  readonly readOnly: boolean;
  readonly needs: readonly IdNeed[];
  /** A valid request built from ids (the fixture world's or discovered ones). */
  readonly build: (ctx: BuildContext) => RequestParts;
  /** Where the entry comes from: the spec and the published document, or an assumption of ours. */
  readonly source: 'spec' | 'assumption';
}

const H = IM_HEADERS;
/** Required on every business call by the published document. */
const BASE_HEADERS = [H.customerNumber, H.countryCode, H.correlationId] as const;
const WEBHOOK_REQUIRED_HEADERS = [WEBHOOK_HEADERS.targetUrl, WEBHOOK_HEADERS.signature] as const;
const q = (name: string, type: QueryParam['type'] = 'string', required = false): QueryParam => ({ name, required, type });
const PAGING = [q('pageNumber', 'integer'), q('pageSize', 'integer')];
/** ASSUMPTION: the spec gives no limits for POST, PUT and DELETE; its samples show 500 and 150. */
const HIGH_VOLUME = 500;
const WRITE = 150;
const GET_LIMIT = 60;

/** The ship-to and ship-from address of the certification requests (a sample, not a real party). */
export const SAMPLE_ADDRESS = {
  contact: 'Receiving desk',
  companyName: 'Certification Reseller',
  addressLine1: '1 Main Street',
  city: 'Irvine',
  state: 'CA',
  postalCode: '92612',
  countryCode: 'US',
  phoneNumber: '7145665000',
  email: 'orders@example.com',
} as const;

const { contact, companyName, addressLine1, city, state, postalCode, countryCode, email } = SAMPLE_ADDRESS;
const need = (id: IdName, where: IdNeed['in'], as: string = id): IdNeed => ({ id, in: where, as });
const idOf = (ids: Ids, name: IdName): string => {
  const v = ids[name];
  if (v === undefined) throw new Error(`a valid request needs a ${name}; none is known (see idSources.${name})`);
  return v;
};
const noParts = (): RequestParts => ({ params: {}, query: {} });
const pathId =
  (name: IdName, as: string = name) =>
  ({ ids }: BuildContext): RequestParts => ({ params: { [as]: idOf(ids, name) }, query: {} });

function productsOf(w: WorldView, n: number) {
  return [w.products[n % w.products.length], w.products[(n + 1) % w.products.length]].filter((p) => p !== undefined);
}
/** A one-line order of the world's products; the prefix of its customer order number tells the creating operation. */
const orderOf =
  (prefix: string) =>
  ({ world, n }: BuildContext): RequestParts => ({
    params: {},
    query: {},
    body: {
      customerOrderNumber: `${prefix}${world.seed}-${n}`,
      notes: 'Certification order',
      lines: productsOf(world, n)
        .slice(0, 1)
        .map((p, i) => ({ customerLineNumber: String(i + 1), ingramPartNumber: p.ingramPartNumber, quantity: 2 })),
    },
  });
/** A deterministic UUID-shaped event id from the seed and a counter. */
export const eventIdOf = (seed: number, n: number): string =>
  `00000000-0000-4000-8000-${(seed * 1_000_000 + n).toString(16).padStart(12, '0').slice(-12)}`;

export const DEFINITIONS: { readonly [K in OperationId]: OperationDefinition } = {
  'catalog.priceAndAvailability': {
    response: 'price-and-availability-response',
    request: 'price-and-availability-request',
    headers: BASE_HEADERS,
    query: [q('includeAvailability', 'boolean', true), q('includePricing', 'boolean', true), q('includeProductAttributes', 'boolean')],
    successStatus: 200,
    limit: HIGH_VOLUME,
    readOnly: true,
    needs: [],
    build: ({ world, n }) => ({
      params: {},
      query: { includeAvailability: 'true', includePricing: 'true' },
      body: { products: productsOf(world, n).map((p) => ({ ingramPartNumber: p.ingramPartNumber })) },
    }),
    source: 'spec',
  },
  'catalog.search': {
    response: 'product-search-response',
    headers: BASE_HEADERS,
    query: [...PAGING, q('keyword'), q('vendor'), q('vendorPartNumber'), q('category'), q('type')],
    successStatus: 200,
    limit: GET_LIMIT,
    readOnly: true,
    needs: [],
    build: noParts,
    source: 'spec',
  },
  'catalog.details': {
    response: 'product-details-response',
    headers: BASE_HEADERS,
    query: [],
    successStatus: 200,
    limit: GET_LIMIT,
    readOnly: true,
    needs: [need('partNumber', 'path')],
    build: pathId('partNumber'),
    source: 'spec',
  },
  'orders.create': {
    response: 'order-create-response',
    request: 'order-create-request',
    headers: BASE_HEADERS,
    query: [],
    successStatus: 201,
    limit: WRITE,
    readOnly: false,
    needs: [],
    build: orderOf('PO-H'),
    source: 'spec',
  },
  'orders.modify': {
    response: 'order-modify-response',
    request: 'order-modify-request',
    headers: BASE_HEADERS,
    query: [q('actionCode'), q('regionCode')],
    successStatus: 200,
    limit: WRITE,
    readOnly: false,
    needs: [need('orderNumber', 'path')],
    build: ({ world, ids, n }) => ({
      params: { orderNumber: idOf(ids, 'orderNumber') },
      query: {},
      body: {
        notes: 'Quantity changed',
        lines: productsOf(world, n)
          .slice(0, 1)
          .map((p) => ({ ingramPartNumber: p.ingramPartNumber, addUpdateDeleteLine: 'ADD', quantity: 3 })),
      },
    }),
    source: 'spec',
  },
  'orders.details': {
    response: 'order-details-response',
    headers: BASE_HEADERS,
    query: [q('ingramOrderDate'), q('vendorNumber'), q('regionCode')],
    successStatus: 200,
    limit: GET_LIMIT,
    readOnly: true,
    needs: [need('orderNumber', 'path')],
    build: pathId('orderNumber'),
    source: 'spec',
  },
  'orders.search': {
    response: 'order-search-response',
    headers: BASE_HEADERS,
    query: [...PAGING, q('ingramOrderNumber'), q('orderStatus'), q('customerOrderNumber'), q('ingramPartNumber'), q('vendorName')],
    successStatus: 200,
    limit: GET_LIMIT,
    readOnly: true,
    needs: [],
    build: noParts,
    source: 'spec',
  },
  'orders.cancel': {
    response: 'order-cancel-response',
    headers: BASE_HEADERS,
    query: [q('regionCode')],
    successStatus: 200,
    limit: WRITE,
    readOnly: false,
    needs: [need('orderNumber', 'path')],
    build: pathId('orderNumber'),
    source: 'spec',
  },
  'quotes.search': {
    response: 'quote-search-response',
    headers: [...BASE_HEADERS, H.customerContact],
    query: [...PAGING, q('quoteNumber'), q('quoteName'), q('status'), q('vendorName'), q('sortBy'), q('sortingOrder')],
    successStatus: 200,
    limit: GET_LIMIT,
    readOnly: true,
    needs: [],
    build: noParts,
    source: 'spec',
  },
  'quotes.details': {
    response: 'quote-details-response',
    headers: BASE_HEADERS,
    query: [],
    successStatus: 200,
    limit: GET_LIMIT,
    readOnly: true,
    needs: [need('quoteNumber', 'path')],
    build: pathId('quoteNumber'),
    source: 'spec',
  },
  'quotes.validate': {
    response: 'quote-validate-response',
    headers: BASE_HEADERS,
    query: [q('quoteNumber', 'string', true)],
    successStatus: 200,
    limit: GET_LIMIT,
    readOnly: true,
    needs: [need('quoteNumber', 'query')],
    build: ({ ids }) => ({ params: {}, query: { quoteNumber: idOf(ids, 'quoteNumber') } }),
    source: 'spec',
  },
  'quoteToOrder.create': {
    request: 'quote-to-order-request',
    headers: BASE_HEADERS,
    query: [],
    successStatus: 201,
    limit: WRITE,
    readOnly: false,
    needs: [need('quoteNumber', 'body')],
    build: ({ world, ids, n }) => ({
      params: {},
      query: {},
      body: { quoteNumber: idOf(ids, 'quoteNumber'), customerOrderNumber: `PO-Q${world.seed}-${n}` },
    }),
    // The published document has no quote to order operation: its answer is not judged (finding shapes.not-published).
    source: 'assumption',
  },
  'invoices.search': {
    response: 'invoice-search-response',
    headers: [H.applicationId, ...BASE_HEADERS],
    query: [...PAGING, q('invoiceNumber'), q('orderNumber'), q('customerOrderNumber'), q('invoiceStatus'), q('invoiceDate')],
    successStatus: 200,
    limit: GET_LIMIT,
    readOnly: true,
    needs: [],
    build: noParts,
    source: 'spec',
  },
  'invoices.details': {
    response: 'invoice-details-response',
    headers: [...BASE_HEADERS, H.applicationId],
    query: [q('customerType'), q('includeSerialNumbers', 'boolean')],
    successStatus: 200,
    limit: GET_LIMIT,
    readOnly: true,
    needs: [need('invoiceNumber', 'path')],
    build: pathId('invoiceNumber'),
    source: 'spec',
  },
  'renewals.search': {
    response: 'renewal-search-response',
    request: 'renewal-search-request',
    headers: BASE_HEADERS,
    query: [q('customerOrderNumber'), q('page'), q('size'), q('sort')],
    successStatus: 200,
    limit: HIGH_VOLUME,
    readOnly: true,
    needs: [],
    build: () => ({ params: {}, query: {}, body: { status: { OpporutinyStatus: { value: 'OPEN' } } } }),
    source: 'spec',
  },
  'renewals.details': {
    response: 'renewal-details-response',
    headers: BASE_HEADERS,
    query: [],
    successStatus: 200,
    limit: GET_LIMIT,
    readOnly: true,
    needs: [need('renewalId', 'path')],
    build: pathId('renewalId'),
    source: 'spec',
  },
  'deals.search': {
    response: 'deal-search-response',
    headers: BASE_HEADERS,
    query: [q('endUser'), q('vendor'), q('dealId'), q('Size', 'integer'), q('Page', 'integer')],
    successStatus: 200,
    limit: GET_LIMIT,
    readOnly: true,
    needs: [],
    build: noParts,
    source: 'spec',
  },
  'deals.details': {
    response: 'deal-details-response',
    headers: [...BASE_HEADERS, H.applicationId],
    query: [q('vendorName', 'string', true)],
    successStatus: 200,
    limit: GET_LIMIT,
    readOnly: true,
    needs: [need('dealId', 'path'), need('dealVendor', 'query', 'vendorName')],
    build: ({ ids }) => ({ params: { dealId: idOf(ids, 'dealId') }, query: { vendorName: idOf(ids, 'dealVendor') } }),
    source: 'spec',
  },
  'returns.search': {
    response: 'return-search-response',
    headers: BASE_HEADERS,
    query: [q('caseRequestNumber'), q('invoiceNumber'), q('returnStatus-in'), q('page'), q('size'), q('sort')],
    successStatus: 200,
    limit: GET_LIMIT,
    readOnly: true,
    needs: [],
    build: noParts,
    source: 'spec',
  },
  'returns.details': {
    response: 'return-details-response',
    headers: BASE_HEADERS,
    query: [],
    successStatus: 200,
    limit: GET_LIMIT,
    readOnly: true,
    needs: [need('caseRequestNumber', 'path')],
    build: pathId('caseRequestNumber'),
    source: 'spec',
  },
  'returns.create': {
    response: 'return-create-response',
    request: 'return-create-request',
    headers: BASE_HEADERS,
    query: [],
    successStatus: 200,
    limit: WRITE,
    readOnly: false,
    needs: [need('invoiceNumber', 'body')],
    build: ({ world, ids }) => {
      const inv = world.invoices.find((i) => i.invoiceNumber === ids.invoiceNumber);
      const line = inv?.lines[0];
      return {
        params: {},
        query: {},
        body: {
          list: [
            {
              invoiceNumber: idOf(ids, 'invoiceNumber'),
              invoiceDate: inv?.invoiceDate ?? '2026-01-01',
              ...(line ? { ingramPartNumber: line.ingramPartNumber } : {}),
              quantity: 1,
              primaryReason: 'Damaged',
              secondaryReason: 'Damaged in transit',
              numberOfBoxes: 1,
              shipFromInfo: [{ companyName, contact, addressLine1, city, state, postalCode, countryCode, email }],
            },
          ],
        },
      };
    },
    source: 'spec',
  },
  'freight.estimate': {
    response: 'freight-estimate-response',
    request: 'freight-estimate-request',
    headers: [...BASE_HEADERS, H.customerContact],
    query: [],
    successStatus: 200,
    limit: HIGH_VOLUME,
    readOnly: true,
    needs: [],
    build: ({ world, n }) => ({
      params: {},
      query: {},
      body: {
        shipToAddress: { companyName, addressLine1, city, state, postalCode, countryCode },
        lines: productsOf(world, n).map((p, i) => ({
          customerLineNumber: String(i + 1),
          ingramPartNumber: p.ingramPartNumber,
          quantity: '4',
        })),
      },
    }),
    source: 'spec',
  },
  'webhooks.orderStatus': {
    response: 'webhook-ack-response',
    request: 'order-status-event',
    // Published: targeturl and x-hub-signature; the IM-* headers are not listed for webhooks. The
    // signature needs the app's secret: the sender adds it (clients/webhook-signature.ts).
    headers: WEBHOOK_REQUIRED_HEADERS,
    query: [],
    successStatus: 200,
    limit: HIGH_VOLUME,
    readOnly: false,
    needs: [],
    build: ({ world, n }) => {
      const o = world.orders[0];
      return {
        params: {},
        query: {},
        headers: { [WEBHOOK_HEADERS.targetUrl]: NO_RECEIVER_TARGET_URL },
        body: {
          topic: 'resellers/order',
          event: 'im::order_shipped',
          eventTimeStamp: '2026-01-01T00:00:00Z',
          eventId: eventIdOf(world.seed, n),
          // The published document's schema requires a top-level customerOrderNumber it does not declare (a
          // document defect `npm run openapi -- check` lists): sent, so a service enforcing it accepts the event.
          customerOrderNumber: o?.customerOrderNumber ?? '',
          resource: [
            { eventType: 'im::shipped', orderNumber: o?.ingramOrderNumber ?? '', customerOrderNumber: o?.customerOrderNumber ?? '' },
          ],
        },
      };
    },
    source: 'spec',
  },
  'webhooks.availabilityUpdate': {
    response: 'webhook-ack-response',
    request: 'availability-update-event',
    headers: WEBHOOK_REQUIRED_HEADERS,
    query: [],
    successStatus: 200,
    limit: HIGH_VOLUME,
    readOnly: false,
    needs: [],
    build: ({ world, n }) => {
      const p = world.products[0];
      return {
        params: {},
        query: {},
        headers: { [WEBHOOK_HEADERS.targetUrl]: NO_RECEIVER_TARGET_URL },
        body: {
          topic: 'resellers/catalog',
          event: 'im::updated',
          eventTimeStamp: '2026-01-01T00:00:00Z',
          eventId: eventIdOf(world.seed, n),
          // Required at the top level by the published document, undeclared there (see webhooks.orderStatus).
          customerOrderNumber: world.orders[0]?.customerOrderNumber ?? '',
          resource: [
            { eventType: 'im::updated', ingramPartNumber: p?.ingramPartNumber ?? '', totalAvailability: String(p?.totalAvailability ?? 0) },
          ],
        },
      };
    },
    source: 'spec',
  },
  'catalog.detailsByReference': {
    response: 'product-details-response',
    headers: BASE_HEADERS,
    // Published: each optional; a subscription product is asked for by plan, any other by vendor part number.
    query: [q('vendorPartNumber'), q('planId'), q('planName')],
    successStatus: 200,
    limit: GET_LIMIT,
    readOnly: true,
    needs: [need('vendorPartNumber', 'query')],
    build: ({ ids }) => ({ params: {}, query: { vendorPartNumber: idOf(ids, 'vendorPartNumber') } }),
    source: 'spec',
  },
  'orders.createV7': {
    // Published: 200 with a confirmation number; the order itself is processed asynchronously.
    response: 'order-create-v7-response',
    request: 'order-create-v7-request',
    headers: BASE_HEADERS,
    query: [],
    successStatus: 200,
    // ASSUMPTION (finding ratelimit.document-operation-limits): a write, like orders.create.
    limit: WRITE,
    readOnly: false,
    needs: [],
    build: orderOf('PO-V'),
    source: 'spec',
  },
  'orders.vendorRequiredInfo': {
    response: 'vendor-required-info-response',
    request: 'vendor-required-info-request',
    // Published (YAML form): IM-SenderID is required here too.
    headers: [...BASE_HEADERS, H.senderId],
    query: [],
    successStatus: 200,
    // ASSUMPTION (finding ratelimit.document-operation-limits): a lookup by POST, like price and availability.
    limit: HIGH_VOLUME,
    readOnly: true,
    needs: [],
    build: ({ world, n }) => ({
      params: {},
      query: {},
      body: { products: productsOf(world, n).map((p) => ({ ingramPartNumber: p.ingramPartNumber })) },
    }),
    source: 'spec',
  },
  'quotes.create': {
    // Published (JSON form): 200 with the quote number; the quote itself is processed asynchronously.
    response: 'quote-create-response',
    request: 'quote-create-request',
    headers: BASE_HEADERS,
    query: [],
    successStatus: 200,
    // ASSUMPTION (finding ratelimit.document-operation-limits): a write.
    limit: WRITE,
    readOnly: false,
    needs: [],
    build: ({ world, n }) => ({
      params: {},
      query: {},
      body: {
        quoteName: `Certification quote ${world.seed}-${n}`,
        // The JSON form marks the contact required (as `required: true` on the property, an OpenAPI 2 form).
        CustomerContact: email,
        customerNeed: 'Certification',
        endUserInfo: { companyName, contact, addressLine1, city, state, postalCode, countryCode, email },
        products: productsOf(world, n).map((p, i) => ({
          customerLineNumber: String(i + 1),
          ingramPartNumber: p.ingramPartNumber,
          quantity: '2',
        })),
      },
    }),
    source: 'spec',
  },
};

export interface Operation {
  /** Stable id that reads like the spec, e.g. `orders.create`; an OperationId for reseller operations. */
  readonly id: string;
  readonly family: Family;
  /** API group as named in the spec's table, e.g. `Orders`. */
  readonly group: string;
  /** Operation name as written in the spec's table. */
  readonly name: string;
  readonly method: HttpMethod;
  /**
   * Path template relative to the family's base, with `{param}` placeholders.
   * Reseller paths start with `/resellers/...`; vendor paths are relative to `/vendors/v1`.
   */
  readonly path: string;
  readonly pathParams: readonly string[];
  readonly version: VersionSegment;
  /** True when the operation takes a JSON request body (POST/PUT). */
  readonly jsonBody: boolean;
  /** True when the operation changes no state on the target (safe on production). */
  readonly readOnly: boolean;
  /** True for the two webhook operations. */
  readonly webhook: boolean;
  /**
   * `$id` of the JSON Schema of a successful response body; absent where neither the seed nor the published
   * document gives the shape (the vendor family, quote to order): certify then records what the target answered (finding
   * shapes.not-published) and judges the shape only against a supplied OPENAPI document that has it.
   */
  readonly responseSchema?: string;
  /** `$id` of the JSON Schema of the request body, when `jsonBody`. */
  readonly requestSchema?: string;
  /** Required request headers (published). */
  readonly requiredHeaders: readonly string[];
  readonly queryParams: readonly QueryParam[];
  readonly successStatus: number;
  /** Calls per window before overrides. */
  readonly limit: number;
  readonly needs: readonly IdNeed[];
  /** Where the entry comes from: the spec's table, or an assumption of ours. */
  readonly source: 'spec' | 'assumption';
  /** Where the operation is listed: the seed spec's endpoint table, or only the distributor's published document. */
  readonly listedIn: 'spec' | 'document';
}

/** A reseller operation: its id is known to the compiler and it has a full definition. */
export interface ResellerOperation extends Operation {
  readonly id: OperationId;
  readonly definition: OperationDefinition;
}

function paramsOf(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
}

function versionOf(path: string): VersionSegment {
  const m = /\/(v\d+(?:\.\d+)?)(?:\/|$)/.exec(path);
  const v = m?.[1];
  if (v === 'v1' || v === 'v6' || v === 'v6.1' || v === 'v7') return v;
  throw new Error(`catalogue: path ${path} has no known version segment (expected v1, v6, v6.1 or v7)`);
}

export const resellerOperations: readonly ResellerOperation[] = RESELLER_ROWS.map((r) => {
  const d: OperationDefinition = DEFINITIONS[r.id];
  return {
    id: r.id,
    family: 'reseller',
    group: r.group,
    name: r.name,
    method: r.method,
    path: r.path,
    pathParams: paramsOf(r.path),
    version: versionOf(r.path),
    jsonBody: r.method === 'POST' || r.method === 'PUT',
    readOnly: d.readOnly,
    webhook: r.path.includes('/webhooks/'),
    ...(d.response ? { responseSchema: schemaId(d.response) } : {}),
    ...(d.request ? { requestSchema: schemaId(d.request) } : {}),
    requiredHeaders: d.headers,
    queryParams: d.query,
    successStatus: d.successStatus,
    limit: d.limit,
    needs: d.needs,
    source: d.source,
    listedIn: DOCUMENT_ONLY.has(r.id) ? 'document' : 'spec',
    definition: d,
  };
});

export const isOperationId = (id: string): id is OperationId => Object.prototype.hasOwnProperty.call(DEFINITIONS, id);

/** A vendor operation as configured by a user: method and path relative to `/vendors/v1`. */
export interface VendorOperationSpec {
  id: string;
  method: HttpMethod;
  path: string;
}

/**
 * ASSUMPTION: the spec shows the vendor family only as a placeholder path under /vendors/v1.
 * These three read-only operations are our default list; users replace it with their own
 * (VENDOR_OPERATIONS, see .env.example). No document gives their answers' shape: they have no response schema.
 */
export const DEFAULT_VENDOR_OPERATIONS: readonly VendorOperationSpec[] = [
  { id: 'vendor.orders.search', method: 'GET', path: '/orders/search' },
  { id: 'vendor.orders.details', method: 'GET', path: '/orders/{orderNumber}' },
  { id: 'vendor.catalog.search', method: 'GET', path: '/catalog' },
];

export function vendorOperations(specs: readonly VendorOperationSpec[] = DEFAULT_VENDOR_OPERATIONS): Operation[] {
  return specs.map((s) => {
    if (!s.path.startsWith('/')) {
      throw new Error(`catalogue: vendor operation ${s.id} path "${s.path}" must start with "/" (relative to /vendors/v1)`);
    }
    const jsonBody = s.method === 'POST' || s.method === 'PUT';
    const pathParams = paramsOf(s.path);
    return {
      id: s.id,
      family: 'vendor',
      group: 'Vendor',
      name: s.id,
      method: s.method,
      path: s.path,
      pathParams,
      version: 'v1',
      jsonBody,
      readOnly: s.method === 'GET',
      webhook: false,
      requiredHeaders: [],
      queryParams: [],
      successStatus: 200,
      // ASSUMPTION: a configured vendor write gets the write limit.
      limit: s.method === 'GET' ? GET_LIMIT : WRITE,
      needs: pathParams.filter((p): p is IdName => p in idSources).map((p) => need(p, 'path')),
      source: 'assumption',
      listedIn: 'spec',
    };
  });
}

/** Parses `GET /orders/search, GET /orders/{orderNumber}` or a JSON array of VendorOperationSpec. */
export function parseVendorOperations(text: string): VendorOperationSpec[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    const parsed = JSON.parse(trimmed) as VendorOperationSpec[];
    return parsed;
  }
  return trimmed
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const m = /^(GET|POST|PUT|DELETE)\s+(\/\S*)$/i.exec(entry);
      if (!m) {
        throw new Error(
          `VENDOR_OPERATIONS entry "${entry}" is not "METHOD /path" (expected e.g. "GET /orders/search, GET /orders/{orderNumber}")`,
        );
      }
      const method = (m[1] as string).toUpperCase() as HttpMethod;
      const path = m[2] as string;
      const id = `vendor.${method.toLowerCase()}${path.replace(/[{}]/g, '').replace(/\//g, '.')}`;
      return { id, method, path };
    });
}

/** What selects the operations of a run. */
export interface OperationsConfig {
  /** Families to include. Default both. */
  families?: readonly Family[];
  /** The vendor operations (VENDOR_OPERATIONS). Default the catalogue's list. */
  vendorOperations?: readonly VendorOperationSpec[];
}

/**
 * The operations of a run: reseller rows plus the configured vendor list, filtered by family.
 * The mock, the suite, the summary reporter, the OpenAPI export and the load plan all use it.
 */
export function operationsFor(config: OperationsConfig = {}): Operation[] {
  const families = config.families ?? ['reseller', 'vendor'];
  const ops: Operation[] = [...resellerOperations, ...vendorOperations(config.vendorOperations ?? DEFAULT_VENDOR_OPERATIONS)];
  return ops.filter((o) => families.includes(o.family));
}

/** Every operation of the default catalogue: the reseller rows plus the given (default) vendor list. */
export function allOperations(vendor: readonly VendorOperationSpec[] = DEFAULT_VENDOR_OPERATIONS): Operation[] {
  return operationsFor({ vendorOperations: vendor });
}

/** The catalogued operation of an id; an unknown id is an error naming the known ones. */
export function operationById(id: string, ops: readonly Operation[] = allOperations()): Operation {
  const op = ops.find((o) => o.id === id);
  if (!op) throw new Error(`unknown operation id "${id}"; known ids: ${ops.map((o) => o.id).join(', ')}`);
  return op;
}

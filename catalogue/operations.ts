/**
 * The endpoint catalogue: the single source of truth for every operation of the
 * Distributor Commerce API. Pure data: no node:*, no k6/*, no process.env, so it
 * compiles for Node and for k6 bundles alike.
 */

export type Family = 'reseller' | 'vendor';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type VersionSegment = 'v1' | 'v6' | 'v6.1';

export interface Operation {
  /** Stable id that reads like the spec, e.g. `orders.create`. */
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
  /** `$id` of the JSON Schema of a successful response body. */
  readonly responseSchema: string;
  /** `$id` of the JSON Schema of the request body, when `jsonBody`. */
  readonly requestSchema?: string;
  /** Where the entry comes from: the spec's table, or an assumption of ours. */
  readonly source: 'spec' | 'assumption';
}

const SCHEMA_BASE = 'https://harness.local/schemas/';
export const schemaId = (name: string): string => `${SCHEMA_BASE}${name}.json`;

interface Row {
  id: string;
  group: string;
  name: string;
  method: HttpMethod;
  path: string;
  response: string;
  request?: string;
}

function paramsOf(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
}

function versionOf(path: string): VersionSegment {
  const m = /\/(v\d+(?:\.\d+)?)(?:\/|$)/.exec(path);
  const v = m?.[1];
  if (v === 'v1' || v === 'v6' || v === 'v6.1') return v;
  throw new Error(`catalogue: path ${path} has no known version segment (expected v1, v6 or v6.1)`);
}

function build(family: Family, rows: readonly Row[], source: Operation['source']): Operation[] {
  return rows.map((r) => {
    const jsonBody = r.method === 'POST' || r.method === 'PUT';
    const webhook = r.path.includes('/webhooks/');
    // POST searches and estimates change nothing on the target; creates, modifies, cancels and webhooks do.
    const readOnly = r.method === 'GET' || /search|priceandavailability|freightestimate/.test(r.path);
    const op: Operation = {
      id: r.id,
      family,
      group: r.group,
      name: r.name,
      method: r.method,
      path: r.path,
      pathParams: paramsOf(r.path),
      version: family === 'vendor' ? 'v1' : versionOf(r.path),
      jsonBody,
      readOnly,
      webhook,
      responseSchema: schemaId(r.response),
      source,
      ...(r.request ? { requestSchema: schemaId(r.request) } : {}),
    };
    return op;
  });
}

/** The 24 rows of the spec's "Reseller family endpoints" table, in the spec's order. */
const RESELLER_ROWS: readonly Row[] = [
  {
    id: 'catalog.priceAndAvailability',
    group: 'Product Catalog',
    name: 'Price and availability',
    method: 'POST',
    path: '/resellers/v6/catalog/priceandavailability',
    response: 'price-and-availability-response',
    request: 'price-and-availability-request',
  },
  {
    id: 'catalog.search',
    group: 'Product Catalog',
    name: 'Search products',
    method: 'GET',
    path: '/resellers/v6/catalog',
    response: 'product-search-response',
  },
  {
    id: 'catalog.details',
    group: 'Product Catalog',
    name: 'Product details',
    method: 'GET',
    path: '/resellers/v6/catalog/details/{partNumber}',
    response: 'product-details-response',
  },
  {
    id: 'orders.create',
    group: 'Orders',
    name: 'Create order',
    method: 'POST',
    path: '/resellers/v6/orders',
    response: 'order-create-response',
    request: 'order-create-request',
  },
  {
    id: 'orders.modify',
    group: 'Orders',
    name: 'Modify order',
    method: 'PUT',
    path: '/resellers/v6/orders/{orderNumber}',
    response: 'order-modify-response',
    request: 'order-modify-request',
  },
  {
    id: 'orders.details',
    group: 'Orders',
    name: 'Get order details (version 6.1)',
    method: 'GET',
    path: '/resellers/v6.1/orders/{orderNumber}',
    response: 'order-details-response',
  },
  {
    id: 'orders.search',
    group: 'Orders',
    name: 'Search orders',
    method: 'GET',
    path: '/resellers/v6/orders/search',
    response: 'order-search-response',
  },
  {
    id: 'orders.cancel',
    group: 'Orders',
    name: 'Cancel order',
    method: 'DELETE',
    path: '/resellers/v6/orders/{orderNumber}',
    response: 'order-cancel-response',
  },
  {
    id: 'quotes.search',
    group: 'Quotes',
    name: 'Search quotes',
    method: 'GET',
    path: '/resellers/v6/quotes/search',
    response: 'quote-search-response',
  },
  {
    id: 'quotes.details',
    group: 'Quotes',
    name: 'Quote details',
    method: 'GET',
    path: '/resellers/v6/quotes/{quoteNumber}',
    response: 'quote-details-response',
  },
  {
    id: 'quotes.validate',
    group: 'Quotes',
    name: 'Validate quote',
    method: 'GET',
    path: '/resellers/v6/q2o/validatequote',
    response: 'quote-validate-response',
  },
  {
    id: 'quoteToOrder.create',
    group: 'Quote To Order',
    name: 'Quote to order',
    method: 'POST',
    path: '/resellers/v6/q2o/orders',
    response: 'quote-to-order-response',
    request: 'quote-to-order-request',
  },
  {
    id: 'invoices.search',
    group: 'Invoice',
    name: 'Search invoices',
    method: 'GET',
    path: '/resellers/v6/invoices/',
    response: 'invoice-search-response',
  },
  {
    id: 'invoices.details',
    group: 'Invoice',
    name: 'Get invoice details (version 6.1)',
    method: 'GET',
    path: '/resellers/v6.1/invoices/{invoiceNumber}',
    response: 'invoice-details-response',
  },
  {
    id: 'renewals.search',
    group: 'Renewals',
    name: 'Search renewals',
    method: 'POST',
    path: '/resellers/v6/renewals/search',
    response: 'renewal-search-response',
    request: 'renewal-search-request',
  },
  {
    id: 'renewals.details',
    group: 'Renewals',
    name: 'Renewal details',
    method: 'GET',
    path: '/resellers/v6/renewals/{renewalId}',
    response: 'renewal-details-response',
  },
  {
    id: 'deals.search',
    group: 'Deals',
    name: 'Search deals',
    method: 'GET',
    path: '/resellers/v6/deals/search',
    response: 'deal-search-response',
  },
  {
    id: 'deals.details',
    group: 'Deals',
    name: 'Deal details',
    method: 'GET',
    path: '/resellers/v6/deals/{dealId}',
    response: 'deal-details-response',
  },
  {
    id: 'returns.search',
    group: 'Returns',
    name: 'Search returns',
    method: 'GET',
    path: '/resellers/v6/returns/search',
    response: 'return-search-response',
  },
  {
    id: 'returns.details',
    group: 'Returns',
    name: 'Return details',
    method: 'GET',
    path: '/resellers/v6/returns/{caseRequestNumber}',
    response: 'return-details-response',
  },
  {
    id: 'returns.create',
    group: 'Returns',
    name: 'Create return',
    method: 'POST',
    path: '/resellers/v6/returns/create',
    response: 'return-create-response',
    request: 'return-create-request',
  },
  {
    id: 'freight.estimate',
    group: 'Freight Estimate',
    name: 'Freight estimate',
    method: 'POST',
    path: '/resellers/v6/freightestimate',
    response: 'freight-estimate-response',
    request: 'freight-estimate-request',
  },
  {
    id: 'webhooks.orderStatus',
    group: 'Webhook',
    name: 'Order status',
    method: 'POST',
    path: '/resellers/v1/webhooks/orderstatusevent',
    response: 'webhook-ack-response',
    request: 'order-status-event',
  },
  {
    id: 'webhooks.availabilityUpdate',
    group: 'Webhook',
    name: 'Stock update',
    method: 'POST',
    path: '/resellers/v1/webhooks/availabilityupdate',
    response: 'webhook-ack-response',
    request: 'availability-update-event',
  },
];

export const resellerOperations: readonly Operation[] = build('reseller', RESELLER_ROWS, 'spec');

/** A vendor operation as configured by a user: method and path relative to `/vendors/v1`. */
export interface VendorOperationSpec {
  id: string;
  method: HttpMethod;
  path: string;
}

/**
 * ASSUMPTION: the spec shows the vendor family only as a placeholder path under /vendors/v1.
 * These three read-only operations are our default list; users replace it with their own
 * (VENDOR_OPERATIONS, see .env.example). The vendor responses use one generic schema.
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
    const op: Operation = {
      id: s.id,
      family: 'vendor',
      group: 'Vendor',
      name: s.id,
      method: s.method,
      path: s.path,
      pathParams: paramsOf(s.path),
      version: 'v1',
      jsonBody: s.method === 'POST' || s.method === 'PUT',
      readOnly: s.method === 'GET',
      webhook: false,
      responseSchema: schemaId('vendor-generic-response'),
      source: 'assumption',
    };
    return op;
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

/** Every operation of the default catalogue: 24 reseller rows plus the default vendor list. */
export function allOperations(vendor: readonly VendorOperationSpec[] = DEFAULT_VENDOR_OPERATIONS): Operation[] {
  return [...resellerOperations, ...vendorOperations(vendor)];
}

export function operationById(id: string, ops: readonly Operation[] = allOperations()): Operation {
  const op = ops.find((o) => o.id === id);
  if (!op) {
    throw new Error(`unknown operation id "${id}"; known ids: ${ops.map((o) => o.id).join(', ')}`);
  }
  return op;
}

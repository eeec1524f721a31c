/**
 * JSON Schemas (draft 2020-12 subset that ajv's default draft-07 also reads) for every body the
 * harness validates. The spec shows only the token response and the 429 error body; every
 * business shape below is OURS (the spec says "not shown"): the mock serves them and the
 * contract suite validates them. Each schema is registered once by its `$id`.
 */
import { schemaId } from './operations';

export type JsonSchema = Record<string, unknown>;

const str = { type: 'string', minLength: 1 } as const;
const text = { type: 'string' } as const;
const nonNegInt = { type: 'integer', minimum: 0 } as const;
const num = { type: 'number' } as const;
const bool = { type: 'boolean' } as const;
const dateTime = { type: 'string', format: 'date-time' } as const;
const currency = { type: 'string', pattern: '^[A-Z]{3}$' } as const;

function obj(properties: Record<string, unknown>, required: string[] = Object.keys(properties)): JsonSchema {
  return { type: 'object', properties, required };
}
function arr(items: unknown, minItems = 0): JsonSchema {
  return { type: 'array', items, minItems };
}
function page(key: string, item: JsonSchema): JsonSchema {
  return obj({ recordsFound: nonNegInt, pageSize: nonNegInt, pageNumber: { type: 'integer', minimum: 1 }, [key]: arr(item) });
}
function named(name: string, schema: JsonSchema): JsonSchema {
  return { $id: schemaId(name), title: name, ...schema };
}

const line = obj({
  lineNumber: { type: 'integer', minimum: 1 },
  partNumber: str,
  quantity: { type: 'integer', minimum: 1 },
  unitPrice: num,
});
const lineRequest = obj({ partNumber: str, quantity: { type: 'integer', minimum: 1 } });
const price = obj({ currency, unitPrice: num });
const availability = obj({ available: bool, totalAvailability: nonNegInt });
const productSummary = obj({ partNumber: str, vendorPartNumber: str, vendorName: str, description: text });
const product = obj({ ...(productSummary.properties as object), upc: text, category: text, price, availability });
const orderStatus = { enum: ['CREATED', 'MODIFIED', 'CANCELLED', 'SHIPPED', 'INVOICED'] };
const orderSummary = obj({ orderNumber: str, customerOrderNumber: text, status: orderStatus, createdAt: dateTime });
const quoteSummary = obj({ quoteNumber: str, quoteName: text, status: { enum: ['ACTIVE', 'EXPIRED', 'ORDERED'] }, expiryDate: dateTime });
const invoiceSummary = obj({ invoiceNumber: str, orderNumber: str, invoiceDate: dateTime, total: num, currency });
const renewalSummary = obj({ renewalId: str, vendorName: text, endDate: dateTime, status: { enum: ['OPEN', 'RENEWED', 'EXPIRED'] } });
const dealSummary = obj({ dealId: str, dealName: text, vendorName: text, expiryDate: dateTime });
const returnSummary = obj({
  caseRequestNumber: str,
  orderNumber: str,
  status: { enum: ['OPEN', 'APPROVED', 'REJECTED', 'CLOSED'] },
  createdAt: dateTime,
});

/** Spec-given: the token response (Access token response table). */
export const tokenResponseSchema = named('token-response', {
  type: 'object',
  properties: {
    access_token: str,
    token_type: { const: 'Bearer' },
    expires_in: { type: 'integer', exclusiveMinimum: 0 },
  },
  required: ['access_token', 'token_type', 'expires_in'],
});

/** Spec-given: the error body shown for 429 (errors[] with field string-or-null and message string). */
export const errorBodySchema = named('error-body', {
  type: 'object',
  properties: {
    errors: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        properties: { field: { type: ['string', 'null'] }, message: { type: 'string' } },
        required: ['field', 'message'],
      },
    },
  },
  required: ['errors'],
});

export const businessSchemas: readonly JsonSchema[] = [
  named('price-and-availability-request', obj({ products: arr(obj({ partNumber: str }), 1) })),
  named('price-and-availability-response', obj({ products: arr(obj({ partNumber: str, price, availability })) })),
  named('product-search-response', page('catalog', productSummary)),
  named('product-details-response', product),
  named('order-create-request', obj({ customerOrderNumber: str, lines: arr(lineRequest, 1) })),
  named('order-create-response', obj({ orderNumber: str, customerOrderNumber: str, status: { const: 'CREATED' }, createdAt: dateTime })),
  named('order-modify-request', { ...obj({ lines: arr(lineRequest, 1), notes: text }, []), minProperties: 1 }),
  named('order-modify-response', obj({ orderNumber: str, status: { const: 'MODIFIED' } })),
  named('order-details-response', obj({ ...(orderSummary.properties as object), lines: arr(line), orderTotal: num, currency })),
  named('order-search-response', page('orders', orderSummary)),
  named('order-cancel-response', obj({ orderNumber: str, status: { const: 'CANCELLED' } })),
  named('quote-search-response', page('quotes', quoteSummary)),
  named('quote-details-response', obj({ ...(quoteSummary.properties as object), lines: arr(line), total: num, currency })),
  named('quote-validate-response', obj({ quoteNumber: str, valid: bool, messages: arr(text) })),
  named('quote-to-order-request', obj({ quoteNumber: str, customerOrderNumber: str })),
  named('quote-to-order-response', obj({ orderNumber: str, quoteNumber: str, status: { const: 'CREATED' } })),
  named('invoice-search-response', page('invoices', invoiceSummary)),
  named('invoice-details-response', obj({ ...(invoiceSummary.properties as object), lines: arr(line) })),
  named(
    'renewal-search-request',
    obj({ status: { enum: ['OPEN', 'RENEWED', 'EXPIRED'] }, pageNumber: { type: 'integer', minimum: 1 } }, []),
  ),
  named('renewal-search-response', page('renewals', renewalSummary)),
  named('renewal-details-response', obj({ ...(renewalSummary.properties as object), lines: arr(line), total: num, currency })),
  named('deal-search-response', page('deals', dealSummary)),
  named('deal-details-response', obj({ ...(dealSummary.properties as object), products: arr(obj({ partNumber: str, dealPrice: num })) })),
  named('return-search-response', page('returns', returnSummary)),
  named('return-details-response', obj({ ...(returnSummary.properties as object), reason: text, lines: arr(lineRequest) })),
  named('return-create-request', obj({ orderNumber: str, reason: str, lines: arr(lineRequest, 1) })),
  named('return-create-response', obj({ caseRequestNumber: str, orderNumber: str, status: { const: 'OPEN' } })),
  named('freight-estimate-request', obj({ shipToPostalCode: str, lines: arr(lineRequest, 1) })),
  named(
    'freight-estimate-response',
    obj({ currency, estimates: arr(obj({ carrier: str, service: str, charge: num, transitDays: nonNegInt }), 1) }),
  ),
  named(
    'order-status-event',
    obj({ eventId: str, eventType: { const: 'ORDER_STATUS' }, orderNumber: str, status: orderStatus, occurredAt: dateTime }),
  ),
  named(
    'availability-update-event',
    obj({ eventId: str, eventType: { const: 'AVAILABILITY_UPDATE' }, partNumber: str, totalAvailability: nonNegInt, occurredAt: dateTime }),
  ),
  named('webhook-ack-response', obj({ received: { const: true }, eventId: str })),
  named('vendor-generic-response', obj({ operation: str, items: arr({ type: 'object' }) })),
];

/** Every schema of the catalogue, for registering once in one Ajv instance. */
export const allSchemas: readonly JsonSchema[] = [tokenResponseSchema, errorBodySchema, ...businessSchemas];

export function schemaById(id: string): JsonSchema {
  const s = allSchemas.find((x) => x.$id === id);
  if (!s) throw new Error(`catalogue: no schema with $id ${id}`);
  return s;
}

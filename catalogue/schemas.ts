/**
 * JSON Schemas (draft-07 keywords) of every body the harness validates.
 *
 * The seed spec shows only the token response and the 429 error body. The business shapes follow
 * the field names and types of the distributor's published OpenAPI document (names and types are
 * facts); the schemas are written here, not copied. Extra fields are allowed everywhere (a target may send more).
 *
 * Requests (what the mock validates with): each documented operation's body as request-constraints.ts holds it
 * (every constraint either published form gives, at every depth; what either form allows is allowed), held to both
 * forms, both ways, by tests/openapi/request-schemas.spec.ts. Quote to order, which no form documents, keeps a
 * schema of ours that requires nothing.
 * Answers (what certify validates with): the same rule, held to both forms by tests/openapi/answer-schemas.spec.ts:
 * no field required (the published ones require none), no bound, format or enum the forms do not give. The
 * fields a client cannot do without (ids, paging, the lists) are no document's: catalogue/answers.ts lists
 * them (EXPECTED_FIELDS) and certify records whether a target sends them (finding shapes.expected-field-absent).
 * The vendor family's answers and quote to order's have no schema: no document gives them (finding shapes.not-published).
 */
import { documentedBodyOf } from './request-constraints';

export type JsonSchema = Record<string, unknown>;

const SCHEMA_BASE = 'https://harness.local/schemas/';
export const schemaId = (name: string): string => `${SCHEMA_BASE}${name}.json`;

const str = { type: 'string' } as const;
const int = { type: 'integer' } as const;
const num = { type: 'number' } as const;
const bool = { type: 'boolean' } as const;

function obj(properties: Record<string, unknown>, required: readonly string[] = []): JsonSchema {
  return required.length ? { type: 'object', properties, required: [...required] } : { type: 'object', properties };
}
const arr = (items: unknown): JsonSchema => ({ type: 'array', items });
/** Properties of the given names, all of one schema. */
const fields = (names: readonly string[], s: unknown = str): Record<string, unknown> => Object.fromEntries(names.map((n) => [n, s]));
/** The schema, or null: the document's `nullable: true`. */
const orNull = (s: JsonSchema): JsonSchema => ({ ...s, type: [s.type as string, 'null'] });
/** The object with each property of the given names (every property when none is named) nullable. */
function nullableFields(o: JsonSchema, names?: readonly string[]): JsonSchema {
  const props = Object.entries(o.properties as Record<string, JsonSchema>);
  return { ...o, properties: Object.fromEntries(props.map(([k, v]) => [k, !names || names.includes(k) ? orNull(v) : v])) };
}
/** The properties, each nullable. */
const nullableProperties = (props: Record<string, unknown>): Record<string, unknown> =>
  nullableFields(obj(props)).properties as Record<string, unknown>;
function named(name: string, schema: JsonSchema): JsonSchema {
  return { $id: schemaId(name), title: name, ...schema };
}

const link = obj(fields(['topic', 'href', 'type']));
const links = arr(link);
const address = obj(
  fields([
    'contact',
    'companyName',
    'addressLine1',
    'addressLine2',
    'addressLine3',
    'city',
    'state',
    'postalCode',
    'countryCode',
    'phoneNumber',
    'email',
  ]),
);
/** Search answers: paging fields and the list. */
const page = (key: string, item: JsonSchema, extra: Record<string, unknown> = {}): JsonSchema =>
  obj({ recordsFound: int, pageSize: int, pageNumber: int, [key]: arr(item), nextPage: str, previousPage: str, ...extra });

// ---- Seed-given shapes -------------------------------------------------------------------------

/** Spec-given: the token response (Access token response table). */
export const tokenResponseSchema = named('token-response', {
  type: 'object',
  properties: {
    access_token: { type: 'string', minLength: 1 },
    token_type: { const: 'Bearer' },
    expires_in: { type: 'integer', exclusiveMinimum: 0 },
  },
  required: ['access_token', 'token_type', 'expires_in'],
});

/**
 * Spec-given: the error body shown for 429 (errors[] with field string-or-null and message string).
 * The published document adds `id`, `type` and `fields[]` to each entry; both shapes hold at once.
 */
export const errorBodySchema = named('error-body', {
  type: 'object',
  properties: {
    errors: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        properties: {
          field: { type: ['string', 'null'] },
          message: { type: 'string' },
          id: str,
          type: str,
          fields: arr(obj(fields(['field', 'value', 'message']))),
        },
        required: ['field', 'message'],
      },
    },
  },
  required: ['errors'],
});

// ---- Product catalog -----------------------------------------------------------------------------

/** Price and availability: the document makes nearly every field nullable (not the index, the currency, `available`). */
const warehouse = nullableFields(
  obj({
    location: str,
    warehouseId: str,
    quantityAvailable: int,
    quantityBackordered: int,
    quantityBackorderedEta: str,
    quantityOnOrder: int,
  }),
);
const pricing = nullableFields(
  obj({
    currencyCode: str,
    retailPrice: num,
    mapPrice: num,
    customerPrice: num,
    specialBidPricingAvailable: bool,
    webDiscountsAvailable: bool,
  }),
  ['retailPrice', 'mapPrice', 'customerPrice', 'specialBidPricingAvailable', 'webDiscountsAvailable'],
);
const availability = obj({ available: bool, ...nullableProperties({ totalAvailability: int, availabilityByWarehouse: arr(warehouse) }) });
const priceAvailabilityItem = obj({
  index: num,
  ...nullableProperties({
    productStatusCode: str,
    productStatusMessage: str,
    ...fields(['ingramPartNumber', 'vendorPartNumber', 'customerPartNumber', 'upc', 'partNumberType', 'vendorNumber', 'vendorName']),
    ...fields(['description', 'productClass', 'uom', 'productStatus']),
    ...fields(['acceptBackOrder', 'productAuthorized', 'returnableProduct', 'endUserInfoRequired', 'govtSpecialPriceAvailable'], bool),
    availability,
    pricing,
    bundlePartIndicator: bool,
  }),
});
const productSummary = obj({
  ...fields(['description', 'category', 'subCategory', 'productType', 'ingramPartNumber', 'vendorPartNumber', 'upcCode', 'vendorName']),
  ...fields(['endUserRequired', 'hasDiscounts', 'type', 'discontinued', 'newProduct', 'directShip', 'hasWarranty', 'authorizedToPurchase']),
  links,
});
/** Product details: the document makes each string at the top nullable. */
const productDetails = obj({
  ...fields(
    ['ingramPartNumber', 'vendorPartNumber', 'productAuthorized', 'description', 'upc', 'productCategory', 'productSubcategory'],
    orNull(str),
  ),
  ...fields(['vendorName', 'vendorNumber', 'productStatusCode', 'productClass', 'customerPartNumber'], orNull(str)),
  indicators: obj(
    fields(
      ['hasWarranty', 'isNewProduct', 'isDirectship', 'isDownloadable', 'isDigitalType', 'isDiscontinuedProduct', 'isReturnableProduct'],
      bool,
    ),
  ),
  // The YAML form lists strings, the JSON form objects.
  warrantyInformation: arr({ type: ['string', 'object'] }),
  additionalInformation: obj({ isBulkFreight: bool, ...fields(['height', 'width', 'length', 'netWeight', 'dimensionUnit']) }),
});

// ---- Orders ---------------------------------------------------------------------------------------

const orderLineRequest = obj({
  ...fields(['customerLineNumber', 'ingramPartNumber', 'specialBidNumber', 'notes']),
  quantity: int,
  unitPrice: num,
});
const createdOrderLine = obj({
  ...fields(['subOrderNumber', 'ingramLineNumber', 'customerLineNumber', 'lineStatus', 'ingramPartNumber', 'vendorPartNumber']),
  unitPrice: num,
  extendedUnitPrice: num,
  ...fields(['quantityOrdered', 'quantityConfirmed', 'quantityBackOrdered'], int),
});
const createdOrder = obj({
  ...fields(['numberOfLinesWithSuccess', 'numberOfLinesWithError', 'numberOfLinesWithWarning'], int),
  ...fields(['ingramOrderNumber', 'ingramOrderDate', 'notes', 'orderType', 'currencyCode']),
  ...fields(['orderTotal', 'freightCharges', 'totalTax'], num),
  lines: arr(createdOrderLine),
  links,
});
const orderDetailsLine = obj({
  ...fields(['subOrderNumber', 'ingramOrderLineNumber', 'customerLineNumber', 'lineStatus', 'ingramPartNumber', 'vendorPartNumber']),
  ...fields(['vendorName', 'partDescription', 'upcCode', 'currencyCode']),
  ...fields(['unitPrice', 'extendedPrice', 'taxAmount'], num),
  ...fields(['quantityOrdered', 'quantityConfirmed', 'quantityBackOrdered'], int),
});
const orderSummary = obj({
  ...fields(['ingramOrderNumber', 'ingramOrderDate', 'customerOrderNumber', 'vendorName', 'endUserCompanyName', 'orderStatus']),
  orderTotal: num,
  subOrders: arr(obj({ subOrderNumber: str, subOrderTotal: num, subOrderStatus: str })),
  links: link,
});

// ---- Quotes, invoices, renewals, deals, returns, freight ------------------------------------------

const quoteSummary = obj({
  ...fields(['quoteGuid', 'quoteName', 'quoteNumber', 'revision', 'currencyCode', 'endUserContact', 'specialBidNumber', 'quoteStatus']),
  ...fields(['ingramQuoteDate', 'lastModifiedDate', 'ingramQuoteExpiryDate', 'endUserName', 'vendor', 'createdBy', 'quoteType']),
  quoteTotal: num,
  links: link,
});
const quoteProduct = obj({
  ...fields(['quoteProductGuid', 'lineNumber', 'ingramPartNumber', 'vendorPartNumber', 'description', 'vendorName']),
  quantity: int,
  price: obj(fields(['quotePrice', 'msrp', 'extendedMsrp', 'extendedQuotePrice'], orNull(num))),
});
const invoiceSummary = obj({
  ...fields(['paymentTermsDueDate', 'erpOrderNumber', 'invoiceNumber', 'invoiceStatus', 'invoiceDate', 'invoiceDueDate']),
  ...fields(['customerOrderNumber', 'endCustomerOrderNumber', 'orderCreateDate']),
  specialBidNumbers: arr(str),
  invoicedAmountDue: num,
  invoiceAmountInclTax: num,
});
const invoiceLine = obj({
  ...fields(['ingramLineNumber', 'customerLineNumber', 'ingramPartNumber', 'upc', 'vendorPartNumber', 'vendorName', 'productDescription']),
  currencyCode: str,
  ...fields(['quantity', 'quantityOrdered', 'quantityShipped'], int),
  ...fields(['unitPrice', 'extendedPrice', 'taxAmount'], num),
});
const renewalSummary = obj({
  renewalId: int,
  ...fields(['customerOrderNumber', 'referenceNumber', 'endUser', 'vendor', 'expirationDate', 'status']),
  renewalValue: num,
  links,
});
const dealSummary = obj({ ...fields(['dealId', 'version', 'endUser', 'vendor', 'dealExpiryDate']), links: link });
const returnSummary = obj({
  ...fields(['returnClaimId', 'caseRequestNumber', 'createdOn', 'type', 'returnReason', 'referenceNumber', 'modifiedOn', 'status']),
  estimatedTotalValue: num,
  credit: num,
  links,
});
const returnClaim = obj({
  ...fields(['rmaClaimId', 'caseRequestNumber', 'referenceNumber', 'createdOn', 'type', 'returnReason', 'ingramPartNumber']),
  ...fields(['vendorPartNumber', 'notes', 'status']),
  quantity: int,
  estimatedTotalValue: num,
  credit: num,
  links,
});

// ---- Operations the published document adds to the seed's table ------------------------------------

/** A vendor's attribute an order must carry (published: choices nest further; read one level deep here). */
const vendorAttribute = obj({
  ...fields(['attributeName', 'attributeValue', 'attributeDescription', 'attributeHint', 'attributeRequired']),
  choices: arr({}),
});
const vendorAttributes = obj({ ...fields(['vendorName', 'productId']), additionalAttributes: arr(vendorAttribute) });
const requiredInfoItem = obj({
  ...fields(['quoteNumber', 'ingramPartNumber', 'vendorPartNumber', 'planId', 'planName']),
  responseMessages: arr(obj(fields(['id', 'traceId', 'type', 'message']))),
  vmfAdditionalAttributes: arr(vendorAttributes),
  vriAdditionalAttributes: arr(vendorAttributes),
});

export const businessSchemas: readonly JsonSchema[] = [
  named('price-and-availability-request', documentedBodyOf('catalog.priceAndAvailability')),
  /** Published: a top-level array, one entry per product asked for. */
  named('price-and-availability-response', arr(priceAvailabilityItem)),
  named('product-search-response', page('catalog', productSummary)),
  named('product-details-response', productDetails),
  named('order-create-request', documentedBodyOf('orders.create')),
  named(
    'order-create-response',
    obj({
      ...fields(['customerOrderNumber', 'endCustomerOrderNumber', 'billToAddressId', 'specialBidNumber']),
      orderSplit: bool,
      processedPartially: bool,
      purchaseOrderTotal: num,
      shipToInfo: address,
      orders: arr(createdOrder),
    }),
  ),
  named('order-modify-request', documentedBodyOf('orders.modify')),
  named(
    'order-modify-response',
    obj({
      ...fields(['ingramOrderNumber', 'changeDescription', 'orderModifiedDate', 'customerOrderNumber', 'endCustomerOrderNumber', 'notes']),
      ...fields(['orderTotal', 'orderSubTotal', 'freightCharges', 'totalTax'], num),
      orderStatus: str,
      lines: arr(
        obj({
          ...fields(['subOrderNumber', 'ingramLineNumber', 'customerLineNumber', 'ingramPartNumber', 'vendorPartNumber']),
          quantityOrdered: int,
          quantityConfirmed: int,
        }),
      ),
      rejectedLineItems: arr(
        obj({ ...fields(['ingramLineNumber', 'ingramPartNumber', 'rejectCode', 'rejectReason']), quantityOrdered: int }),
      ),
    }),
  ),
  named(
    'order-details-response',
    obj({
      ...fields(['ingramOrderNumber', 'ingramOrderDate', 'orderType', 'customerOrderNumber', 'endCustomerOrderNumber', 'orderStatus']),
      ...fields(['currencyCode', 'paymentTerms', 'notes']),
      ...fields(['orderTotal', 'orderSubTotal', 'freightCharges', 'totalTax', 'totalFees'], num),
      billToInfo: address,
      shipToInfo: address,
      lines: orNull(arr(orderDetailsLine)),
    }),
  ),
  named('order-search-response', page('orders', orderSummary)),
  /** Published: 200 without a body; the mock answers an empty JSON object (responses are JSON). */
  named('order-cancel-response', obj({})),
  named('quote-search-response', page('quotes', quoteSummary, { prevPage: str })),
  named(
    'quote-details-response',
    obj({
      ...fields(['quoteName', 'quoteNumber', 'quoteGuid', 'revision', 'ingramQuoteDate', 'lastModifiedDate', 'ingramQuoteExpiryDate']),
      ...fields(['currencyCode', 'status', 'quoteType', 'vendorQuoteNumber']),
      isPartialOrderAllowed: orNull(bool),
      products: arr(quoteProduct),
      productsCount: int,
      quantityTotal: int,
      extendedQuotePriceTotal: num,
    }),
  ),
  named(
    'quote-validate-response',
    obj({
      ...fields(['quoteNumber', 'vendorName', 'vendorGroupName', 'vendorQuoteNumber', 'vendorMasterNumber']),
      quoteType: int,
      lines: arr(obj({ customerLineNumber: str, ingramPartNumber: str, quantity: int })),
    }),
  ),
  /**
   * ASSUMPTION: quote to order is absent from the published document; its request follows the published order
   * request with a quote, nothing required (no document requires anything). No document gives its answer.
   */
  named(
    'quote-to-order-request',
    obj({ ...fields(['quoteNumber', 'customerOrderNumber', 'endCustomerOrderNumber', 'notes']), lines: arr(orderLineRequest) }),
  ),
  named('invoice-search-response', page('invoices', invoiceSummary)),
  named(
    'invoice-details-response',
    obj({
      ...fields(['invoiceNumber', 'invoiceStatus', 'invoiceDate', 'customerOrderNumber', 'endCustomerOrderNumber', 'orderNumber']),
      ...fields(['orderDate', 'invoiceType', 'invoiceDueDate', 'customerCountryCode', 'customerNumber', 'ingramOrderNumber', 'notes']),
      billToInfo: address,
      shipToInfo: address,
      lines: arr(invoiceLine),
      summary: obj({ totals: obj(fields(['netInvoiceAmount', 'totalTaxAmount', 'invoicedAmountDue', 'freightAmount'], num)) }),
    }),
  ),
  named('renewal-search-request', documentedBodyOf('renewals.search')),
  named('renewal-search-response', page('renewals', renewalSummary)),
  named(
    'renewal-details-response',
    obj({
      ...fields(['renewalId', 'ingramOrderNumber', 'ingramOrderDate', 'expirationDate', 'customerOrderNumber', 'renewalValue']),
      ...fields(['endUser', 'vendor', 'status']),
      endUserInfo: address,
      products: arr(
        obj({
          ...fields(['ingramLineNumber', 'productDescription', 'vendorPartNumber', 'ingramPartNumber']),
          quantity: int,
          unitPrice: num,
        }),
      ),
    }),
  ),
  named('deal-search-response', page('deals', dealSummary)),
  named(
    'deal-details-response',
    obj({
      ...fields(['dealId', 'version', 'endUser', 'vendor', 'dealReceivedOn', 'dealExpiryDate', 'priceProtectionEndDate', 'currencyCode']),
      extendedMsrp: num,
      products: arr(
        obj({
          ...fields(['ingramPartNumber', 'vendorPartNumber', 'upc', 'productDescription', 'startDate', 'expirationDate']),
          ...fields(['msrp', 'standardPrice'], num),
          ...fields(['approvedQuantity', 'remainingQuantity', 'daysRemaining'], int),
        }),
      ),
    }),
  ),
  named('return-search-response', page('returnsClaims', returnSummary)),
  named(
    'return-details-response',
    obj({
      ...fields(['typeOfDetails', 'rmaClaimId', 'caseRequestNumber', 'createdOn', 'returnReason', 'referenceNumber', 'status']),
      products: arr(
        obj({
          ingramLineNumber: int,
          ...fields([
            'description',
            'ingramPartNumber',
            'vendorPartNumber',
            'invoiceDate',
            'invoiceNumber',
            'customerOrderNumber',
            'status',
          ]),
          ...fields(['quantity', 'unitPrice', 'extendedPrice'], num),
        }),
      ),
      ...fields(['subTotal', 'tax', 'additionalFees', 'estimatedTotal'], num),
    }),
  ),
  /** Published: no field of the request required (each entry of the list has its required fields). */
  named('return-create-request', documentedBodyOf('returns.create')),
  named('return-create-response', obj({ returnsClaims: arr(returnClaim) })),
  named('freight-estimate-request', documentedBodyOf('freight.estimate')),
  named(
    'freight-estimate-response',
    obj({
      freightEstimateResponse: obj({
        currencyCode: str,
        ...fields(['totalFreightAmount', 'totalTaxAmount', 'totalFees', 'totalNetAmount', 'grossAmount'], num),
        distribution: arr(
          obj({ ...fields(['shipFromBranchNumber', 'carrierCode', 'shipVia']), freightRate: num, totalWeight: num, transitDays: int }),
        ),
        lines: arr(
          obj({ ...fields(['ingramPartNumber', 'vendorPartNumber', 'warehouseId']), quantity: int, unitPrice: num, netAmount: num }),
        ),
      }),
    }),
  ),
  named('order-status-event', documentedBodyOf('webhooks.orderStatus')),
  named('availability-update-event', documentedBodyOf('webhooks.availabilityUpdate')),
  /** Published: 200 without a body; the mock answers an empty JSON object. */
  named('webhook-ack-response', obj({})),
  /** Published: the 201 answer of order create v7 and quote create, in the shape of their status webhook. */
  named(
    'webhook-event-answer',
    // The 201 of order create v7 gives the resource as an object, quote create's as a list.
    obj({
      ...fields(['topic', 'event', 'eventTimeStamp', 'eventId', 'eventType']),
      resource: { type: ['object', 'array'], items: { type: 'object' } },
    }),
  ),
  /** Published (v7): the v6 request with a quote, vendor attributes and richer lines; no field required, most nullable. */
  named('order-create-v7-request', documentedBodyOf('orders.createV7')),
  /** Published: the order is confirmed, not yet numbered (the Order Status webhook follows); no field required. */
  named('order-create-v7-response', obj({ quoteNumber: { type: ['string', 'null'] }, confirmationNumber: str, message: str })),
  /** Published (YAML form only); no field required: `{}` asks for nothing and is answered `[]`. */
  named('vendor-required-info-request', documentedBodyOf('orders.vendorRequiredInfo')),
  /** Published: a top-level array, one entry per product asked for. */
  named('vendor-required-info-response', arr(requiredInfoItem)),
  /** Published (JSON form only): every field a string, quantities too; no field required. */
  named('quote-create-request', documentedBodyOf('quotes.create')),
  /** Published: the quote number at once; the quote is processed asynchronously (the Quote Status webhook follows). */
  named('quote-create-response', obj({ quoteNumber: str, message: str })),
];

/** Every schema of the catalogue, for registering once in one Ajv instance. */
export const allSchemas: readonly JsonSchema[] = [tokenResponseSchema, errorBodySchema, ...businessSchemas];

/** The catalogue's schema of an $id; an unknown $id is an error. */
export function schemaById(sid: string): JsonSchema {
  const s = allSchemas.find((x) => x.$id === sid);
  if (!s) throw new Error(`catalogue: no schema with $id ${sid}`);
  return s;
}

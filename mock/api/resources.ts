/**
 * The mock's business state: starts from the seeded fixture world; created and changed orders and
 * created returns live until `reset`. The `view` functions project the world's records onto the
 * published answer shapes.
 */
import { SAMPLE_ADDRESS } from '../../catalogue';
import {
  lineOf,
  round2,
  totalOf,
  world,
  type Deal,
  type Invoice,
  type Line,
  type Order,
  type Product,
  type Quote,
  type Renewal,
  type ReturnCase,
} from '../../fixtures';

export type Query = Record<string, string | string[] | undefined>;

const link = (topic: string, href: string) => ({ topic, href, type: 'GET' });
/** How long a created quote stays active (ours: the document does not say). */
const QUOTE_LIFETIME_MS = 30 * 24 * 3600 * 1000;
const ADDRESS = SAMPLE_ADDRESS;

/** The first value of a query parameter (repeated parameters arrive as arrays). */
export function first(q: Query, name: string): string | undefined {
  const v = q[name];
  return Array.isArray(v) ? v[0] : v;
}
/** Every value of a query parameter, also comma-separated ones. */
export function all(q: Query, name: string): string[] {
  const v = q[name];
  return (Array.isArray(v) ? v : v === undefined ? [] : [v]).flatMap((x) => x.split(',')).filter(Boolean);
}
const eq = (a: string | number | undefined, b: string | undefined): boolean =>
  b === undefined || String(a).toLowerCase() === b.toLowerCase();
const has = (a: string, b: string | undefined): boolean => b === undefined || a.toLowerCase().includes(b.toLowerCase());

/** One page of a list; `pageNumber` from 1, `pageSize` default 25 (at most 100). */
export function paged<T>(key: string, items: readonly T[], pageNumber?: string, pageSize?: string): Record<string, unknown> {
  const size = Math.min(100, Math.max(1, Number(pageSize) || 25));
  const n = Math.max(1, Number(pageNumber) || 1);
  const pages = Math.max(1, Math.ceil(items.length / size));
  return {
    recordsFound: items.length,
    pageSize: size,
    pageNumber: n,
    [key]: items.slice((n - 1) * size, n * size),
    ...(n < pages ? { nextPage: `pageNumber=${n + 1}&pageSize=${size}` } : {}),
    ...(n > 1 ? { previousPage: `pageNumber=${n - 1}&pageSize=${size}` } : {}),
  };
}

// ---- Views: world records as published answers ------------------------------------------------------

export const view = {
  priceAndAvailability(
    p: Product | undefined,
    asked: Record<string, unknown>,
    index: number,
    o: { availability: boolean; pricing: boolean },
  ) {
    if (!p) {
      return {
        index,
        productStatusCode: 'E',
        productStatusMessage: 'Invalid part number',
        ingramPartNumber: String(asked.ingramPartNumber ?? ''),
        vendorPartNumber: String(asked.vendorPartNumber ?? ''),
      };
    }
    return {
      index,
      productStatusCode: 'S',
      productStatusMessage: 'Product found',
      ingramPartNumber: p.ingramPartNumber,
      vendorPartNumber: p.vendorPartNumber,
      upc: p.upc,
      partNumberType: 'INGRAM',
      vendorNumber: p.vendorNumber,
      vendorName: p.vendorName,
      description: p.description,
      productClass: 'A',
      uom: 'EA',
      productStatus: 'Active',
      acceptBackOrder: true,
      productAuthorized: true,
      returnableProduct: true,
      endUserInfoRequired: false,
      ...(o.availability
        ? {
            availability: {
              available: p.totalAvailability > 0,
              totalAvailability: p.totalAvailability,
              availabilityByWarehouse: p.warehouses.map((w) => ({ ...w, quantityBackordered: 0, quantityOnOrder: 0 })),
            },
          }
        : {}),
      ...(o.pricing
        ? {
            pricing: {
              currencyCode: p.currencyCode,
              retailPrice: p.retailPrice,
              mapPrice: p.retailPrice,
              customerPrice: p.customerPrice,
              specialBidPricingAvailable: false,
              webDiscountsAvailable: false,
            },
          }
        : {}),
      bundlePartIndicator: false,
    };
  },
  productSummary: (p: Product) => ({
    description: p.description,
    category: p.category,
    subCategory: p.subCategory,
    productType: p.productType,
    ingramPartNumber: p.ingramPartNumber,
    vendorPartNumber: p.vendorPartNumber,
    upcCode: p.upc,
    vendorName: p.vendorName,
    endUserRequired: 'False',
    hasDiscounts: 'False',
    type: p.type,
    discontinued: 'False',
    newProduct: 'False',
    directShip: 'False',
    hasWarranty: 'False',
    authorizedToPurchase: 'True',
    links: [link('product details', `/resellers/v6/catalog/details/${p.ingramPartNumber}`)],
  }),
  productDetails: (p: Product) => ({
    ingramPartNumber: p.ingramPartNumber,
    vendorPartNumber: p.vendorPartNumber,
    productAuthorized: 'True',
    description: p.description,
    upc: p.upc,
    productCategory: p.category,
    productSubcategory: p.subCategory,
    vendorName: p.vendorName,
    vendorNumber: p.vendorNumber,
    productStatusCode: 'A',
    productClass: 'A',
    indicators: {
      hasWarranty: false,
      isNewProduct: false,
      isDirectship: false,
      isDownloadable: p.type === 'IM::digital',
      isDigitalType: p.type === 'IM::digital',
      isDiscontinuedProduct: false,
      isReturnableProduct: true,
    },
    warrantyInformation: [],
    additionalInformation: { isBulkFreight: false, height: '4', width: '10', length: '12', netWeight: '2.5', dimensionUnit: 'IN' },
  }),
  orderSummary: (o: Order) => ({
    ingramOrderNumber: o.ingramOrderNumber,
    ingramOrderDate: o.ingramOrderDate,
    customerOrderNumber: o.customerOrderNumber,
    vendorName: o.vendorName,
    endUserCompanyName: o.endUserCompanyName,
    orderTotal: o.orderTotal,
    orderStatus: o.orderStatus,
    subOrders: [{ subOrderNumber: `${o.ingramOrderNumber}-11`, subOrderTotal: o.orderTotal, subOrderStatus: o.orderStatus }],
    links: link('order details', `/resellers/v6.1/orders/${o.ingramOrderNumber}`),
  }),
  orderDetails: (o: Order) => ({
    ingramOrderNumber: o.ingramOrderNumber,
    ingramOrderDate: o.ingramOrderDate,
    orderType: 'S',
    customerOrderNumber: o.customerOrderNumber,
    endCustomerOrderNumber: o.endCustomerOrderNumber,
    orderStatus: o.orderStatus,
    orderTotal: o.orderTotal,
    orderSubTotal: o.orderTotal,
    freightCharges: 0,
    currencyCode: o.currencyCode,
    totalTax: 0,
    totalFees: 0,
    paymentTerms: 'Net 30 days',
    notes: o.notes,
    billToInfo: ADDRESS,
    shipToInfo: ADDRESS,
    lines: o.lines.map((l) => ({
      subOrderNumber: `${o.ingramOrderNumber}-11`,
      ingramOrderLineNumber: String(l.lineNumber).padStart(3, '0'),
      customerLineNumber: String(l.lineNumber),
      lineStatus: o.orderStatus === 'CANCELLED' ? 'Cancelled' : 'Processing',
      ingramPartNumber: l.ingramPartNumber,
      vendorPartNumber: l.vendorPartNumber,
      vendorName: o.vendorName,
      partDescription: l.description,
      unitPrice: l.unitPrice,
      extendedPrice: round2(l.unitPrice * l.quantity),
      taxAmount: 0,
      currencyCode: o.currencyCode,
      quantityOrdered: l.quantity,
      quantityConfirmed: l.quantity,
      quantityBackOrdered: 0,
    })),
  }),
  createdOrderLines: (o: Order) =>
    o.lines.map((l) => ({
      subOrderNumber: `${o.ingramOrderNumber}-11`,
      ingramLineNumber: String(l.lineNumber).padStart(3, '0'),
      customerLineNumber: String(l.lineNumber),
      lineStatus: 'Processing',
      ingramPartNumber: l.ingramPartNumber,
      vendorPartNumber: l.vendorPartNumber,
      unitPrice: l.unitPrice,
      extendedUnitPrice: round2(l.unitPrice * l.quantity),
      quantityOrdered: l.quantity,
      quantityConfirmed: l.quantity,
      quantityBackOrdered: 0,
    })),
  quoteSummary: (q: Quote) => ({
    quoteGuid: q.quoteGuid,
    quoteName: q.quoteName,
    quoteNumber: q.quoteNumber,
    revision: '1',
    currencyCode: q.currencyCode,
    quoteTotal: q.total,
    quoteStatus: q.quoteStatus,
    ingramQuoteDate: q.ingramQuoteDate,
    lastModifiedDate: q.ingramQuoteDate,
    ingramQuoteExpiryDate: q.ingramQuoteExpiryDate,
    endUserName: q.endUserName,
    vendor: q.vendor,
    createdBy: 'Certification',
    quoteType: 'Deal',
    links: link('quote details', `/resellers/v6/quotes/${q.quoteNumber}`),
  }),
  quoteDetails: (q: Quote) => ({
    quoteName: q.quoteName,
    quoteNumber: q.quoteNumber,
    quoteGuid: q.quoteGuid,
    revision: '1',
    ingramQuoteDate: q.ingramQuoteDate,
    lastModifiedDate: q.ingramQuoteDate,
    ingramQuoteExpiryDate: q.ingramQuoteExpiryDate,
    currencyCode: q.currencyCode,
    status: q.quoteStatus,
    quoteType: 'Deal',
    vendorQuoteNumber: `V-${q.quoteNumber}`,
    isPartialOrderAllowed: true,
    products: q.lines.map((l) => ({
      lineNumber: String(l.lineNumber),
      quantity: l.quantity,
      ingramPartNumber: l.ingramPartNumber,
      vendorPartNumber: l.vendorPartNumber,
      description: l.description,
      vendorName: q.vendor,
      price: {
        quotePrice: l.unitPrice,
        msrp: round2(l.unitPrice * 1.2),
        extendedMsrp: round2(l.unitPrice * 1.2 * l.quantity),
        extendedQuotePrice: round2(l.unitPrice * l.quantity),
      },
    })),
    productsCount: q.lines.length,
    quantityTotal: q.lines.reduce((s, l) => s + l.quantity, 0),
    extendedQuotePriceTotal: q.total,
  }),
  quoteValidation: (q: Quote) => ({
    quoteNumber: q.quoteNumber,
    vendorName: q.vendor,
    vendorQuoteNumber: `V-${q.quoteNumber}`,
    quoteType: 1,
    lines: q.lines.map((l) => ({ customerLineNumber: String(l.lineNumber), ingramPartNumber: l.ingramPartNumber, quantity: l.quantity })),
  }),
  invoiceSummary: (i: Invoice) => ({
    paymentTermsDueDate: i.invoiceDueDate,
    specialBidNumbers: [],
    erpOrderNumber: i.ingramOrderNumber,
    invoiceNumber: i.invoiceNumber,
    invoiceStatus: i.invoiceStatus,
    invoiceDate: i.invoiceDate,
    invoiceDueDate: i.invoiceDueDate,
    invoicedAmountDue: i.invoiceStatus === 'PAID' ? 0 : i.total,
    customerOrderNumber: i.customerOrderNumber,
    orderCreateDate: i.invoiceDate,
    invoiceAmountInclTax: i.total,
  }),
  invoiceDetails: (i: Invoice) => ({
    invoiceNumber: i.invoiceNumber,
    invoiceStatus: i.invoiceStatus,
    invoiceDate: i.invoiceDate,
    customerOrderNumber: i.customerOrderNumber,
    orderNumber: i.ingramOrderNumber,
    orderDate: i.invoiceDate,
    invoiceType: 'Invoice',
    invoiceDueDate: i.invoiceDueDate,
    customerCountryCode: 'US',
    ingramOrderNumber: i.ingramOrderNumber,
    notes: '',
    billToInfo: ADDRESS,
    shipToInfo: ADDRESS,
    lines: i.lines.map((l) => ({
      ingramLineNumber: String(l.lineNumber).padStart(3, '0'),
      customerLineNumber: String(l.lineNumber),
      ingramPartNumber: l.ingramPartNumber,
      vendorPartNumber: l.vendorPartNumber,
      productDescription: l.description,
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      currencyCode: i.currencyCode,
      extendedPrice: round2(l.unitPrice * l.quantity),
      taxAmount: 0,
      quantityOrdered: l.quantity,
      quantityShipped: l.quantity,
    })),
    summary: {
      totals: {
        netInvoiceAmount: i.total,
        totalTaxAmount: 0,
        invoicedAmountDue: i.invoiceStatus === 'PAID' ? 0 : i.total,
        freightAmount: 0,
      },
    },
  }),
  renewalSummary: (r: Renewal) => ({
    renewalId: r.renewalId,
    customerOrderNumber: r.customerOrderNumber,
    referenceNumber: `REN-${r.renewalId}`,
    endUser: r.endUser,
    vendor: r.vendor,
    expirationDate: r.expirationDate,
    renewalValue: r.total,
    status: r.status,
    links: [link('renewal details', `/resellers/v6/renewals/${r.renewalId}`)],
  }),
  renewalDetails: (r: Renewal) => ({
    renewalId: String(r.renewalId),
    ingramOrderNumber: r.ingramOrderNumber,
    expirationDate: r.expirationDate,
    customerOrderNumber: r.customerOrderNumber,
    renewalValue: String(r.total),
    endUser: r.endUser,
    vendor: r.vendor,
    status: r.status,
    endUserInfo: { ...ADDRESS, companyName: r.endUser },
    products: r.lines.map((l) => ({
      ingramLineNumber: String(l.lineNumber).padStart(3, '0'),
      productDescription: l.description,
      vendorPartNumber: l.vendorPartNumber,
      ingramPartNumber: l.ingramPartNumber,
      quantity: l.quantity,
      unitPrice: l.unitPrice,
    })),
  }),
  dealSummary: (d: Deal) => ({
    dealId: d.dealId,
    version: d.version,
    endUser: d.endUser,
    vendor: d.vendor,
    dealExpiryDate: d.dealExpiryDate,
    links: link('deal details', `/resellers/v6/deals/${d.dealId}`),
  }),
  dealDetails: (d: Deal) => ({
    dealId: d.dealId,
    version: d.version,
    endUser: d.endUser,
    extendedMsrp: round2(d.products.reduce((s, p) => s + p.msrp * p.approvedQuantity, 0)),
    vendor: d.vendor,
    dealReceivedOn: '2025-12-01',
    dealExpiryDate: d.dealExpiryDate,
    priceProtectionEndDate: d.dealExpiryDate,
    currencyCode: d.currencyCode,
    products: d.products.map((p) => ({
      ingramPartNumber: p.ingramPartNumber,
      vendorPartNumber: p.vendorPartNumber,
      msrp: p.msrp,
      standardPrice: p.standardPrice,
      approvedQuantity: p.approvedQuantity,
      remainingQuantity: p.approvedQuantity,
      expirationDate: d.dealExpiryDate,
    })),
  }),
  /** What a vendor requires on an order of a product: the end user's name for digital products (ours). */
  vendorRequiredInfo: (p: Product | undefined, asked: Record<string, unknown>, quoteNumber: unknown) => ({
    quoteNumber: typeof quoteNumber === 'string' ? quoteNumber : '',
    ingramPartNumber: p?.ingramPartNumber ?? String(asked.ingramPartNumber ?? ''),
    vendorPartNumber: p?.vendorPartNumber ?? String(asked.vendorPartNumber ?? ''),
    planId: String(asked.planID ?? ''),
    planName: '',
    responseMessages: p ? [] : [{ id: 'E', traceId: '', type: 'Error', message: 'Invalid part number' }],
    vmfAdditionalAttributes:
      p?.type === 'IM::digital'
        ? [
            {
              vendorName: p.vendorName,
              productId: p.ingramPartNumber,
              additionalAttributes: [
                {
                  attributeName: 'HEADER_ENDUSER',
                  attributeValue: '',
                  attributeDescription: 'End user name',
                  attributeHint: 'The company the licence is for',
                  attributeRequired: 'true',
                  choices: [],
                },
              ],
            },
          ]
        : [],
    vriAdditionalAttributes: [],
  }),
  returnSummary: (r: ReturnCase) => ({
    returnClaimId: r.rmaClaimId,
    caseRequestNumber: r.caseRequestNumber,
    createdOn: r.createdOn,
    type: r.type,
    returnReason: r.returnReason,
    referenceNumber: r.referenceNumber,
    estimatedTotalValue: r.total,
    credit: 0,
    modifiedOn: r.createdOn,
    status: r.status,
    links: [link('return details', `/resellers/v6/returns/${r.caseRequestNumber}`)],
  }),
  returnDetails: (r: ReturnCase) => ({
    typeOfDetails: r.type,
    rmaClaimId: r.rmaClaimId,
    caseRequestNumber: r.caseRequestNumber,
    createdOn: r.createdOn,
    returnReason: r.returnReason,
    referenceNumber: r.referenceNumber,
    status: r.status,
    products: r.lines.map((l) => ({
      ingramLineNumber: l.lineNumber,
      description: l.description,
      ingramPartNumber: l.ingramPartNumber,
      vendorPartNumber: l.vendorPartNumber,
      invoiceNumber: r.invoiceNumber,
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      extendedPrice: round2(l.unitPrice * l.quantity),
      status: r.status,
    })),
    subTotal: r.total,
    tax: 0,
    additionalFees: 0,
    estimatedTotal: r.total,
  }),
};

export class MockState {
  products!: Map<string, Product>;
  orders!: Map<string, Order>;
  quotes!: Map<string, Quote>;
  invoices!: Map<string, Invoice>;
  renewals!: Map<string, Renewal>;
  deals!: Map<string, Deal>;
  returns!: Map<string, ReturnCase>;
  /** Immutable answers of the seeded world (details by record), serialisable once. */
  readonly fixed = new WeakMap<object, object>();
  private counter = 0;

  constructor(private readonly seed: number) {
    this.reset();
  }

  reset(): void {
    const w = world(this.seed);
    this.products = new Map(w.products.map((p) => [p.ingramPartNumber, p]));
    this.orders = new Map(w.orders.map((o) => [o.ingramOrderNumber, structuredClone(o)]));
    this.quotes = new Map(w.quotes.map((q) => [q.quoteNumber, q]));
    this.invoices = new Map(w.invoices.map((i) => [i.invoiceNumber, i]));
    this.renewals = new Map(w.renewals.map((r) => [String(r.renewalId), r]));
    this.deals = new Map(w.deals.map((d) => [d.dealId, d]));
    this.returns = new Map(w.returns.map((r) => [r.caseRequestNumber, structuredClone(r)]));
    this.counter = 0;
  }

  /** A product by Ingram part number, vendor part number or UPC. */
  findProduct(ref: { ingramPartNumber?: unknown; vendorPartNumber?: unknown; upc?: unknown }): Product | undefined {
    if (typeof ref.ingramPartNumber === 'string' && this.products.has(ref.ingramPartNumber)) return this.products.get(ref.ingramPartNumber);
    for (const p of this.products.values()) {
      if (
        (typeof ref.vendorPartNumber === 'string' && p.vendorPartNumber === ref.vendorPartNumber) ||
        (typeof ref.upc === 'string' && p.upc === ref.upc)
      )
        return p;
    }
    return undefined;
  }

  nextNumber(prefix: string): string {
    this.counter += 1;
    return `${prefix}${String(900000 + this.counter)}`;
  }

  /** Lines from requested part numbers; unknown parts are kept at price 0 (a real target would reject or price them). */
  linesOf(reqs: readonly { ingramPartNumber?: unknown; quantity?: unknown }[]): Line[] {
    return reqs.map((r, i) => {
      const qty = Math.max(1, Number(r.quantity) || 1);
      const p = this.findProduct(r);
      if (p) return lineOf(p, i + 1, qty);
      const part = String(r.ingramPartNumber ?? 'UNKNOWN');
      return { lineNumber: i + 1, ingramPartNumber: part, vendorPartNumber: '', description: '', quantity: qty, unitPrice: 0 };
    });
  }

  createOrder(customerOrderNumber: string, lines: Line[], nowMs: number, notes = ''): Order {
    const first = lines[0] ? this.products.get(lines[0].ingramPartNumber) : undefined;
    const order: Order = {
      ingramOrderNumber: this.nextNumber('20-'),
      ingramOrderDate: new Date(nowMs).toISOString().slice(0, 10),
      customerOrderNumber,
      endCustomerOrderNumber: '',
      orderStatus: 'PROCESSING',
      vendorName: first?.vendorName ?? '',
      endUserCompanyName: 'Certification End User',
      currencyCode: 'USD',
      notes,
      lines,
      orderTotal: totalOf(lines),
    };
    this.orders.set(order.ingramOrderNumber, order);
    return order;
  }

  /** A quote the reseller asked for: active for 30 days, priced at the products' customer prices. */
  createQuote(o: { quoteName: string; endUserName: string; lines: Line[]; nowMs: number }): Quote {
    const first = o.lines[0] ? this.products.get(o.lines[0].ingramPartNumber) : undefined;
    const quoteNumber = this.nextNumber('QUO-');
    const quote: Quote = {
      quoteNumber,
      quoteGuid: `00000000-0000-4000-8000-${quoteNumber.replace(/\D/g, '').padStart(12, '0').slice(-12)}`,
      quoteName: o.quoteName,
      quoteStatus: 'ACTIVE',
      ingramQuoteDate: new Date(o.nowMs).toISOString().slice(0, 10),
      ingramQuoteExpiryDate: new Date(o.nowMs + QUOTE_LIFETIME_MS).toISOString().slice(0, 10),
      vendor: first?.vendorName ?? '',
      endUserName: o.endUserName,
      currencyCode: 'USD',
      lines: o.lines,
      total: totalOf(o.lines),
    };
    this.quotes.set(quoteNumber, quote);
    return quote;
  }

  /** Filters shared by the searches: value equals (case-insensitive) when the parameter is given. */
  static matches = { eq, has };
}

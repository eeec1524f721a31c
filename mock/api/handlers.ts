/**
 * One handler per catalogued reseller operation: the compiler lists what a new operation still
 * needs. Each gets the validated request and the mock's state, and returns the answer or a coded
 * error. Limits, authentication, required headers and body schemas ran before (business-route.ts, request-checks.ts).
 */
import type { OperationId } from '../../catalogue';
import { round2 } from '../../fixtures';
import type { ErrorCodeName } from '../app/errors';
import { all, first, MockState, paged, view, type Query } from './resources';

export interface CallContext {
  params: Record<string, string>;
  query: Query;
  body: Record<string, unknown>;
  nowMs: number;
  state: MockState;
  /** Records a webhook event and pushes it to `targeturl` when the call gave one. */
  receiveEvent: (event: Record<string, unknown>) => void;
}

export type Outcome =
  | { status: number; body: unknown; immutable?: boolean }
  /** An answer already serialised (assembled from the cached serialisations of the seeded world). */
  | { status: number; json: string }
  | { error: ErrorCodeName; message?: string; field?: string | null };

export type Handler = (c: CallContext) => Outcome;

const ok = (body: unknown): Outcome => ({ status: 200, body });
const created = (body: unknown): Outcome => ({ status: 201, body });
/** An answer of the seeded world, never mutated: its serialisation can be cached. */
const fixed = (body: unknown): Outcome => ({ status: 200, body, immutable: true });
const notFound = (what: string): Outcome => ({ error: 'notFound', message: `${what} not found` });
const { eq, has } = MockState.matches;
type Rec = Record<string, unknown>;
const arrayOf = (v: unknown): Rec[] => (Array.isArray(v) ? (v.filter((x) => x && typeof x === 'object') as Rec[]) : []);

export const HANDLERS: Record<OperationId, Handler> = {
  'catalog.priceAndAvailability': ({ body, query, state }) => {
    const o = { availability: first(query, 'includeAvailability') !== 'false', pricing: first(query, 'includePricing') !== 'false' };
    const asked = arrayOf(body.products);
    return { status: 200, json: `[${asked.map((r, i) => priceAndAvailabilityJson(state, r, i, o)).join(',')}]` };
  },
  'catalog.search': ({ query, state }) => {
    const keywords = all(query, 'keyword').map((k) => k.toLowerCase());
    const vendors = all(query, 'vendor');
    const items = [...state.products.values()]
      .filter(
        (p) =>
          (!keywords.length || keywords.some((k) => has(p.description, k) || has(p.ingramPartNumber, k) || has(p.vendorPartNumber, k))) &&
          (!vendors.length || vendors.some((v) => eq(p.vendorName, v))) &&
          eq(p.vendorPartNumber, first(query, 'vendorPartNumber')) &&
          eq(p.category, first(query, 'category')) &&
          (first(query, 'type') === undefined || first(query, 'type') === 'IM::any' || eq(p.type, first(query, 'type'))),
      )
      .map(view.productSummary);
    return ok(paged('catalog', items, first(query, 'pageNumber'), first(query, 'pageSize')));
  },
  'catalog.details': ({ params, state }) => {
    const p = state.products.get(params.partNumber as string);
    return p ? fixed(cachedView(state, p, () => view.productDetails(p))) : notFound(`Product ${params.partNumber}`);
  },
  'orders.create': ({ body, state, nowMs }) => {
    const o = state.createOrder(
      String(body.customerOrderNumber),
      state.linesOf(arrayOf(body.lines)),
      nowMs,
      typeof body.notes === 'string' ? body.notes : '',
    );
    const number = o.ingramOrderNumber;
    return created({
      customerOrderNumber: o.customerOrderNumber,
      orderSplit: false,
      processedPartially: false,
      purchaseOrderTotal: o.orderTotal,
      orders: [
        {
          numberOfLinesWithSuccess: o.lines.length,
          numberOfLinesWithError: 0,
          numberOfLinesWithWarning: 0,
          ingramOrderNumber: number,
          ingramOrderDate: o.ingramOrderDate,
          notes: o.notes,
          orderType: 'S',
          orderTotal: o.orderTotal,
          freightCharges: 0,
          totalTax: 0,
          currencyCode: o.currencyCode,
          lines: view.createdOrderLines(o),
          links: [{ topic: 'order details', href: `/resellers/v6.1/orders/${number}`, type: 'GET' }],
        },
      ],
    });
  },
  'orders.modify': ({ params, body, state, nowMs }) => {
    const o = state.orders.get(params.orderNumber as string);
    if (!o) return notFound(`Order ${params.orderNumber}`);
    if (o.orderStatus === 'CANCELLED')
      return { error: 'conflict', message: `Order ${o.ingramOrderNumber} is cancelled and cannot be modified` };
    const rejected: Rec[] = [];
    for (const l of arrayOf(body.lines)) {
      const action = String(l.addUpdateDeleteLine ?? 'UPDATE').toUpperCase();
      const at = o.lines.findIndex(
        (x) => x.ingramPartNumber === l.ingramPartNumber || String(x.lineNumber).padStart(3, '0') === l.ingramLineNumber,
      );
      if (action === 'ADD') {
        const [line] = state.linesOf([l]);
        if (line && state.products.has(line.ingramPartNumber)) o.lines.push({ ...line, lineNumber: o.lines.length + 1 });
        else
          rejected.push({
            ingramPartNumber: String(l.ingramPartNumber ?? ''),
            rejectCode: 'IP',
            rejectReason: 'Unknown part number',
            quantityOrdered: Number(l.quantity) || 0,
          });
      } else if (at >= 0 && action === 'DELETE') o.lines.splice(at, 1);
      else if (at >= 0) (o.lines[at] as { quantity: number }).quantity = Math.max(1, Number(l.quantity) || 1);
    }
    if (typeof body.notes === 'string') o.notes = body.notes;
    o.orderTotal = round2(o.lines.reduce((s, l) => s + l.quantity * l.unitPrice, 0));
    return ok({
      ingramOrderNumber: o.ingramOrderNumber,
      changeDescription: 'Order modified',
      orderModifiedDate: new Date(nowMs).toISOString().slice(0, 10),
      customerOrderNumber: o.customerOrderNumber,
      orderTotal: o.orderTotal,
      orderSubTotal: o.orderTotal,
      freightCharges: 0,
      totalTax: 0,
      orderStatus: o.orderStatus,
      notes: o.notes,
      lines: view
        .createdOrderLines(o)
        .map(
          ({
            subOrderNumber,
            ingramLineNumber,
            customerLineNumber,
            ingramPartNumber,
            vendorPartNumber,
            quantityOrdered,
            quantityConfirmed,
          }) => ({
            subOrderNumber,
            ingramLineNumber,
            customerLineNumber,
            ingramPartNumber,
            vendorPartNumber,
            quantityOrdered,
            quantityConfirmed,
          }),
        ),
      rejectedLineItems: rejected,
    });
  },
  'orders.details': ({ params, state }) => {
    const o = state.orders.get(params.orderNumber as string);
    return o ? ok(view.orderDetails(o)) : notFound(`Order ${params.orderNumber}`);
  },
  'orders.search': ({ query, state }) => {
    const statuses = all(query, 'orderStatus').concat(all(query, 'orderStatus-in'));
    const items = [...state.orders.values()]
      .filter(
        (o) =>
          eq(o.ingramOrderNumber, first(query, 'ingramOrderNumber')) &&
          (!statuses.length || statuses.some((s) => eq(o.orderStatus, s))) &&
          eq(o.customerOrderNumber, first(query, 'customerOrderNumber')) &&
          eq(o.vendorName, first(query, 'vendorName')) &&
          (first(query, 'ingramPartNumber') === undefined || o.lines.some((l) => eq(l.ingramPartNumber, first(query, 'ingramPartNumber')))),
      )
      .map(view.orderSummary);
    return ok(paged('orders', items, first(query, 'pageNumber'), first(query, 'pageSize')));
  },
  'orders.cancel': ({ params, state }) => {
    const o = state.orders.get(params.orderNumber as string);
    if (!o) return notFound(`Order ${params.orderNumber}`);
    o.orderStatus = 'CANCELLED';
    return ok({});
  },
  'quotes.search': ({ query, state }) => {
    const items = [...state.quotes.values()]
      .filter(
        (q) =>
          eq(q.quoteNumber, first(query, 'quoteNumber')) &&
          has(q.quoteName, first(query, 'quoteName')) &&
          eq(q.quoteStatus, first(query, 'status')) &&
          eq(q.vendor, first(query, 'vendorName')),
      )
      .map(view.quoteSummary);
    return ok(paged('quotes', items, first(query, 'pageNumber'), first(query, 'pageSize')));
  },
  'quotes.details': ({ params, state }) => {
    const q = state.quotes.get(params.quoteNumber as string);
    return q ? fixed(cachedView(state, q, () => view.quoteDetails(q))) : notFound(`Quote ${params.quoteNumber}`);
  },
  'quotes.validate': ({ query, state }) => {
    const q = state.quotes.get(first(query, 'quoteNumber') ?? '');
    return q ? ok(view.quoteValidation(q)) : notFound(`Quote ${first(query, 'quoteNumber')}`);
  },
  'quoteToOrder.create': ({ body, state, nowMs }) => {
    // No document requires a field: without a quote number no quote is found; without a customer order number it is empty.
    const q = typeof body.quoteNumber === 'string' ? state.quotes.get(body.quoteNumber) : undefined;
    if (!q) return notFound(`Quote ${typeof body.quoteNumber === 'string' ? body.quoteNumber : '(none given)'}`);
    const o = state.createOrder(
      typeof body.customerOrderNumber === 'string' ? body.customerOrderNumber : '',
      q.lines.map((l) => ({ ...l })),
      nowMs,
    );
    return created({
      quoteNumber: q.quoteNumber,
      confirmationNumber: o.ingramOrderNumber,
      message: `Order ${o.ingramOrderNumber} created from quote ${q.quoteNumber}`,
    });
  },
  'invoices.search': ({ query, state }) => {
    const items = [...state.invoices.values()]
      .filter(
        (i) =>
          eq(i.invoiceNumber, first(query, 'invoiceNumber')) &&
          eq(i.ingramOrderNumber, first(query, 'orderNumber')) &&
          eq(i.customerOrderNumber, first(query, 'customerOrderNumber')) &&
          eq(i.invoiceStatus, first(query, 'invoiceStatus')),
      )
      .map(view.invoiceSummary);
    return ok(paged('invoices', items, first(query, 'pageNumber'), first(query, 'pageSize')));
  },
  'invoices.details': ({ params, state }) => {
    const i = state.invoices.get(params.invoiceNumber as string);
    return i ? fixed(cachedView(state, i, () => view.invoiceDetails(i))) : notFound(`Invoice ${params.invoiceNumber}`);
  },
  'renewals.search': ({ body, query, state }) => {
    const status = ((body.status as Rec | undefined)?.OpporutinyStatus as Rec | undefined)?.value;
    const items = [...state.renewals.values()]
      .filter(
        (r) =>
          eq(r.status, typeof status === 'string' ? status : undefined) &&
          eq(r.vendor, typeof body.vendor === 'string' ? body.vendor : undefined) &&
          eq(r.endUser, typeof body.endUser === 'string' ? body.endUser : undefined) &&
          eq(r.customerOrderNumber, first(query, 'customerOrderNumber')),
      )
      .map(view.renewalSummary);
    return ok(paged('renewals', items, first(query, 'page'), first(query, 'size')));
  },
  'renewals.details': ({ params, state }) => {
    const r = state.renewals.get(params.renewalId as string);
    return r ? fixed(cachedView(state, r, () => view.renewalDetails(r))) : notFound(`Renewal ${params.renewalId}`);
  },
  'deals.search': ({ query, state }) => {
    const items = [...state.deals.values()]
      .filter(
        (d) => eq(d.dealId, first(query, 'dealId')) && has(d.vendor, first(query, 'vendor')) && has(d.endUser, first(query, 'endUser')),
      )
      .map(view.dealSummary);
    return ok(paged('deals', items, first(query, 'Page'), first(query, 'Size')));
  },
  'deals.details': ({ params, query, state }) => {
    const d = state.deals.get(params.dealId as string);
    if (!d || !eq(d.vendor, first(query, 'vendorName'))) return notFound(`Deal ${params.dealId} of vendor ${first(query, 'vendorName')}`);
    return fixed(cachedView(state, d, () => view.dealDetails(d)));
  },
  'returns.search': ({ query, state }) => {
    const statuses = all(query, 'returnStatus-in');
    const items = [...state.returns.values()]
      .filter(
        (r) =>
          eq(r.caseRequestNumber, first(query, 'caseRequestNumber')) &&
          eq(r.invoiceNumber, first(query, 'invoiceNumber')) &&
          (!statuses.length || statuses.some((s) => eq(r.status, s))),
      )
      .map(view.returnSummary);
    return ok(paged('returnsClaims', items, first(query, 'page'), first(query, 'size')));
  },
  'returns.details': ({ params, state }) => {
    const r = state.returns.get(params.caseRequestNumber as string);
    return r ? ok(view.returnDetails(r)) : notFound(`Return ${params.caseRequestNumber}`);
  },
  'returns.create': ({ body, state, nowMs }) => {
    const claims = arrayOf(body.list).map((item) => {
      const [line] = state.linesOf([
        {
          ingramPartNumber: item.ingramPartNumber ?? state.invoices.get(String(item.invoiceNumber))?.lines[0]?.ingramPartNumber,
          quantity: item.quantity,
        },
      ]);
      const r = {
        caseRequestNumber: state.nextNumber('CAS-'),
        rmaClaimId: state.nextNumber('RMA-'),
        createdOn: new Date(nowMs).toISOString().slice(0, 10),
        status: 'OPEN' as const,
        type: 'Return',
        returnReason: String(item.primaryReason ?? ''),
        referenceNumber: String(item.referenceNumber ?? ''),
        invoiceNumber: String(item.invoiceNumber),
        lines: line ? [line] : [],
        total: line ? round2(line.quantity * line.unitPrice) : 0,
      };
      state.returns.set(r.caseRequestNumber, r);
      return {
        rmaClaimId: r.rmaClaimId,
        caseRequestNumber: r.caseRequestNumber,
        referenceNumber: r.referenceNumber,
        createdOn: r.createdOn,
        type: r.type,
        returnReason: r.returnReason,
        ingramPartNumber: line?.ingramPartNumber ?? '',
        vendorPartNumber: line?.vendorPartNumber ?? '',
        quantity: line?.quantity ?? 0,
        notes: String(item.notes ?? ''),
        estimatedTotalValue: r.total,
        credit: 0,
        status: r.status,
        links: [{ topic: 'return details', href: `/resellers/v6/returns/${r.caseRequestNumber}`, type: 'GET' }],
      };
    });
    return ok({ returnsClaims: claims });
  },
  'freight.estimate': ({ body, state }) => {
    const lines = arrayOf(body.lines).map((l) => {
      const p = state.findProduct(l);
      const quantity = Math.max(1, Number(l.quantity) || 1);
      const unitPrice = p?.customerPrice ?? 0;
      return {
        ingramPartNumber: String(l.ingramPartNumber ?? ''),
        vendorPartNumber: p?.vendorPartNumber ?? '',
        warehouseId: String(l.warehouseId ?? '10'),
        quantity,
        unitPrice,
        netAmount: round2(unitPrice * quantity),
      };
    });
    const qty = lines.reduce((s, l) => s + l.quantity, 0);
    const net = round2(lines.reduce((s, l) => s + l.netAmount, 0));
    const ground = round2(9.5 + qty * 1.25);
    return ok({
      freightEstimateResponse: {
        currencyCode: 'USD',
        totalFreightAmount: ground,
        totalTaxAmount: 0,
        totalFees: 0,
        totalNetAmount: net,
        grossAmount: round2(net + ground),
        distribution: [
          {
            shipFromBranchNumber: '10',
            carrierCode: 'UPS',
            shipVia: 'Ground',
            freightRate: ground,
            totalWeight: qty * 2.5,
            transitDays: 5,
          },
          {
            shipFromBranchNumber: '10',
            carrierCode: 'FEDEX',
            shipVia: '2Day',
            freightRate: round2(19 + qty * 2.1),
            totalWeight: qty * 2.5,
            transitDays: 2,
          },
        ],
        lines,
      },
    });
  },
  'catalog.detailsByReference': ({ query, state }) => {
    const vendorPartNumber = first(query, 'vendorPartNumber');
    const plan = first(query, 'planId') ?? first(query, 'planName');
    if (vendorPartNumber === undefined && plan === undefined)
      return {
        error: 'missingQuery',
        message: 'Give vendorPartNumber, or planId or planName for a subscription',
        field: 'vendorPartNumber',
      };
    // The seeded world has no subscription plans: a plan is never found.
    const p = vendorPartNumber === undefined ? undefined : state.findProduct({ vendorPartNumber });
    return p ? fixed(cachedView(state, p, () => view.productDetails(p))) : notFound(`Product ${vendorPartNumber ?? plan}`);
  },
  'orders.createV7': ({ body, state, nowMs }) => {
    const quote = typeof body.quoteNumber === 'string' && body.quoteNumber ? state.quotes.get(body.quoteNumber) : undefined;
    if (typeof body.quoteNumber === 'string' && body.quoteNumber && !quote) return notFound(`Quote ${body.quoteNumber}`);
    const asked = arrayOf(body.lines);
    const lines = asked.length || !quote ? state.linesOf(asked) : quote.lines.map((l) => ({ ...l }));
    // The document requires no field: an order without a customer order number is created with an empty one.
    const customerOrderNumber = typeof body.customerOrderNumber === 'string' ? body.customerOrderNumber : '';
    const o = state.createOrder(customerOrderNumber, lines, nowMs, typeof body.notes === 'string' ? body.notes : '');
    // The answer confirms the request; the order is found by its customer order number (orders.search).
    return ok({
      quoteNumber: quote?.quoteNumber ?? '',
      confirmationNumber: state.nextNumber('CNF-'),
      message: `Order request ${o.customerOrderNumber} accepted; order status events follow`,
    });
  },
  'orders.vendorRequiredInfo': ({ body, state }) =>
    ok(arrayOf(body.products).map((asked) => view.vendorRequiredInfo(state.findProduct(asked), asked, body.quoteNumber))),
  'quotes.create': ({ body, state, nowMs }) => {
    const endUser = body.endUserInfo && typeof body.endUserInfo === 'object' ? (body.endUserInfo as Rec) : {};
    const q = state.createQuote({
      // The document requires no field: a quote without a name is created with an empty one.
      quoteName: typeof body.quoteName === 'string' ? body.quoteName : '',
      endUserName: typeof endUser.companyName === 'string' ? endUser.companyName : '',
      lines: state.linesOf(arrayOf(body.products)),
      nowMs,
    });
    return ok({ quoteNumber: q.quoteNumber, message: `Quote request ${q.quoteName} accepted; quote status events follow` });
  },
  'webhooks.orderStatus': ({ body, receiveEvent }) => (receiveEvent(body), ok({})),
  'webhooks.availabilityUpdate': ({ body, receiveEvent }) => (receiveEvent(body), ok({})),
};

/** The view of a record of the seeded world, made once per record (such records never change). */
function cachedView(state: MockState, record: object, make: () => object): object {
  let v = state.fixed.get(record);
  if (!v) {
    v = make();
    state.fixed.set(record, v);
  }
  return v;
}

/** A product's price-and-availability item without its index, serialised once per product and choice of parts. */
const pnaCache = new WeakMap<object, Map<string, string>>();

/**
 * One item of a price-and-availability answer as JSON: a known product's serialised view (cached, with
 * the request's index in front), or an unknown one's.
 */
function priceAndAvailabilityJson(
  state: MockState,
  asked: Record<string, unknown>,
  index: number,
  o: { availability: boolean; pricing: boolean },
): string {
  const p = state.findProduct(asked);
  if (!p) return JSON.stringify(view.priceAndAvailability(undefined, asked, index, o));
  let byParts = pnaCache.get(p);
  if (!byParts) pnaCache.set(p, (byParts = new Map()));
  const parts = `${o.availability}${o.pricing}`;
  let rest = byParts.get(parts);
  if (rest === undefined) {
    // The view's JSON after its first member, the index: `"productStatusCode":...}`.
    const full = JSON.stringify(view.priceAndAvailability(p, asked, 0, o));
    rest = full.slice(full.indexOf(',') + 1);
    byParts.set(parts, rest);
  }
  return `{"index":${index},${rest}`;
}

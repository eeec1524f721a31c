/** The order operations: create (v6.1 and v7), modify, details, search, cancel, vendor-required information, and orders from quotes. */
import { round2 } from '../../../fixtures/lines';
import { first } from '../query';
import { equals, searchHandler } from '../search';
import { view } from '../views/view';
import { arrayOf, created, eq, lookUp, notFound, ok, type HandlerTable, type Rec } from './handler';

export const orderHandlers = {
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
      lines: view.modifiedOrderLines(o),
      rejectedLineItems: rejected,
    });
  },
  'orders.details': ({ params, state }) => lookUp(state.orders, params.orderNumber, 'Order', (o) => ok(view.orderDetails(o))),
  'orders.search': searchHandler('orders.search', {
    records: (state) => state.orders.values(),
    list: 'orders',
    filters: [
      equals('vendorName', (o) => o.vendorName),
      (o, { query }) =>
        first(query, 'ingramPartNumber') === undefined || o.lines.some((l) => eq(l.ingramPartNumber, first(query, 'ingramPartNumber'))),
    ],
    view: view.orderSummary,
  }),
  'orders.cancel': ({ params, state }) => {
    const o = state.orders.get(params.orderNumber as string);
    if (!o) return notFound(`Order ${params.orderNumber}`);
    o.orderStatus = 'CANCELLED';
    return ok({});
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
} satisfies HandlerTable;

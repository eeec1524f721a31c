/** The invoice, renewal, deal and return operations: searches, details, and return requests. */
import { round2 } from '../../../fixtures/lines';
import { first } from '../query';
import { contains, equals, searchHandler } from '../search';
import { view } from '../views/view';
import { arrayOf, cachedDetails, cachedView, eq, fixed, lookUp, notFound, ok, type HandlerTable, type Rec } from './handler';

export const invoiceRenewalDealReturnHandlers = {
  'invoices.search': searchHandler('invoices.search', {
    records: (state) =>
      [...state.invoices.values()].map((i) => ({
        ...i,
        endCustomerOrderNumber: state.orders.get(i.ingramOrderNumber)?.endCustomerOrderNumber ?? '',
      })),
    list: 'invoices',
    filters: [equals('orderNumber', (i) => i.ingramOrderNumber)],
    view: view.invoiceSummary,
  }),
  'invoices.details': ({ params, state }) =>
    lookUp(state.invoices, params.invoiceNumber, 'Invoice', cachedDetails(state, view.invoiceDetails)),
  'renewals.search': searchHandler('renewals.search', {
    records: (state) => state.renewals.values(),
    list: 'renewals',
    filters: [
      (r, { body }) => {
        const status = ((body.status as Rec | undefined)?.OpporutinyStatus as Rec | undefined)?.value;
        return eq(r.status, typeof status === 'string' ? status : undefined);
      },
      (r, { body }) => eq(r.vendor, typeof body.vendor === 'string' ? body.vendor : undefined),
      (r, { body }) => eq(r.endUser, typeof body.endUser === 'string' ? body.endUser : undefined),
    ],
    view: view.renewalSummary,
    page: { number: 'page', size: 'size' },
  }),
  'renewals.details': ({ params, state }) => lookUp(state.renewals, params.renewalId, 'Renewal', cachedDetails(state, view.renewalDetails)),
  'deals.search': searchHandler('deals.search', {
    records: (state) => state.deals.values(),
    list: 'deals',
    filters: [contains('vendor', (d) => d.vendor), contains('endUser', (d) => d.endUser)],
    view: view.dealSummary,
    page: { number: 'Page', size: 'Size' },
  }),
  'deals.details': ({ params, query, state }) => {
    const d = state.deals.get(params.dealId as string);
    if (!d || !eq(d.vendor, first(query, 'vendorName'))) return notFound(`Deal ${params.dealId} of vendor ${first(query, 'vendorName')}`);
    return fixed(cachedView(state, d, () => view.dealDetails(d)));
  },
  'returns.search': searchHandler('returns.search', {
    records: (state) => state.returns.values(),
    list: 'returnsClaims',
    filters: [equals('invoiceNumber', (r) => r.invoiceNumber)],
    view: view.returnSummary,
    page: { number: 'page', size: 'size' },
  }),
  'returns.details': ({ params, state }) => lookUp(state.returns, params.caseRequestNumber, 'Return', (r) => ok(view.returnDetails(r))),
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
} satisfies HandlerTable;

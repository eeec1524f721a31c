/** The invoice, renewal, deal and return operations: searches, details, and return requests. */
import { round2 } from '../../../fixtures/lines';
import { all, first, paged } from '../query';
import { view } from '../views/view';
import { arrayOf, cachedDetails, cachedView, eq, fixed, has, lookUp, notFound, ok, type HandlerTable, type Rec } from './handler';

export const invoiceRenewalDealReturnHandlers = {
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
  'invoices.details': ({ params, state }) =>
    lookUp(state.invoices, params.invoiceNumber, 'Invoice', cachedDetails(state, view.invoiceDetails)),
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
  'renewals.details': ({ params, state }) => lookUp(state.renewals, params.renewalId, 'Renewal', cachedDetails(state, view.renewalDetails)),
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

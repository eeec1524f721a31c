/** The quote operations: search, details, validation and quote requests. */
import { first, paged } from '../query';
import { view } from '../views/view';
import { arrayOf, cachedDetails, eq, has, lookUp, ok, type HandlerTable, type Rec } from './handler';

export const quoteHandlers = {
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
  'quotes.details': ({ params, state }) => lookUp(state.quotes, params.quoteNumber, 'Quote', cachedDetails(state, view.quoteDetails)),
  'quotes.validate': ({ query, state }) => lookUp(state.quotes, first(query, 'quoteNumber'), 'Quote', (q) => ok(view.quoteValidation(q))),
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
} satisfies HandlerTable;

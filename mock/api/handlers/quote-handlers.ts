/** The quote operations: search, details, validation and quote requests. */
import { first } from '../query';
import { contains, equals, searchHandler } from '../search';
import { view } from '../views/view';
import { arrayOf, cachedDetails, lookUp, ok, type HandlerTable, type Rec } from './handler';

export const quoteHandlers = {
  'quotes.search': searchHandler('quotes.search', {
    // A quote's special bid number: a deal is a special bid, with its vendor's prices ("Deal/Special bid number").
    records: (state) =>
      [...state.quotes.values()].map((q) => ({
        ...q,
        specialBidNumber: [...state.deals.values()].find((d) => d.vendor === q.vendor)?.dealId ?? '',
      })),
    list: 'quotes',
    filters: [contains('quoteName', (q) => q.quoteName), equals('vendorName', (q) => q.vendor)],
    view: view.quoteSummary,
  }),
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

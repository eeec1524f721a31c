/** The catalogue operations: price and availability, search, details (also by vendor reference), and the freight estimate. */
import { round2 } from '../../../fixtures/lines';
import { all, first } from '../query';
import { equals, oneOf, searchHandler } from '../search';
import type { MockState } from '../state';
import { view } from '../views/view';
import { arrayOf, cachedDetails, eq, has, lookUp, notFound, ok, type HandlerTable } from './handler';

export const catalogHandlers = {
  'catalog.priceAndAvailability': ({ body, query, state }) => {
    const o = { availability: first(query, 'includeAvailability') !== 'false', pricing: first(query, 'includePricing') !== 'false' };
    const asked = arrayOf(body.products);
    return { status: 200, json: `[${asked.map((r, i) => priceAndAvailabilityJson(state, r, i, o)).join(',')}]` };
  },
  'catalog.search': searchHandler('catalog.search', {
    records: (state) => state.products.values(),
    list: 'catalog',
    filters: [
      (p, { query }) => {
        const keywords = all(query, 'keyword').map((k) => k.toLowerCase());
        return !keywords.length || keywords.some((k) => has(p.description, k) || has(p.ingramPartNumber, k) || has(p.vendorPartNumber, k));
      },
      oneOf(['vendor'], (p) => p.vendorName),
      equals('vendorPartNumber', (p) => p.vendorPartNumber),
      equals('category', (p) => p.category),
      (p, { query }) => first(query, 'type') === undefined || first(query, 'type') === 'IM::any' || eq(p.type, first(query, 'type')),
    ],
    view: view.productSummary,
  }),
  'catalog.details': ({ params, state }) => lookUp(state.products, params.partNumber, 'Product', cachedDetails(state, view.productDetails)),
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
    return p ? cachedDetails(state, view.productDetails)(p) : notFound(`Product ${vendorPartNumber ?? plan}`);
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
} satisfies HandlerTable;

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

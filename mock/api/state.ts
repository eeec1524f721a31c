/**
 * The mock's business state: starts from the seeded fixture world; created and changed orders and
 * created returns live until `reset`.
 */
import { world } from '../../fixtures';
import { lineOf, totalOf } from '../../fixtures/lines';
import type { Deal, Invoice, Line, Order, Product, Quote, Renewal, ReturnCase } from '../../fixtures/world-types';

/** How long a created quote stays active (ours: the document does not say). */
const QUOTE_LIFETIME_MS = 30 * 24 * 3600 * 1000;
const eq = (a: string | number | undefined, b: string | undefined): boolean =>
  b === undefined || String(a).toLowerCase() === b.toLowerCase();
const has = (a: string, b: string | undefined): boolean => b === undefined || a.toLowerCase().includes(b.toLowerCase());

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

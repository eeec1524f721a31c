/**
 * The mock's business state and the response of every catalogued operation. Starts from the
 * seeded fixture world; created orders and returns live until `reset`.
 */
import { world, type FixtureWorld, type Order, type ReturnCase, type Line, type Product } from '../fixtures';

export type Params = Record<string, string>;
export interface CallContext {
  params: Params;
  query: Params;
  body: unknown;
  nowMs: number;
}
/** `notFound` carries the error message: "<what>" for a 404, the whole message for other errors. */
export type Outcome = { status: number; body: unknown; notFound?: string; immutable?: boolean };

const page = <T>(key: string, items: readonly T[]) => ({
  recordsFound: items.length,
  pageSize: 25,
  pageNumber: 1,
  [key]: items.slice(0, 25),
});
const ok = (body: unknown): Outcome => ({ status: 200, body });
/** A fixture object of the seeded world, never mutated: its serialisation can be cached. */
const fixed = (body: unknown): Outcome => ({ status: 200, body, immutable: true });
const created = (body: unknown): Outcome => ({ status: 201, body });
const missing = (what: string): Outcome => ({ status: 404, body: undefined, notFound: what });

interface LineRequest {
  partNumber: string;
  quantity: number;
}

export class MockState {
  private w!: FixtureWorld;
  orders!: Map<string, Order>;
  returns!: Map<string, ReturnCase>;
  private products!: Map<string, Product>;
  private counter = 0;
  /** Pre-serialisable product details by part number (hot path of catalog.details). */
  private productDetails!: Map<string, unknown>;

  constructor(private readonly seed: number) {
    this.reset();
  }

  reset(): void {
    this.w = world(this.seed);
    this.orders = new Map(this.w.orders.map((o) => [o.orderNumber, structuredClone(o)]));
    this.returns = new Map(this.w.returns.map((r) => [r.caseRequestNumber, structuredClone(r)]));
    this.products = new Map(this.w.products.map((p) => [p.partNumber, p]));
    this.productDetails = new Map(this.w.products.map((p) => [p.partNumber, p]));
    this.counter = 0;
  }

  private toLines(reqs: readonly LineRequest[]): Line[] {
    return reqs.map((l, i) => ({
      lineNumber: i + 1,
      partNumber: l.partNumber,
      quantity: l.quantity,
      unitPrice: this.products.get(l.partNumber)?.price.unitPrice ?? 10,
    }));
  }

  private nextNumber(prefix: string): string {
    this.counter += 1;
    return `${prefix}${String(900000 + this.counter)}`;
  }

  private newOrder(customerOrderNumber: string, reqs: readonly LineRequest[], nowMs: number): Order {
    const lines = this.toLines(reqs);
    const order: Order = {
      orderNumber: this.nextNumber('20-'),
      customerOrderNumber,
      status: 'CREATED',
      createdAt: new Date(nowMs).toISOString(),
      lines,
      orderTotal: Math.round(lines.reduce((s, l) => s + l.quantity * l.unitPrice, 0) * 100) / 100,
      currency: 'USD',
    };
    this.orders.set(order.orderNumber, order);
    return order;
  }

  /** Runs a reseller operation; the body was validated against its request schema already. */
  call(operationId: string, ctx: CallContext): Outcome {
    const { params, query } = ctx;
    const body = (ctx.body ?? {}) as Record<string, unknown>;
    const w = this.w;
    switch (operationId) {
      case 'catalog.priceAndAvailability': {
        const products = (body.products as { partNumber: string }[]).map((r) => {
          const p = this.products.get(r.partNumber);
          return {
            partNumber: r.partNumber,
            price: p ? p.price : { currency: 'USD', unitPrice: 0 },
            availability: p ? p.availability : { available: false, totalAvailability: 0 },
          };
        });
        return ok({ products });
      }
      case 'catalog.search': {
        const kw = (query.keyword ?? '').toLowerCase();
        const items = w.products
          .filter((p) => !kw || p.description.toLowerCase().includes(kw) || p.partNumber.toLowerCase().includes(kw))
          .map(({ partNumber, vendorPartNumber, vendorName, description }) => ({ partNumber, vendorPartNumber, vendorName, description }));
        return ok(page('catalog', items));
      }
      case 'catalog.details': {
        const p = this.productDetails.get(params.partNumber as string);
        return p ? fixed(p) : missing(`Product ${params.partNumber}`);
      }
      case 'orders.create': {
        const o = this.newOrder(body.customerOrderNumber as string, body.lines as LineRequest[], ctx.nowMs);
        return created({
          orderNumber: o.orderNumber,
          customerOrderNumber: o.customerOrderNumber,
          status: 'CREATED',
          createdAt: o.createdAt,
        });
      }
      case 'orders.modify': {
        const o = this.orders.get(params.orderNumber as string);
        if (!o) return missing(`Order ${params.orderNumber}`);
        if (o.status === 'CANCELLED')
          return { status: 409, body: undefined, notFound: `Order ${o.orderNumber} is cancelled and cannot be modified` };
        if (body.lines) {
          o.lines = this.toLines(body.lines as LineRequest[]);
          o.orderTotal = Math.round(o.lines.reduce((s, l) => s + l.quantity * l.unitPrice, 0) * 100) / 100;
        }
        o.status = 'MODIFIED';
        return ok({ orderNumber: o.orderNumber, status: 'MODIFIED' });
      }
      case 'orders.details': {
        const o = this.orders.get(params.orderNumber as string);
        return o ? ok(o) : missing(`Order ${params.orderNumber}`);
      }
      case 'orders.search': {
        const status = query.status?.toUpperCase();
        const cno = query.customerOrderNumber;
        const items = [...this.orders.values()]
          .filter((o) => (!status || o.status === status) && (!cno || o.customerOrderNumber === cno))
          .map(({ orderNumber, customerOrderNumber, status: s, createdAt }) => ({
            orderNumber,
            customerOrderNumber,
            status: s,
            createdAt,
          }));
        return ok(page('orders', items));
      }
      case 'orders.cancel': {
        const o = this.orders.get(params.orderNumber as string);
        if (!o) return missing(`Order ${params.orderNumber}`);
        o.status = 'CANCELLED';
        return ok({ orderNumber: o.orderNumber, status: 'CANCELLED' });
      }
      case 'quotes.search':
        return ok(
          page(
            'quotes',
            w.quotes.map(({ quoteNumber, quoteName, status, expiryDate }) => ({ quoteNumber, quoteName, status, expiryDate })),
          ),
        );
      case 'quotes.details': {
        const q = w.quotes.find((x) => x.quoteNumber === params.quoteNumber);
        return q ? fixed(q) : missing(`Quote ${params.quoteNumber}`);
      }
      case 'quotes.validate': {
        const q = w.quotes.find((x) => x.quoteNumber === query.quoteNumber);
        if (!q) return missing(`Quote ${query.quoteNumber}`);
        const valid = q.status === 'ACTIVE';
        return ok({ quoteNumber: q.quoteNumber, valid, messages: valid ? [] : [`Quote ${q.quoteNumber} is ${q.status}`] });
      }
      case 'quoteToOrder.create': {
        const q = w.quotes.find((x) => x.quoteNumber === body.quoteNumber);
        if (!q) return missing(`Quote ${String(body.quoteNumber)}`);
        const o = this.newOrder(body.customerOrderNumber as string, q.lines, ctx.nowMs);
        return created({ orderNumber: o.orderNumber, quoteNumber: q.quoteNumber, status: 'CREATED' });
      }
      case 'invoices.search':
        return ok(
          page(
            'invoices',
            w.invoices.map(({ invoiceNumber, orderNumber, invoiceDate, total, currency }) => ({
              invoiceNumber,
              orderNumber,
              invoiceDate,
              total,
              currency,
            })),
          ),
        );
      case 'invoices.details': {
        const i = w.invoices.find((x) => x.invoiceNumber === params.invoiceNumber);
        return i ? fixed(i) : missing(`Invoice ${params.invoiceNumber}`);
      }
      case 'renewals.search': {
        const status = body.status as string | undefined;
        const items = w.renewals
          .filter((r) => !status || r.status === status)
          .map(({ renewalId, vendorName, endDate, status: s }) => ({ renewalId, vendorName, endDate, status: s }));
        return ok(page('renewals', items));
      }
      case 'renewals.details': {
        const r = w.renewals.find((x) => x.renewalId === params.renewalId);
        return r ? fixed(r) : missing(`Renewal ${params.renewalId}`);
      }
      case 'deals.search':
        return ok(
          page(
            'deals',
            w.deals.map(({ dealId, dealName, vendorName, expiryDate }) => ({ dealId, dealName, vendorName, expiryDate })),
          ),
        );
      case 'deals.details': {
        const d = w.deals.find((x) => x.dealId === params.dealId);
        return d ? fixed(d) : missing(`Deal ${params.dealId}`);
      }
      case 'returns.search':
        return ok(
          page(
            'returns',
            [...this.returns.values()].map(({ caseRequestNumber, orderNumber, status, createdAt }) => ({
              caseRequestNumber,
              orderNumber,
              status,
              createdAt,
            })),
          ),
        );
      case 'returns.details': {
        const r = this.returns.get(params.caseRequestNumber as string);
        return r ? ok(r) : missing(`Return ${params.caseRequestNumber}`);
      }
      case 'returns.create': {
        if (!this.orders.has(body.orderNumber as string)) return missing(`Order ${String(body.orderNumber)}`);
        const r: ReturnCase = {
          caseRequestNumber: this.nextNumber('RMA-'),
          orderNumber: body.orderNumber as string,
          status: 'OPEN',
          createdAt: new Date(ctx.nowMs).toISOString(),
          reason: body.reason as string,
          lines: (body.lines as LineRequest[]).map((l) => ({ partNumber: l.partNumber, quantity: l.quantity })),
        };
        this.returns.set(r.caseRequestNumber, r);
        return created({ caseRequestNumber: r.caseRequestNumber, orderNumber: r.orderNumber, status: 'OPEN' });
      }
      case 'freight.estimate': {
        const qty = (body.lines as LineRequest[]).reduce((s, l) => s + l.quantity, 0);
        return ok({
          currency: 'USD',
          estimates: [
            { carrier: 'UPS', service: 'Ground', charge: Math.round((9.5 + qty * 1.25) * 100) / 100, transitDays: 5 },
            { carrier: 'FedEx', service: '2Day', charge: Math.round((19 + qty * 2.1) * 100) / 100, transitDays: 2 },
          ],
        });
      }
      default:
        return missing(`Operation ${operationId}`);
    }
  }

  /** Generic vendor responses: the spec shows no vendor payloads. */
  vendorCall(operationId: string, params: Params): Outcome {
    const ids = Object.values(params);
    const items = ids.length ? [{ id: ids[0] }] : this.w.orders.slice(0, 3).map((o) => ({ orderNumber: o.orderNumber, status: o.status }));
    return ok({ operation: operationId, items });
  }
}

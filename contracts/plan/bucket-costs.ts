/**
 * What spending buckets costs, for the plan printed before the first request: each bucket's limit in calls and, for
 * a write operation, what its accepted calls create or change on the target (as many as its limit), so a user can
 * choose before a sandbox fills with orders, quotes or returns.
 */
import { limitFor, type Operation } from '../../catalogue';
import type { BucketCost, PlannedRequests } from '../record/annotations';

/** What one accepted call of a write operation creates or changes; a write not named here is counted as a change. */
const WRITE_EFFECTS: Record<string, string> = {
  'orders.create': 'orders created',
  'orders.createV7': 'orders created',
  'quoteToOrder.create': 'orders created from a quote',
  'quotes.create': 'quotes created',
  'returns.create': 'returns created',
  'orders.modify': 'modifications of one order',
  'orders.cancel': 'cancels of one order',
  'webhooks.orderStatus': 'order status events posted',
  'webhooks.availabilityUpdate': 'availability events posted',
};

/** A write whose calls all change one order of its own: the order is created first, once per bucket spent. */
export const needsOwnOrder = (op: Operation): boolean => !op.readOnly && op.needs.some((n) => n.id === 'orderNumber' && n.in === 'path');

/** What spending the operation's bucket once costs. */
export function bucketCost(op: Operation): BucketCost {
  const limit = limitFor(op);
  if (op.readOnly) return { operation: op.id, limit };
  const effect = WRITE_EFFECTS[op.id] ?? `${op.method} calls that change state`;
  return { operation: op.id, limit, writes: `${limit} ${effect}${needsOwnOrder(op) ? ' (1 order created for it)' : ''}` };
}

/**
 * The plan's line of the buckets spent: how many, the sum of their limits, and what each write operation's spending
 * creates or changes (summed over environments); none when no selected check spends a bucket.
 */
export function bucketCostLine(planned: readonly (readonly PlannedRequests[])[]): string | undefined {
  const costs = planned.flat().flatMap((p) => (p.spends ? [p.spends] : []));
  if (!costs.length) return undefined;
  const calls = costs.reduce((s, c) => s + c.limit, 0);
  const writes = new Map<string, string[]>();
  for (const c of costs) if (c.writes) writes.set(c.operation, [...(writes.get(c.operation) ?? []), c.writes]);
  const perWrite = [...writes].map(([op, w]) => `${op} ${w.length > 1 ? `${w.length} x ` : ''}${w[0]}`);
  return (
    `certify: buckets: ${costs.length} spent to their 429, ${calls} calls in the sum of their limits` +
    (perWrite.length ? `; writes: ${perWrite.join(', ')}` : "; no write operation's bucket")
  );
}

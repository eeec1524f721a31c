/**
 * Every bucket spent once under PROBE_LIMITS: each read-only operation in every selected environment and family is
 * called until its first 429 (contracts/exchanges/bucket-exhaustion.ts), independent buckets several at once, and
 * judged for exactly the advertised count allowed, then the 429's status, JSON error body, rate-limit headers and
 * Remaining 0 ("When any rate limit is hit, the response status is 429 … with a JSON error body"). The request plan
 * counts each bucket's limit before the first request. A write operation's bucket is spent the same way with its
 * valid request (as many orders, quotes or returns created or changed as its limit: the plan prints them) under its
 * own opt-in, PROBE_WRITE_LIMITS; a write that changes an order changes one created for it first.
 */
import type { EnvironmentName, Operation } from '../catalogue';
import { evidenceOf } from '../clients/http';
import { test, harnessConfig, label, selectedOperations, type Session } from './session/test';
import type { CallOptions } from './session/call-options';
import { CheckGroup } from './outcomes/check-groups';
import { judges } from './record/fact-declarations';
import { judging } from './record/fact-verdicts';
import { blocked } from './outcomes/outcomes';
import { firstScope, probeLimitsScope, probeWriteLimitsScope, webhookSecretScope, writesScope } from './plan/scope';
import { bucketCost, needsOwnOrder } from './plan/bucket-costs';
import { SPENDS_BUCKET } from './plan/phases';
import { findIdsFirst } from './exchanges/ids-first';
import { createOrder } from './exchanges/read-back';
import * as bucket from './exchanges/bucket-exhaustion';
import type { OutOfScope } from './record/annotations';

const cfg = harnessConfig();
const READS = selectedOperations(cfg).filter((o) => o.readOnly);
const WRITES = selectedOperations(cfg).filter((o) => !o.readOnly);
const REFUSED = 'when any rate limit is hit, the response status is 429';

/** Spends the operation's bucket, its bucket to itself (every call with the options `o`), and judges the count allowed and the 429. */
async function judgeBucket(session: Session, op: Operation, env: EnvironmentName, o: CallOptions = {}): Promise<void> {
  label(test.info(), op, env, 'bucket-spent');
  const ex = await session.exclusively([op], () => bucket.exhaust(session, op, env, o));
  // A deployment may refuse a write sent again (an order already cancelled, a quote already converted): its count
  // then says nothing of the limit, and the document does not say a write may be repeated.
  const again = op.readOnly ? undefined : ex.seq.find((r) => r.status >= 400 && r.status !== 401 && r.status !== 429);
  if (again)
    blocked(
      test.info(),
      `${op.id} (${env}) refused its valid write sent again, so its bucket cannot be spent with it: ${evidenceOf(again)}`,
    );
  const refused = await judging('limit.honoured', () => {
    const r = bucket.refusedOf(ex, `${REFUSED} (${op.id}, ${env})`);
    bucket.expectAllowedAsAdvertised(ex, `X-RateLimit-Limit is the limit enforced (${op.id}, ${env})`);
    return r;
  });
  await bucket.judgeRefusal(session, refused, `${op.id}, ${env}`);
}

/** Why spending a write operation's bucket is out of scope, if it is: its own opt-in, production's writes, a webhook's secret. */
const writeScope = (op: Operation): OutOfScope | undefined =>
  firstScope(probeWriteLimitsScope(cfg), writesScope(cfg, op.id), op.webhook ? webhookSecretScope(cfg) : undefined);

/** The options of a write's calls: one order created for it first when the write changes an order. */
type OrdersFor = Map<string, CallOptions>;

/**
 * Creates, before any bucket is held, the order of each write that changes one (a create sent while orders.create's
 * bucket is spent would land among its counted calls); a write without its order is blocked.
 */
async function ordersFor(session: Session, env: EnvironmentName, writes: readonly Operation[]): Promise<OrdersFor> {
  const out: OrdersFor = new Map();
  for (const op of writes.filter(needsOwnOrder)) {
    const created = await createOrder(session, env);
    if (created?.orderNumber) out.set(op.id, { params: { orderNumber: created.orderNumber } });
  }
  return out;
}

/** The group of checks, one per operation of `ops`, that spend their buckets in `env`. */
function spendGroup(env: EnvironmentName, ops: readonly Operation[], scope: (op: Operation) => OutOfScope | undefined) {
  const buckets = new CheckGroup<{ session: Session; orders: OrdersFor }>();
  for (const op of ops)
    buckets.check(
      `should allow exactly the advertised calls of ${op.id}, then answer 429 with the JSON error body, the rate-limit headers and Remaining 0 (${env})`,
      {
        unit: op.id,
        requests: bucket.exhaustionRequests(op) + (needsOwnOrder(op) ? 1 : 0),
        outOfScope: scope(op),
        facts: judges(env, op.id, 'limit.honoured', '429.error-body', '429.headers'),
        spends: bucketCost(op),
      },
      async ({ session, orders }) => {
        const o = needsOwnOrder(op) ? orders.get(op.id) : {};
        if (!o) blocked(test.info(), `${op.id} changes an order created for it, and orders.create gave no order number (${env})`);
        await judgeBucket(session, op, env, o);
      },
      ['@bucket-spend', SPENDS_BUCKET, `@${op.id}`],
    );
  return buckets;
}

test.describe('every bucket spent once', { tag: ['@bucket-spend', SPENDS_BUCKET] }, () => {
  bucket.spendingBuckets(test);
  for (const env of cfg.environments) {
    // One test per environment, one check per operation: independent buckets spent several at once (outcomes/check-groups.ts).
    const reads = spendGroup(env, READS, () => probeLimitsScope(cfg));
    test(
      `should spend every bucket once: the advertised calls allowed, then the documented 429 (${env})`,
      reads.details(),
      async ({ session }) => {
        await findIdsFirst(session, env, READS);
        await reads.run({ session, orders: new Map() }, session.pace);
      },
    );
    const writes = spendGroup(env, WRITES, writeScope);
    test(
      `should spend every write operation's bucket once with valid requests: the advertised calls allowed, then the documented 429 (${env})`,
      writes.details(),
      async ({ session }) => {
        await findIdsFirst(session, env, WRITES);
        const running = new Set(writes.runningUnits());
        const orders = await ordersFor(
          session,
          env,
          WRITES.filter((op) => running.has(op.id)),
        );
        await writes.run({ session, orders }, session.pace);
      },
    );
  }
});

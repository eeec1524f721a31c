/**
 * The handler of a business route: the operation's handler (api/handlers/) on the mock's state, its outcome
 * sent. Synchronous on purpose: no promise per request on the hot path.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BusinessRoute } from './business-route-types';
import { errorOf, errorStatusOf } from '../ground/errors';
import type { Outcome } from '../api/handlers/handler';
import type { Query } from '../api/query';
import type { MockState } from '../api/state';
import { webhookSecretOf } from '../api/webhooks';

const JSON_TYPE = 'application/json; charset=utf-8';
/** Serialised fixture objects of the seeded world (immutable), so the hot path skips JSON.stringify. */
const serialisedCache = new WeakMap<object, string>();
function serialised(o: object): string {
  let s = serialisedCache.get(o);
  if (s === undefined) {
    s = JSON.stringify(o);
    serialisedCache.set(o, s);
  }
  return s;
}

const noEvents = (): void => undefined;

export function businessHandler(route: BusinessRoute, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { ctx, op } = route;
  const params = req.params as Record<string, string>;
  const query = req.query as Query;
  const body = (req.body ?? {}) as Record<string, unknown>;
  const outcome: Outcome = route.handler
    ? route.handler({
        params,
        query,
        body,
        nowMs: ctx.clock.now(),
        state: ctx.state,
        receiveEvent: op.webhook ? (event) => receiveEvent(route, req, event) : noEvents,
      })
    : vendorCall(ctx.state, op.id, params);
  if ('error' in outcome) return reply.code(errorStatusOf(outcome.error)).send(errorOf(outcome.error, outcome));
  const override = route.responseBody?.(op.id, { params, query: query as Record<string, string>, body });
  reply.code(outcome.status);
  if (override !== undefined) return reply.send(override);
  if ('json' in outcome) return reply.type(JSON_TYPE).send(outcome.json);
  if (outcome.immutable) return reply.type(JSON_TYPE).send(serialised(outcome.body as object));
  return reply.send(outcome.body);
}

/** A webhook call's event: recorded, and pushed to `targeturl` when the call gave one. */
function receiveEvent({ ctx, op, env }: BusinessRoute, req: FastifyRequest, ev: Record<string, unknown>): void {
  const holder = req.mockAuth?.holder;
  const eventId = typeof ev.eventId === 'string' && ev.eventId ? ev.eventId : `EVT-${Date.now().toString(36)}`;
  ctx.outbox.receive({
    operationId: op.id,
    environment: env,
    clientId: holder?.clientId ?? null,
    event: ev,
    receivedAtMs: ctx.clock.now(),
  });
  const target = req.headers.targeturl;
  if (typeof target === 'string' && target) ctx.outbox.push(target, eventId, ev, webhookSecretOf(ctx.apps, holder?.clientId));
}

/** Generic vendor responses: the spec shows no vendor payloads. */
function vendorCall(state: MockState, operationId: string, params: Record<string, string>): Outcome {
  const ids = Object.values(params);
  const items = ids.length
    ? [{ id: ids[0] }]
    : [...state.orders.values()].slice(0, 3).map((o) => ({ orderNumber: o.ingramOrderNumber, status: o.orderStatus }));
  return { status: 200, body: { operation: operationId, items } };
}

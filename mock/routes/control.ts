/** The /__mock control API: reset, clock, limits, drift, webhooks, config. No rate-limit headers. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TOKEN_LIMIT } from '../../catalogue';
import type { MockContext } from '../context/context';
import { errorBody } from '../ground/errors';

export function registerControlRoutes(app: FastifyInstance, ctx: MockContext): void {
  const { ownSettings, clock, limiter } = ctx;
  const bad = (reply: FastifyReply, message: string, field: string) => reply.code(400).send(errorBody(message, field));
  const noHeaders = ctx.rate.route({ none: true });
  const onRequest = (req: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    req.rateRoute = noHeaders;
    done();
  };
  app.post('/__mock/reset', { onRequest }, async () => {
    ctx.state.reset();
    limiter.reset();
    ctx.tokens.clear();
    ctx.outbox.clear();
    return { reset: true };
  });
  app.post('/__mock/clock', { onRequest }, async (req, reply) => {
    const b = (req.body ?? {}) as { advanceMs?: unknown; nowMs?: unknown; system?: unknown };
    if (b.system === true) clock.useBase();
    else if (typeof b.nowMs === 'number') clock.setNow(b.nowMs);
    else if (typeof b.advanceMs === 'number') clock.advance(b.advanceMs);
    else return bad(reply, 'expected {"advanceMs": n}, {"nowMs": n} or {"system": true}', 'advanceMs');
    return { nowMs: clock.now() };
  });
  app.get('/__mock/limits', { onRequest }, async () => {
    const out: Record<string, number> = { token: ownSettings.limits.token ?? TOKEN_LIMIT };
    for (const op of ctx.operations) out[op.id] = ctx.limitOf(op);
    return out;
  });
  app.put('/__mock/limits', { onRequest }, async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    for (const [k, v] of Object.entries(b)) {
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) return bad(reply, `limit of ${k} must be a positive integer`, k);
      ownSettings.limits[k] = v;
    }
    limiter.reset();
    return ownSettings.limits;
  });
  app.get('/__mock/webhooks', { onRequest }, async () => ({ events: ctx.outbox.received, deliveries: ctx.outbox.deliveries }));
  app.get('/__mock/drift', { onRequest }, async () => ({ modes: ctx.layer.active() }));
  app.put('/__mock/drift', { onRequest }, async (req, reply) => {
    const b = (req.body ?? {}) as { modes?: unknown };
    if (!Array.isArray(b.modes)) return bad(reply, 'expected {"modes": [ids]}', 'modes');
    try {
      ctx.layer.switchTo(b.modes as string[]);
    } catch (e) {
      return bad(reply, (e as Error).message, 'modes');
    }
    limiter.reset();
    return { modes: ctx.layer.active() };
  });
  app.get('/__mock/config', { onRequest }, async () => ({
    windowMs: ownSettings.windowMs,
    resetUnit: ownSettings.resetUnit,
    tokenGet: ownSettings.tokenGet,
    expiresInS: ownSettings.expiresInS,
    tokenValidityMs: ownSettings.tokenValidityMs,
    drift: ctx.layer.active(),
    nowMs: clock.now(),
    operations: ctx.operations.map((o) => o.id),
  }));
}

/**
 * The embedded mock of the Distributor Commerce API. `buildMockApp` builds the Fastify app
 * (tests use `app.inject()`); `startMock` in server.ts listens on 127.0.0.1.
 *
 * A business call runs along Fastify's lifecycle (business-route.ts):
 *   onRequest   caller identified, limiter decision (rate-limit.ts), 429
 *   preHandler  the request checks (request-checks.ts): authentication (auth.ts), required headers and query
 *               parameters, Content-Type, the body checked against the published request schema (route
 *               schema, attachValidation), the webhook signature
 *   handler     the operation's handler (api/handlers/) on the mock's state (api/state.ts), business-handler.ts
 *   onSend      X-RateLimit headers from the decision and the final status
 *
 * A layer over the mock (mock-options.ts, ground/mock-layer.ts) may make it lenient at named decision points, switch a
 * spec choice to its other reading, and register hooks of its own after the mock's.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { AuthResult } from '../checks/auth';
import { registerBodyParsers, setLazyValidatorCompiler } from '../routes/body-parsing';
import { registerBusinessRoutes } from '../routes/business-route';
import { registerControlRoutes } from '../routes/control';
import { frameworkErrors, MAX_PARAM_LENGTH, registerErrorHandlers, ROUTE_HELPERS } from '../routes/error-handlers';
import { createMockContext } from '../context/build-context';
import { DEFAULT_BODY_LIMIT, resolveOptions, type MockOptions } from '../context/mock-options';
import { registerLatency } from '../latency/latency';
import { holdTickShape } from '../limits/tick-shape';
import { registerTokenRoutes } from '../routes/token-routes';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the business onRequest step identified (null elsewhere). */
    mockAuth: AuthResult | null;
  }
}

export async function buildMockApp(opts: MockOptions = {}): Promise<FastifyInstance> {
  holdTickShape();
  const { settings, layer } = resolveOptions(opts);
  const ctx = createMockContext(opts, settings, layer);
  const bodyLimit = opts.bodyLimitBytes ?? DEFAULT_BODY_LIMIT;
  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: frameworkErrors((req, reply) => ctx.rate.writeHeaders(req, reply)),
    return503OnClosing: false,
  });
  await registerBodyParsers(app, bodyLimit);
  const warnRequests = opts.requests === 'warn';
  setLazyValidatorCompiler(app, warnRequests);
  app.decorateRequest('rateRoute', null);
  app.decorateRequest('mockDecision', null);
  app.decorateRequest('mockAuth', null);
  app.addHook('onSend', (req, reply, payload, done) => {
    ctx.rate.writeHeaders(req, reply);
    done(null, payload);
  });
  layer.register(app, ctx.clock);
  registerLatency(app, opts.latency ?? {}, settings.seed);

  registerTokenRoutes(app, ctx, ROUTE_HELPERS);
  registerBusinessRoutes(app, {
    ctx,
    warnRequests,
    strictDocument: () => ctx.settings().strictDocument,
    reportConflict: opts.onDocumentConflict ?? ((message: string) => app.log.warn(message)),
    reportViolation: opts.onRequestViolation ?? ((line: string) => app.log.warn(line)),
    responseBody: opts.responseBody,
  });
  registerErrorHandlers(app);

  if (opts.control) registerControlRoutes(app, ctx);
  app.addHook('onClose', async () => ctx.outbox.close());
  return app;
}

/** The mock's shared context (context.ts) built from its options. */
import { DEFAULT_VENDOR_OPERATIONS, limitFor, operationsFor, type Operation } from '../../catalogue';
import { TokenStore } from '../checks/auth';
import { SwitchableClock, systemClock } from '../ground/clock';
import { DEFAULT_APPS } from '../../catalogue/apps';
import type { MockContext, MockSettings } from './context';
import type { MockLayer } from '../ground/mock-layer';
import type { Limiter } from '../limits/limiter';
import { FixedWindow } from '../limits/limiter-algorithms';
import { LimiterSet } from '../limits/limiter-set';
import type { MockOptions } from './mock-options';
import { RateLimits } from '../limits/rate-limit';
import { MockState } from '../api/state';
import { WebhookOutbox } from '../api/webhooks';

/** The limiter given, or the algorithms asked for, or the spec's fixed window. */
function limiterOf(opts: MockOptions, clock: SwitchableClock, windowMs: number): Limiter {
  if (opts.limiter) return opts.limiter;
  return opts.algorithms ? new LimiterSet(clock, windowMs, opts.algorithms) : new FixedWindow(clock, windowMs);
}

export function createMockContext(opts: MockOptions, own: MockSettings, layer: MockLayer): MockContext {
  const { leniency } = layer;
  const settings = () => layer.applyChoices(own);
  const clock = new SwitchableClock(opts.clock ?? systemClock);
  const limiter = limiterOf(opts, clock, own.windowMs);
  return {
    ownSettings: own,
    settings,
    layer,
    clock,
    limiter,
    rate: new RateLimits(limiter, clock, settings, leniency, opts.headers, opts.refusalStatus),
    state: new MockState(own.seed),
    tokens: new TokenStore(clock),
    apps: new Map((opts.apps ?? DEFAULT_APPS).map((a) => [a.clientId, a])),
    outbox: new WebhookOutbox({ allowRemote: opts.allowRemoteWebhookTargets ?? false }),
    operations: operationsFor({ vendorOperations: opts.vendorOperations ?? DEFAULT_VENDOR_OPERATIONS }),
    leniency,
    limitOf: (op: Operation): number => {
      const l = limitFor(op, own.limits);
      return leniency('sixty-one-get-calls') && op.method === 'GET' && own.limits[op.id] === undefined ? 61 : l;
    },
  };
}

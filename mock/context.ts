/** What every part of the mock shares: settings that the control API may change, the clock, the limiter, the state. */
import type { Family, Operation } from '../catalogue';
import type { TokenStore } from './auth';
import type { Leniency, MockLayer, Readings } from './layer';
import type { SwitchableClock } from './clock';
import type { Limiter } from './limiter';
import type { RateLimits } from './rate-limit';
import type { MockState } from './resources';
import type { WebhookOutbox } from './webhooks';

export interface MockApp {
  clientId: string;
  clientSecret: string;
  family: Family;
  /** Secret used to sign pushed webhook events; default `<clientId>-webhook-secret`. */
  webhookSecret?: string;
}

/**
 * Public demo credentials of the mock (not secrets of any real deployment). Here, beside their type, so
 * that what starts the mock in another process (`npm run load`) reads them without loading the server.
 */
export const DEFAULT_APPS: readonly MockApp[] = [
  { clientId: 'demo-reseller', clientSecret: 'demo-reseller-secret', family: 'reseller' },
  { clientId: 'demo-reseller-b', clientSecret: 'demo-reseller-b-secret', family: 'reseller' },
  { clientId: 'demo-vendor', clientSecret: 'demo-vendor-secret', family: 'vendor' },
];

/** Mutable settings that the control API may change at run time. */
export interface MockConfig extends Readings {
  windowMs: number;
  tokenValidityMs: number;
  limits: Record<string, number>;
}

export interface MockContext {
  /** The mock's own settings. */
  config: MockConfig;
  /** The settings in force: the mock's own with the layer's readings over them. */
  settings: () => MockConfig;
  /** The layer over the mock (its switches are the control API's). */
  layer: MockLayer;
  clock: SwitchableClock;
  limiter: Limiter;
  rate: RateLimits;
  state: MockState;
  tokens: TokenStore;
  apps: Map<string, MockApp>;
  outbox: WebhookOutbox;
  operations: Operation[];
  /** Asked where the mock decides what it accepts. */
  leniency: Leniency;
  /** The enforced limit of an operation (its override, or its default, or the leniency's). */
  limitOf: (op: Operation) => number;
}

/** What every part of the mock shares: settings that the control API may change, the clock, the limiter, the state. */
import type { Family, Operation } from '../catalogue';
import type { TokenStore } from './auth';
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
export interface MockConfig {
  windowMs: number;
  resetUnit: 'epoch' | 'seconds';
  tokenGet: 'reject' | 'accept';
  expiresInS: number;
  tokenValidityMs: number;
  drift: Set<string>;
  limits: Record<string, number>;
}

export interface MockContext {
  config: MockConfig;
  clock: SwitchableClock;
  limiter: Limiter;
  rate: RateLimits;
  state: MockState;
  tokens: TokenStore;
  apps: Map<string, MockApp>;
  outbox: WebhookOutbox;
  operations: Operation[];
  drift: (id: string) => boolean;
  /** The enforced limit of an operation (overrides and the limit drift applied). */
  limitOf: (op: Operation) => number;
}

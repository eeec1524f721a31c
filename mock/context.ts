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

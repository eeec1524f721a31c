/** What every part of the mock shares: settings that the control API may change, the clock, the limiter, the state. */
import type { Operation } from '../../catalogue';
import type { MockApp } from '../../catalogue/apps';
import type { TokenStore } from '../checks/auth';
import type { Leniency, MockLayer, SpecChoices } from '../ground/mock-layer';
import type { SwitchableClock } from '../ground/clock';
import type { Limiter } from '../limits/limiter';
import type { RateLimits } from '../limits/rate-limit';
import type { MockState } from '../api/state';
import type { WebhookOutbox } from '../api/webhooks';

/** The mock's settings: its options resolved to their values, which the control API may change at run time. */
export interface MockSettings extends SpecChoices {
  windowMs: number;
  /** The faker seed of the fixtures and of the added latency. */
  seed: number;
  tokenValidityMs: number;
  limits: Record<string, number>;
}

export interface MockContext {
  /** The mock's own settings. */
  ownSettings: MockSettings;
  /** The settings in force: the mock's own with the layer's spec choices over them. */
  settings: () => MockSettings;
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

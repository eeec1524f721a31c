/**
 * The apps the embedded mock lets obtain tokens (its `apps` option, MOCK_APPS), and its demo apps: one home
 * for the demo credentials, read by the mock, by the configuration (the apps certify uses on the mock) and by
 * what starts the mock in another process (`npm run load`), which must not load the server for them.
 */
import type { Family } from './operations';

/** An app of the embedded mock: its client credentials and its family. */
export interface MockApp {
  clientId: string;
  clientSecret: string;
  family: Family;
  /** Secret used to sign pushed webhook events; default `<clientId>-webhook-secret`. */
  webhookSecret?: string;
}

/** Public demo credentials of the mock (not secrets of any real deployment). */
export const DEMO_RESELLER: MockApp = { clientId: 'demo-reseller', clientSecret: 'demo-reseller-secret', family: 'reseller' };
/** A second reseller app: another customer's data, which the reseller app must not see. */
export const DEMO_RESELLER_B: MockApp = { clientId: 'demo-reseller-b', clientSecret: 'demo-reseller-b-secret', family: 'reseller' };
export const DEMO_VENDOR: MockApp = { clientId: 'demo-vendor', clientSecret: 'demo-vendor-secret', family: 'vendor' };

/** The mock's apps unless told others (MOCK_APPS). */
export const DEFAULT_APPS: readonly MockApp[] = [DEMO_RESELLER, DEMO_RESELLER_B, DEMO_VENDOR];

/** The webhook secret of an app that has none of its own: the mock's demo rule, `<clientId>-webhook-secret`. */
export const demoWebhookSecret = (clientId: string): string => `${clientId}-webhook-secret`;

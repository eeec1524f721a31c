/** The apps that may obtain tokens from the mock, and its demo apps. */
import type { Family } from '../../catalogue';

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

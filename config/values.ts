/** The HTTP limits and the certify concurrency, from their settings (config/settings.ts). */
import { DEFAULTS, setting, type Env } from './settings';

/** REQUEST_TIMEOUT_MS and MAX_BODY_BYTES. */
export function httpLimitsFrom(env: Env): { requestTimeoutMs: number; maxBodyBytes: number } {
  return { requestTimeoutMs: setting(env, 'REQUEST_TIMEOUT_MS'), maxBodyBytes: setting(env, 'MAX_BODY_BYTES') };
}

/** CERTIFY_CONCURRENCY: DEFAULTS.concurrency against a deployment, 1 on the embedded mock, whose workers each have their own. */
export function concurrencyFrom(env: Env, kind: string): number {
  return setting(env, 'CERTIFY_CONCURRENCY') ?? (kind === 'mock' ? 1 : DEFAULTS.concurrency);
}

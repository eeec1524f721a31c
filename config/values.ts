/** Number and flag variables, the configuration's defaults, and the HTTP limits that use them. */
import { ConfigError } from './config-error';

export const DEFAULTS = {
  requestTimeoutMs: 10_000,
  maxBodyBytes: 5 * 1024 * 1024,
  max429WaitMs: 65_000,
  mockWindowMs: 2_000,
  concurrency: 8,
} as const;

/** A non-negative number variable, `def` when unset or empty. */
export function envNumber(env: NodeJS.ProcessEnv, name: string, def: number): number {
  const v = env[name];
  if (v === undefined || v === '') return def;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new ConfigError(`${name} must be a non-negative number, received "${v}"`);
  return n;
}

/** A flag variable: on for 1, true or yes (any case). */
export function envFlag(env: NodeJS.ProcessEnv, name: string): boolean {
  return ['1', 'true', 'yes'].includes((env[name] ?? '').toLowerCase());
}
/** REQUEST_TIMEOUT_MS and MAX_BODY_BYTES (defaults in DEFAULTS). */
export function httpLimitsFrom(env: NodeJS.ProcessEnv): { requestTimeoutMs: number; maxBodyBytes: number } {
  return {
    requestTimeoutMs: envNumber(env, 'REQUEST_TIMEOUT_MS', DEFAULTS.requestTimeoutMs),
    maxBodyBytes: envNumber(env, 'MAX_BODY_BYTES', DEFAULTS.maxBodyBytes),
  };
}

/** CERTIFY_CONCURRENCY: a whole number from 1; DEFAULTS.concurrency against a deployment, 1 on the embedded mock. */
export function concurrencyFrom(env: NodeJS.ProcessEnv, kind: string): number {
  const n = envNumber(env, 'CERTIFY_CONCURRENCY', kind === 'mock' ? 1 : DEFAULTS.concurrency);
  if (!Number.isInteger(n) || n < 1)
    throw new ConfigError(`CERTIFY_CONCURRENCY must be a whole number from 1, received "${env.CERTIFY_CONCURRENCY}"`);
  return n;
}

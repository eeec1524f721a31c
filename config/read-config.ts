/**
 * Target configuration, read from the environment once. Every variable is listed in .env.example.
 * Errors say what was expected, what was received and what to do, before any request is sent.
 */ import { DEFAULT_VENDOR_OPERATIONS, parseVendorOperations } from '../catalogue';
import { DEMO_RESELLER } from '../catalogue/apps';
import { ConfigError } from './config-error';
import { appCredentialsFrom, deploymentCredentialsFrom, mockCredentialsFrom, webhookSecretFrom } from './credentials';
import { headersFrom, imHeaderDefaultsUsed, imHeadersFrom } from './headers';
import { mockAppsFrom, mockConfigFrom } from './mock-settings';
import { environmentsFrom, familiesFrom, knownIdsFrom, targetFrom } from './target-settings';
import { DEFAULTS, concurrencyFrom, envFlag, httpLimitsFrom, envNumber } from './values';
import type { DeploymentSettings, HarnessConfig } from './harness-config';

export { ConfigError };

let processConfig: { config: HarnessConfig } | { error: unknown } | undefined;

/**
 * The process's configuration: read from its environment once, the first time it is asked for (the runner,
 * Playwright's configuration, global setup, its reporters and each worker ask it alike). Throws the same
 * ConfigError every time when the environment is wrong.
 */
export function runConfig(): HarnessConfig {
  if (!processConfig) {
    try {
      processConfig = { config: loadConfig(process.env) };
    } catch (error) {
      processConfig = { error };
    }
  }
  if ('error' in processConfig) throw processConfig.error;
  return processConfig.config;
}

/** Reads and checks the configuration. Throws ConfigError with what to do. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): HarnessConfig {
  const { target, kind, baseUrl } = targetFrom(env);
  const environments = environmentsFrom(env, kind);
  const families = familiesFrom(env);
  const { credentials, secondReseller } =
    kind === 'mock' ? mockCredentialsFrom(env) : deploymentCredentialsFrom(env, kind === 'url' ? target : kind, families);
  const mockApps = mockAppsFrom(env);
  const label = kind === 'mock' ? 'embedded mock' : `${kind === 'url' ? '' : `${kind} `}${baseUrl}`;
  return {
    kind,
    baseUrl,
    targetLabel: label,
    environments,
    families,
    credentials,
    secondReseller,
    extraHeaders: headersFrom(env),
    imHeaders: imHeadersFrom(env),
    imHeaderDefaults: imHeaderDefaultsUsed(env),
    vendorOperations: env.VENDOR_OPERATIONS ? parseVendorOperations(env.VENDOR_OPERATIONS) : [...DEFAULT_VENDOR_OPERATIONS],
    requestBudget: env.REQUEST_BUDGET ? envNumber(env, 'REQUEST_BUDGET', 0) : kind === 'mock' ? Infinity : undefined,
    partialBudget: envFlag(env, 'REQUEST_BUDGET_PARTIAL'),
    requireEveryCheck: envFlag(env, 'REQUIRE_EVERY_CHECK'),
    concurrency: concurrencyFrom(env, kind),
    probeLimits: kind === 'mock' || envFlag(env, 'PROBE_LIMITS'),
    allowWrites: kind !== 'production' || envFlag(env, 'ALLOW_PRODUCTION_WRITES'),
    webhookReceiverUrl: env.WEBHOOK_RECEIVER_URL || undefined,
    webhookSecret: webhookSecretFrom(env, kind === 'mock' ? credentials.reseller?.clientId : undefined),
    policyFile: env.POLICY || undefined,
    openapiFile: env.OPENAPI || undefined,
    reportsDir: env.REPORTS_DIR || 'reports',
    ...httpLimitsFrom(env),
    max429WaitMs: envNumber(env, 'MAX_429_WAIT_MS', DEFAULTS.max429WaitMs),
    knownIds: knownIdsFrom(env),
    mock: mockConfigFrom(env, mockApps),
  };
}

/** `npm run load`'s settings of the deployment, from the environment. Throws ConfigError with what to do. */
export function deploymentSettingsFrom(env: NodeJS.ProcessEnv = process.env): DeploymentSettings {
  return {
    baseUrl: env.BASE_URL || undefined,
    credentials: appCredentialsFrom(env, ['reseller', 'vendor']).found,
    imHeaders: imHeadersFrom(env),
    webhookSecret: webhookSecretFrom(env, env.RESELLER_CLIENT_ID ?? DEMO_RESELLER.clientId) as string,
    knownIds: knownIdsFrom(env),
    ...httpLimitsFrom(env),
    segment: env.LOAD_SEGMENT || undefined,
  };
}

/**
 * The configuration files (POLICY against its JSON Schema, OPENAPI as an OpenAPI 3 document), checked
 * before any request. Throws ConfigError. Loaded on demand: a run without them does not load their parsers.
 */
export async function checkConfigFiles(cfg: Pick<HarnessConfig, 'policyFile' | 'openapiFile'>): Promise<void> {
  if (!cfg.policyFile && !cfg.openapiFile) return;
  const { readPolicy, checkOpenApiFile } = await import('./config-files');
  readPolicy(cfg.policyFile);
  if (cfg.openapiFile) await checkOpenApiFile(cfg.openapiFile);
}

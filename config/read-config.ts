/**
 * Target configuration, read from the environment once, each variable through its definition in config/settings.ts.
 * Errors say what was expected, what was received and what to do, before any request is sent.
 */
import { DEFAULT_VENDOR_OPERATIONS } from '../catalogue';
import { DEMO_RESELLER } from '../catalogue/apps';
import { ConfigError } from './config-error';
import { appCredentialsFrom, deploymentCredentialsFrom, mockCredentialsFrom, webhookSecretFrom } from './credentials';
import { headersFrom, imHeaderDefaultsUsed, imHeadersFrom } from './headers';
import { mockConfigFrom } from './mock-settings';
import { setting, type Env } from './settings';
import { environmentsFrom, familiesFrom, knownIdsFrom, targetFrom } from './target-settings';
import { concurrencyFrom, httpLimitsFrom } from './values';
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
export function loadConfig(env: Env = process.env): HarnessConfig {
  const { target, kind, baseUrl } = targetFrom(env);
  const environments = environmentsFrom(env, kind);
  const families = familiesFrom(env);
  const { credentials, secondReseller } =
    kind === 'mock' ? mockCredentialsFrom(env) : deploymentCredentialsFrom(env, kind === 'url' ? target : kind, families);
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
    vendorOperations: setting(env, 'VENDOR_OPERATIONS') ?? [...DEFAULT_VENDOR_OPERATIONS],
    requestBudget: setting(env, 'REQUEST_BUDGET') ?? (kind === 'mock' ? Infinity : undefined),
    partialBudget: setting(env, 'REQUEST_BUDGET_PARTIAL'),
    requireEveryCheck: setting(env, 'REQUIRE_EVERY_CHECK'),
    concurrency: concurrencyFrom(env, kind),
    probeLimits: kind === 'mock' || setting(env, 'PROBE_LIMITS'),
    probeWriteLimits: kind === 'mock' || setting(env, 'PROBE_WRITE_LIMITS'),
    allowWrites: kind !== 'production' || setting(env, 'ALLOW_PRODUCTION_WRITES'),
    webhookReceiverUrl: setting(env, 'WEBHOOK_RECEIVER_URL'),
    webhookSecret: webhookSecretFrom(env, kind === 'mock' ? credentials.reseller?.clientId : undefined),
    policyFile: setting(env, 'POLICY'),
    openapiFile: setting(env, 'OPENAPI'),
    reportsDir: setting(env, 'REPORTS_DIR'),
    githubStepSummary: githubStepSummaryFrom(env),
    ...httpLimitsFrom(env),
    max429WaitMs: setting(env, 'MAX_429_WAIT_MS'),
    knownIds: knownIdsFrom(env),
    mock: mockConfigFrom(env),
  };
}

/** GITHUB_STEP_SUMMARY when GITHUB_ACTIONS is on: the step summary file certify and `npm run load` append to. */
export function githubStepSummaryFrom(env: Env = process.env): string | undefined {
  return setting(env, 'GITHUB_ACTIONS') ? setting(env, 'GITHUB_STEP_SUMMARY') : undefined;
}

/** `npm run load`'s settings of the deployment, from the environment. Throws ConfigError with what to do. */
export function deploymentSettingsFrom(env: Env = process.env): DeploymentSettings {
  return {
    baseUrl: setting(env, 'BASE_URL'),
    credentials: appCredentialsFrom(env, ['reseller', 'vendor']).found,
    imHeaders: imHeadersFrom(env),
    webhookSecret: webhookSecretFrom(env, setting(env, 'RESELLER_CLIENT_ID') ?? DEMO_RESELLER.clientId) as string,
    knownIds: knownIdsFrom(env),
    ...httpLimitsFrom(env),
    segment: setting(env, 'LOAD_SEGMENT'),
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

/**
 * Target configuration, read from the environment once. Every variable is listed in .env.example.
 * Errors say what was expected, what was received and what to do, before any request is sent.
 */
import { readFileSync } from 'node:fs';
import {
  DEFAULT_VENDOR_OPERATIONS,
  headerCheck,
  IM_HEADER_CONSTRAINTS,
  IM_HEADERS,
  idSources,
  parseVendorOperations,
  type EnvironmentName,
  type Family,
  type IdName,
  type VendorOperationSpec,
} from '../catalogue';
import type { Credentials } from './token-core';
import { ConfigError } from './config-error';

export { ConfigError };

export type TargetKind = 'mock' | 'sandbox' | 'production' | 'url';

export interface HarnessConfig {
  kind: TargetKind;
  /** {base_url}; for the mock, filled in once it listens. */
  baseUrl: string | undefined;
  /** Printable target name (never contains credentials). */
  targetLabel: string;
  environments: EnvironmentName[];
  families: Family[];
  credentials: Partial<Record<Family, Credentials>>;
  /** A second reseller app, for the per-app independence check. */
  secondReseller: Credentials | undefined;
  extraHeaders: Record<string, string>;
  /** The published IM-* request headers (IM-CorrelationID excepted: fresh per request), by header name. */
  imHeaders: Record<string, string>;
  vendorOperations: VendorOperationSpec[];
  /** Requests the suite may send; Infinity on the embedded mock. */
  requestBudget: number;
  /** Run limit exhaustion tests (always on the mock). */
  probeLimits: boolean;
  /** Production runs only read-only operations unless writes are allowed too. */
  allowWrites: boolean;
  webhookReceiverUrl: string | undefined;
  /** Secret that signs pushed webhook events (x-hub-signature); the mock's default on the mock. */
  webhookSecret: string | undefined;
  /** POLICY; its file is checked at start-up by `checkConfigFiles`. */
  policyFile: string | undefined;
  requestTimeoutMs: number;
  maxBodyBytes: number;
  /** Longest wait for a rate-limit reset in a test that is not about limits. */
  max429WaitMs: number;
  /** The embedded mock's settings; `requests` is MOCK_REQUESTS as given (strict or warn, checked where the mock starts). */
  mock: { windowMs: number; drift: string[]; apps: ConfiguredApp[] | undefined; seed: number; requests: string };
  /** Ids of the target's data given by the user (KNOWN_IDS), used before any discovery. */
  knownIds: Partial<Record<IdName, string>>;
}

/** IM-* header values by variable; the defaults are the mock's (documented in .env.example). */
export const IM_HEADER_VARIABLES = {
  IM_CUSTOMER_NUMBER: { header: IM_HEADERS.customerNumber, mockDefault: '20-222222' },
  IM_COUNTRY_CODE: { header: IM_HEADERS.countryCode, mockDefault: 'US' },
  IM_CUSTOMER_CONTACT: { header: IM_HEADERS.customerContact, mockDefault: 'certification@example.com' },
  IM_APPLICATION_ID: { header: IM_HEADERS.applicationId, mockDefault: 'distributor-harness' },
  IM_SENDER_ID: { header: IM_HEADERS.senderId, mockDefault: 'distributor-harness' },
} as const;

/** The IM-* request headers from the environment, by header name (mock defaults for unset ones). */
export function imHeadersFrom(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(IM_HEADER_VARIABLES)) {
    const value = (env[name] ?? '').trim() || v.mockDefault;
    if (/[\r\n]/.test(value)) throw new ConfigError(`${name} must be a single-line header value, received a value with a line break`);
    const why = headerCheck(v.header, IM_HEADER_CONSTRAINTS[v.header])(value);
    if (why)
      throw new ConfigError(
        `${name} breaks the published document's constraint on ${v.header}: ${why}; set the value your account was given (see .env.example)`,
      );
    out[v.header] = value;
  }
  return out;
}

/** The IM-* variables left unset (their headers carry the mock's values), in declaration order. */
export function imHeaderDefaultsUsed(env: NodeJS.ProcessEnv): string[] {
  return Object.keys(IM_HEADER_VARIABLES).filter((name) => !(env[name] ?? '').trim());
}

/**
 * The secret that signs webhook calls (x-hub-signature): WEBHOOK_SECRET, else on the embedded mock the
 * mock's rule for the reseller app (`<client id>-webhook-secret`); undefined for a deployment without it.
 */
export function webhookSecretFrom(env: NodeJS.ProcessEnv, mockResellerId: string | undefined): string | undefined {
  if (env.WEBHOOK_SECRET) return env.WEBHOOK_SECRET;
  return mockResellerId === undefined ? undefined : `${mockResellerId}-webhook-secret`;
}

export const DEFAULTS = {
  // A certification of both families and environments of a deployment without PROBE_LIMITS sends about 310.
  requestBudget: 400,
  requestTimeoutMs: 10_000,
  maxBodyBytes: 5 * 1024 * 1024,
  max429WaitMs: 65_000,
  mockWindowMs: 2_000,
} as const;

function num(env: NodeJS.ProcessEnv, name: string, def: number): number {
  const v = env[name];
  if (v === undefined || v === '') return def;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new ConfigError(`${name} must be a non-negative number, received "${v}"`);
  return n;
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  return ['1', 'true', 'yes'].includes((env[name] ?? '').toLowerCase());
}

function headersFrom(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  const merge = (text: string, where: string) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ConfigError(`${where} must be a JSON object of header names to values, e.g. {"IM-CustomerNumber":"20-222222"}`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigError(`${where} must be a JSON object`);
    for (const [k, v] of Object.entries(parsed)) out[k] = String(v);
  };
  if (env.HEADERS_PROFILE) {
    let text: string;
    try {
      text = readFileSync(env.HEADERS_PROFILE, 'utf8');
    } catch {
      throw new ConfigError(`HEADERS_PROFILE points at ${env.HEADERS_PROFILE}, which cannot be read; give a JSON file of extra headers`);
    }
    merge(text, `HEADERS_PROFILE (${env.HEADERS_PROFILE})`);
  }
  if (env.EXTRA_HEADERS) merge(env.EXTRA_HEADERS, 'EXTRA_HEADERS');
  return out;
}

/** KNOWN_IDS: a JSON object of id names to values, or the path of a JSON file holding one. */
export function knownIdsFrom(env: NodeJS.ProcessEnv): Partial<Record<IdName, string>> {
  const raw = (env.KNOWN_IDS ?? '').trim();
  if (!raw) return {};
  let text = raw;
  if (!raw.startsWith('{')) {
    try {
      text = readFileSync(raw, 'utf8');
    } catch {
      throw new ConfigError(
        `KNOWN_IDS is neither a JSON object nor a readable file: "${raw}"; give e.g. {"orderNumber":"20-12345"} or a file path`,
      );
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ConfigError(`KNOWN_IDS must be a JSON object of id names to values, e.g. {"partNumber":"ABC123","orderNumber":"20-12345"}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigError('KNOWN_IDS must be a JSON object');
  const out: Partial<Record<IdName, string>> = {};
  for (const [k, v] of Object.entries(parsed)) {
    if (!(k in idSources)) {
      throw new ConfigError(`KNOWN_IDS names an unknown id "${k}"; known ids: ${Object.keys(idSources).join(', ')}`);
    }
    out[k as IdName] = String(v);
  }
  return out;
}

/** The apps of a deployment: `<FAMILY>_CLIENT_ID` and `_CLIENT_SECRET` of each family, and the variables left unset. */
export function appCredentialsFrom(
  env: NodeJS.ProcessEnv,
  families: readonly Family[],
): { found: Partial<Record<Family, Credentials>>; missing: string[] } {
  const found: Partial<Record<Family, Credentials>> = {};
  const missing: string[] = [];
  for (const f of families) {
    const id = env[`${f.toUpperCase()}_CLIENT_ID`];
    const secret = env[`${f.toUpperCase()}_CLIENT_SECRET`];
    if (!id) missing.push(`${f.toUpperCase()}_CLIENT_ID`);
    if (!secret) missing.push(`${f.toUpperCase()}_CLIENT_SECRET`);
    if (id && secret) found[f] = { clientId: id, clientSecret: secret };
  }
  return { found, missing };
}

/** REQUEST_TIMEOUT_MS and MAX_BODY_BYTES (defaults in DEFAULTS). */
export function httpLimitsFrom(env: NodeJS.ProcessEnv): { requestTimeoutMs: number; maxBodyBytes: number } {
  return {
    requestTimeoutMs: num(env, 'REQUEST_TIMEOUT_MS', DEFAULTS.requestTimeoutMs),
    maxBodyBytes: num(env, 'MAX_BODY_BYTES', DEFAULTS.maxBodyBytes),
  };
}

/** TARGET as a kind and a base URL (trailing slashes dropped); production needs ALLOW_PRODUCTION. */
function targetFrom(env: NodeJS.ProcessEnv): { target: string; kind: TargetKind; baseUrl: string | undefined } {
  const target = (env.TARGET ?? 'mock').trim();
  let kind: TargetKind;
  let baseUrl: string | undefined;
  if (target === 'mock') kind = 'mock';
  else if (target === 'sandbox' || target === 'production') {
    kind = target;
    baseUrl = env.BASE_URL;
    if (!baseUrl) {
      throw new ConfigError(
        `TARGET=${target} needs BASE_URL, the {base_url} of the deployment (scheme, host, port), e.g. BASE_URL=https://api.example.com`,
      );
    }
  } else if (/^https?:\/\//.test(target)) {
    kind = 'url';
    baseUrl = target;
  } else {
    throw new ConfigError(`TARGET must be mock, sandbox, production or a base URL (http://... or https://...), received "${target}"`);
  }
  if (baseUrl) baseUrl = checkedBaseUrl(baseUrl);
  if (kind === 'production' && !flag(env, 'ALLOW_PRODUCTION')) {
    throw new ConfigError(
      'TARGET=production spends the quota of a production app: set ALLOW_PRODUCTION=1 to confirm (read-only operations only, unless ALLOW_PRODUCTION_WRITES=1)',
    );
  }
  return { target, kind, baseUrl };
}

/** A base URL without credentials, trailing slashes dropped. */
function checkedBaseUrl(baseUrl: string): string {
  try {
    const u = new URL(baseUrl);
    if (u.username || u.password)
      throw new ConfigError('BASE_URL/TARGET must not contain credentials; use the *_CLIENT_ID and *_CLIENT_SECRET variables');
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    throw new ConfigError(`base URL "${baseUrl}" is not a URL; expected e.g. https://api.example.com`);
  }
  return baseUrl.replace(/\/+$/, '');
}

/** ENVIRONMENTS, by default the environments the target kind serves. */
function environmentsFrom(env: NodeJS.ProcessEnv, kind: TargetKind): EnvironmentName[] {
  const defaultEnvs: EnvironmentName[] =
    kind === 'sandbox' ? ['sandbox'] : kind === 'production' ? ['production'] : ['production', 'sandbox'];
  const environments = env.ENVIRONMENTS
    ? env.ENVIRONMENTS.split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : defaultEnvs;
  for (const e of environments) {
    if (e !== 'production' && e !== 'sandbox') throw new ConfigError(`ENVIRONMENTS must list production and/or sandbox, received "${e}"`);
  }
  return environments as EnvironmentName[];
}

/** FAMILIES, by default both. */
function familiesFrom(env: NodeJS.ProcessEnv): Family[] {
  const families = (env.FAMILIES ? env.FAMILIES.split(',').map((s) => s.trim()) : ['reseller', 'vendor']) as Family[];
  for (const f of families)
    if (f !== 'reseller' && f !== 'vendor') throw new ConfigError(`FAMILIES must list reseller and/or vendor, received "${f}"`);
  return families;
}

type AppCredentials = Pick<HarnessConfig, 'credentials' | 'secondReseller'>;

/** The embedded mock's apps: the variables if set, else the mock's demo apps. */
function mockCredentialsFrom(env: NodeJS.ProcessEnv): AppCredentials {
  return {
    credentials: {
      reseller: {
        clientId: env.RESELLER_CLIENT_ID ?? 'demo-reseller',
        clientSecret: env.RESELLER_CLIENT_SECRET ?? 'demo-reseller-secret',
      },
      vendor: {
        clientId: env.VENDOR_CLIENT_ID ?? 'demo-vendor',
        clientSecret: env.VENDOR_CLIENT_SECRET ?? 'demo-vendor-secret',
      },
    },
    secondReseller: {
      clientId: env.RESELLER_B_CLIENT_ID ?? 'demo-reseller-b',
      clientSecret: env.RESELLER_B_CLIENT_SECRET ?? 'demo-reseller-b-secret',
    },
  };
}

/** A deployment's apps: every family's pair is required; the second reseller app is optional. */
function deploymentCredentialsFrom(env: NodeJS.ProcessEnv, targetName: string, families: Family[]): AppCredentials {
  const { found, missing } = appCredentialsFrom(env, families);
  if (missing.length) {
    throw new ConfigError(
      `TARGET=${targetName} needs ${missing.join(' and ')} (see .env.example); ` +
        `to certify one family only, set FAMILIES=${families.length === 2 ? 'reseller' : families[0]}`,
    );
  }
  const secondReseller =
    env.RESELLER_B_CLIENT_ID && env.RESELLER_B_CLIENT_SECRET
      ? { clientId: env.RESELLER_B_CLIENT_ID, clientSecret: env.RESELLER_B_CLIENT_SECRET }
      : undefined;
  return { credentials: { ...found }, secondReseller };
}

/** An app the embedded mock lets obtain tokens (MOCK_APPS): the shape of the mock's `apps` option. */
interface ConfiguredApp {
  clientId: string;
  clientSecret: string;
  family: Family;
  webhookSecret?: string;
}

const MOCK_APPS_SHAPE = 'MOCK_APPS must be a JSON array of {"clientId","clientSecret","family":"reseller"|"vendor"[,"webhookSecret"]}';

/** One entry of MOCK_APPS, checked; the error names the entry and what is wrong, never a secret. */
function configuredApp(entry: unknown, i: number): ConfiguredApp {
  const e = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
  const text = (k: string) => typeof e[k] === 'string' && (e[k] as string).length > 0;
  const wrong = [
    ...['clientId', 'clientSecret'].filter((k) => !text(k)).map((k) => `${k} is not a non-empty string`),
    ...(e.family === 'reseller' || e.family === 'vendor' ? [] : [`family is ${JSON.stringify(e.family)}`]),
    ...(e.webhookSecret === undefined || text('webhookSecret') ? [] : ['webhookSecret is not a non-empty string']),
  ];
  if (wrong.length) throw new ConfigError(`${MOCK_APPS_SHAPE}; entry ${i}: ${wrong.join(', ')}`);
  const app: ConfiguredApp = { clientId: e.clientId as string, clientSecret: e.clientSecret as string, family: e.family as Family };
  return e.webhookSecret === undefined ? app : { ...app, webhookSecret: e.webhookSecret as string };
}

/** MOCK_APPS, parsed and checked: a JSON array of apps. */
function mockAppsFrom(env: NodeJS.ProcessEnv): ConfiguredApp[] | undefined {
  if (!env.MOCK_APPS) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(env.MOCK_APPS);
  } catch {
    throw new ConfigError(`${MOCK_APPS_SHAPE}; received text that is not JSON`);
  }
  if (!Array.isArray(parsed) || parsed.length === 0) throw new ConfigError(`${MOCK_APPS_SHAPE}; received no array of apps`);
  return parsed.map(configuredApp);
}

/** The embedded mock's settings (MOCK_WINDOW_MS, MOCK_DRIFT, MOCK_SEED, MOCK_REQUESTS) with its apps. */
function mockSettingsFrom(env: NodeJS.ProcessEnv, apps: ConfiguredApp[] | undefined): HarnessConfig['mock'] {
  return {
    windowMs: num(env, 'MOCK_WINDOW_MS', DEFAULTS.mockWindowMs),
    drift: (env.MOCK_DRIFT ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    apps,
    seed: num(env, 'MOCK_SEED', 1),
    requests: env.MOCK_REQUESTS ?? '',
  };
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
    vendorOperations: env.VENDOR_OPERATIONS ? parseVendorOperations(env.VENDOR_OPERATIONS) : [...DEFAULT_VENDOR_OPERATIONS],
    requestBudget: kind === 'mock' && !env.REQUEST_BUDGET ? Infinity : num(env, 'REQUEST_BUDGET', DEFAULTS.requestBudget),
    probeLimits: kind === 'mock' || flag(env, 'PROBE_LIMITS'),
    allowWrites: kind !== 'production' || flag(env, 'ALLOW_PRODUCTION_WRITES'),
    webhookReceiverUrl: env.WEBHOOK_RECEIVER_URL || undefined,
    webhookSecret: webhookSecretFrom(env, kind === 'mock' ? credentials.reseller?.clientId : undefined),
    policyFile: env.POLICY || undefined,
    ...httpLimitsFrom(env),
    max429WaitMs: num(env, 'MAX_429_WAIT_MS', DEFAULTS.max429WaitMs),
    knownIds: knownIdsFrom(env),
    mock: mockSettingsFrom(env, mockApps),
  };
}

/**
 * The configuration files (POLICY against its JSON Schema, OPENAPI as an OpenAPI 3 document), checked
 * before any request. Throws ConfigError. Loaded on demand: a run without them does not load their parsers.
 */
export async function checkConfigFiles(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (!env.POLICY && !env.OPENAPI) return;
  const { readPolicy, checkOpenApiFile } = await import('./config-files');
  readPolicy(env.POLICY || undefined);
  if (env.OPENAPI) await checkOpenApiFile(env.OPENAPI);
}

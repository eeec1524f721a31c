/** The embedded mock's configuration from the environment, its apps (MOCK_APPS) checked. */
import type { Family, MockApp } from '../catalogue';
import { ConfigError } from './config-error';
import { DEFAULTS, envNumber } from './values';
import type { HarnessConfig } from './harness-config';

const MOCK_APPS_SHAPE = 'MOCK_APPS must be a JSON array of {"clientId","clientSecret","family":"reseller"|"vendor"[,"webhookSecret"]}';

/** One entry of MOCK_APPS, checked; the error names the entry and what is wrong, never a secret. */
function configuredApp(entry: unknown, i: number): MockApp {
  const e = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
  const text = (k: string) => typeof e[k] === 'string' && (e[k] as string).length > 0;
  const wrong = [
    ...['clientId', 'clientSecret'].filter((k) => !text(k)).map((k) => `${k} is not a non-empty string`),
    ...(e.family === 'reseller' || e.family === 'vendor' ? [] : [`family is ${JSON.stringify(e.family)}`]),
    ...(e.webhookSecret === undefined || text('webhookSecret') ? [] : ['webhookSecret is not a non-empty string']),
  ];
  if (wrong.length) throw new ConfigError(`${MOCK_APPS_SHAPE}; entry ${i}: ${wrong.join(', ')}`);
  const app: MockApp = { clientId: e.clientId as string, clientSecret: e.clientSecret as string, family: e.family as Family };
  return e.webhookSecret === undefined ? app : { ...app, webhookSecret: e.webhookSecret as string };
}

/** MOCK_APPS, parsed and checked: a JSON array of apps. */
export function mockAppsFrom(env: NodeJS.ProcessEnv): MockApp[] | undefined {
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

/** The embedded mock's configuration (MOCK_WINDOW_MS, MOCK_DRIFT, MOCK_SEED, MOCK_REQUESTS) with its apps. */
export function mockConfigFrom(env: NodeJS.ProcessEnv, apps: MockApp[] | undefined): HarnessConfig['mock'] {
  return {
    windowMs: envNumber(env, 'MOCK_WINDOW_MS', DEFAULTS.mockWindowMs),
    drift: (env.MOCK_DRIFT ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    apps,
    seed: envNumber(env, 'MOCK_SEED', 1),
    requests: env.MOCK_REQUESTS ?? '',
  };
}

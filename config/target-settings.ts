/** What is certified: TARGET and its base URL, ENVIRONMENTS, FAMILIES, and the target's known ids (KNOWN_IDS). */
import type { EnvironmentName, Family, IdName } from '../catalogue';
import { ConfigError } from './config-error';
import { setting, type Env } from './settings';
import type { TargetKind } from './harness-config';

/** TARGET as a kind and a base URL (trailing slashes dropped); production needs ALLOW_PRODUCTION. */
export function targetFrom(env: Env): { target: string; kind: TargetKind; baseUrl: string | undefined } {
  const target = setting(env, 'TARGET');
  let kind: TargetKind;
  let baseUrl: string | undefined;
  if (target === 'mock') kind = 'mock';
  else if (target === 'sandbox' || target === 'production') {
    kind = target;
    baseUrl = setting(env, 'BASE_URL');
    if (!baseUrl) {
      throw new ConfigError(
        `TARGET=${target} needs BASE_URL, the {base_url} of the deployment (scheme, host, port), e.g. BASE_URL=https://api.example.com`,
      );
    }
  } else {
    kind = 'url';
    baseUrl = target;
  }
  if (baseUrl) baseUrl = checkedBaseUrl(baseUrl);
  if (kind === 'production' && !setting(env, 'ALLOW_PRODUCTION')) {
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
export function environmentsFrom(env: Env, kind: TargetKind): EnvironmentName[] {
  const defaultEnvs: EnvironmentName[] =
    kind === 'sandbox' ? ['sandbox'] : kind === 'production' ? ['production'] : ['production', 'sandbox'];
  return setting(env, 'ENVIRONMENTS') ?? defaultEnvs;
}

/** FAMILIES, by default both. */
export function familiesFrom(env: Env): Family[] {
  return setting(env, 'FAMILIES') ?? ['reseller', 'vendor'];
}

/** KNOWN_IDS: a JSON object of id names to values, or the path of a JSON file holding one. */
export function knownIdsFrom(env: Env): Partial<Record<IdName, string>> {
  return setting(env, 'KNOWN_IDS');
}

/** What is certified: TARGET and its base URL, ENVIRONMENTS, FAMILIES, and the target's known ids (KNOWN_IDS). */
import { readFileSync } from 'node:fs';
import { idSources, type EnvironmentName, type Family, type IdName } from '../catalogue';
import { ConfigError } from './config-error';
import { envFlag } from './values';
import type { TargetKind } from './harness-config';

/** TARGET as a kind and a base URL (trailing slashes dropped); production needs ALLOW_PRODUCTION. */
export function targetFrom(env: NodeJS.ProcessEnv): { target: string; kind: TargetKind; baseUrl: string | undefined } {
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
  if (kind === 'production' && !envFlag(env, 'ALLOW_PRODUCTION')) {
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
export function environmentsFrom(env: NodeJS.ProcessEnv, kind: TargetKind): EnvironmentName[] {
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
export function familiesFrom(env: NodeJS.ProcessEnv): Family[] {
  const families = (env.FAMILIES ? env.FAMILIES.split(',').map((s) => s.trim()) : ['reseller', 'vendor']) as Family[];
  for (const f of families)
    if (f !== 'reseller' && f !== 'vendor') throw new ConfigError(`FAMILIES must list reseller and/or vendor, received "${f}"`);
  return families;
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

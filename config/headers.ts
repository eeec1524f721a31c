/** The request headers from the environment: the published IM-* headers, and extra headers (HEADERS_PROFILE, EXTRA_HEADERS). */
import { IM_HEADER_VARIABLES } from './setting-parsers';
import { setting, type Env } from './settings';

export { IM_HEADER_VARIABLES };

const IM_NAMES = Object.keys(IM_HEADER_VARIABLES) as (keyof typeof IM_HEADER_VARIABLES)[];

/** The IM-* request headers from the environment, by header name (the mock's values for unset ones). */
export function imHeadersFrom(env: Env): Record<string, string> {
  return Object.fromEntries(IM_NAMES.map((name) => [IM_HEADER_VARIABLES[name].header, setting(env, name)]));
}

/** The IM-* variables left unset (their headers carry the mock's values), in declaration order. */
export function imHeaderDefaultsUsed(env: Env): string[] {
  return IM_NAMES.filter((name) => !(env[name] ?? '').trim());
}

/** The extra headers: HEADERS_PROFILE's, then EXTRA_HEADERS' over them. */
export function headersFrom(env: Env): Record<string, string> {
  return { ...setting(env, 'HEADERS_PROFILE'), ...setting(env, 'EXTRA_HEADERS') };
}

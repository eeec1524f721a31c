/** The request headers from the environment: the published IM-* headers, and extra headers (HEADERS_PROFILE, EXTRA_HEADERS). */
import { readFileSync } from 'node:fs';
import { headerCheck, IM_HEADER_CONSTRAINTS, IM_HEADERS } from '../catalogue';
import { ConfigError } from './config-error';

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
export function headersFrom(env: NodeJS.ProcessEnv): Record<string, string> {
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

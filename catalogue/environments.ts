import type { Family } from './operations';

export type EnvironmentName = 'production' | 'sandbox';
export const ENVIRONMENTS: readonly EnvironmentName[] = ['production', 'sandbox'];

/** Prefix of the environment root relative to {base_url}: tokens live at root + token path. */
export const environmentRoot: Readonly<Record<EnvironmentName, string>> = {
  production: '',
  sandbox: '/sandbox',
};

/**
 * Base of each family's operation paths, relative to {base_url}.
 * Reseller paths already start with /resellers/..., so the reseller base is the environment root.
 * Vendor paths are relative to /vendors/v1.
 */
export function familyBase(family: Family, env: EnvironmentName): string {
  const root = environmentRoot[env];
  return family === 'reseller' ? root : `${root}/vendors/v1`;
}

/**
 * The spec's Environments table gives the vendor sandbox base as {base_url}/sandbox, while the
 * vendor production base is {base_url}/vendors/v1 and the versioning section says the sandbox only
 * adds the /sandbox prefix. Both readings are kept as data so the harness can probe which one a
 * target serves; `familyBase` follows the prefix rule.
 */
export const vendorSandboxBaseStatements = {
  prefixRule: { base: '/sandbox/vendors/v1', statement: 'Versioning 2: the sandbox adds the prefix /sandbox to the same paths' },
  tableLiteral: { base: '/sandbox', statement: 'Environments table: Vendor sandbox base is {base_url}/sandbox' },
} as const;

/** Fills `{param}` placeholders of a path template; values are URI-encoded. */
export function fillPath(template: string, params: Readonly<Record<string, string>>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`path ${template} needs parameter ${name}`);
    return encodeURIComponent(v);
  });
}

/** The apps the harness takes tokens for: a deployment's from the variables, the embedded mock's demo apps, and the webhook secret. */
import { DEMO_RESELLER, DEMO_RESELLER_B, DEMO_VENDOR, demoWebhookSecret, type Family } from '../catalogue';
import { ConfigError } from './config-error';
import type { HarnessConfig } from './harness-config';
import type { Credentials } from '../clients/token-core';
import { setting, type Env } from './settings';

/** A family's app variables: `RESELLER_CLIENT_ID` and `RESELLER_CLIENT_SECRET`. */
const variablesOf = (f: Family) => {
  const prefix = f.toUpperCase() as Uppercase<Family>;
  return { id: `${prefix}_CLIENT_ID`, secret: `${prefix}_CLIENT_SECRET` } as const;
};

/** The apps of a deployment: `<FAMILY>_CLIENT_ID` and `_CLIENT_SECRET` of each family, and the variables left unset. */
export function appCredentialsFrom(
  env: Env,
  families: readonly Family[],
): { found: Partial<Record<Family, Credentials>>; missing: string[] } {
  const found: Partial<Record<Family, Credentials>> = {};
  const missing: string[] = [];
  for (const f of families) {
    const names = variablesOf(f);
    const id = setting(env, names.id);
    const secret = setting(env, names.secret);
    if (!id) missing.push(names.id);
    if (!secret) missing.push(names.secret);
    if (id && secret) found[f] = { clientId: id, clientSecret: secret };
  }
  return { found, missing };
}
type AppCredentials = Pick<HarnessConfig, 'credentials' | 'secondReseller'>;

/** The embedded mock's apps: the variables if set, else the mock's demo apps. */
export function mockCredentialsFrom(env: Env): AppCredentials {
  return {
    credentials: {
      reseller: {
        clientId: setting(env, 'RESELLER_CLIENT_ID') ?? DEMO_RESELLER.clientId,
        clientSecret: setting(env, 'RESELLER_CLIENT_SECRET') ?? DEMO_RESELLER.clientSecret,
      },
      vendor: {
        clientId: setting(env, 'VENDOR_CLIENT_ID') ?? DEMO_VENDOR.clientId,
        clientSecret: setting(env, 'VENDOR_CLIENT_SECRET') ?? DEMO_VENDOR.clientSecret,
      },
    },
    secondReseller: {
      clientId: setting(env, 'RESELLER_B_CLIENT_ID') ?? DEMO_RESELLER_B.clientId,
      clientSecret: setting(env, 'RESELLER_B_CLIENT_SECRET') ?? DEMO_RESELLER_B.clientSecret,
    },
  };
}

/** A deployment's apps: every family's pair is required; the second reseller app is optional. */
export function deploymentCredentialsFrom(env: Env, targetName: string, families: Family[]): AppCredentials {
  const { found, missing } = appCredentialsFrom(env, families);
  if (missing.length) {
    throw new ConfigError(
      `TARGET=${targetName} needs ${missing.join(' and ')} (see .env.example); ` +
        `to certify one family only, set FAMILIES=${families.length === 2 ? 'reseller' : families[0]}`,
    );
  }
  const [clientId, clientSecret] = [setting(env, 'RESELLER_B_CLIENT_ID'), setting(env, 'RESELLER_B_CLIENT_SECRET')];
  const secondReseller = clientId && clientSecret ? { clientId, clientSecret } : undefined;
  return { credentials: { ...found }, secondReseller };
}
/**
 * The secret that signs webhook calls (x-hub-signature): WEBHOOK_SECRET, else on the embedded mock the
 * mock's rule for the reseller app (`<client id>-webhook-secret`); undefined for a deployment without it.
 */
export function webhookSecretFrom(env: Env, mockResellerId: string | undefined): string | undefined {
  const secret = setting(env, 'WEBHOOK_SECRET');
  if (secret) return secret;
  return mockResellerId === undefined ? undefined : demoWebhookSecret(mockResellerId);
}

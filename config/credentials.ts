/** The apps the harness takes tokens for: a deployment's from the variables, the embedded mock's demo apps, and the webhook secret. */
import { DEMO_RESELLER, DEMO_RESELLER_B, DEMO_VENDOR, demoWebhookSecret, type Family } from '../catalogue';
import { ConfigError } from './config-error';
import type { HarnessConfig } from './harness-config';
import type { Credentials } from '../clients/token-core';

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
type AppCredentials = Pick<HarnessConfig, 'credentials' | 'secondReseller'>;

/** The embedded mock's apps: the variables if set, else the mock's demo apps. */
export function mockCredentialsFrom(env: NodeJS.ProcessEnv): AppCredentials {
  return {
    credentials: {
      reseller: {
        clientId: env.RESELLER_CLIENT_ID ?? DEMO_RESELLER.clientId,
        clientSecret: env.RESELLER_CLIENT_SECRET ?? DEMO_RESELLER.clientSecret,
      },
      vendor: {
        clientId: env.VENDOR_CLIENT_ID ?? DEMO_VENDOR.clientId,
        clientSecret: env.VENDOR_CLIENT_SECRET ?? DEMO_VENDOR.clientSecret,
      },
    },
    secondReseller: {
      clientId: env.RESELLER_B_CLIENT_ID ?? DEMO_RESELLER_B.clientId,
      clientSecret: env.RESELLER_B_CLIENT_SECRET ?? DEMO_RESELLER_B.clientSecret,
    },
  };
}

/** A deployment's apps: every family's pair is required; the second reseller app is optional. */
export function deploymentCredentialsFrom(env: NodeJS.ProcessEnv, targetName: string, families: Family[]): AppCredentials {
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
/**
 * The secret that signs webhook calls (x-hub-signature): WEBHOOK_SECRET, else on the embedded mock the
 * mock's rule for the reseller app (`<client id>-webhook-secret`); undefined for a deployment without it.
 */
export function webhookSecretFrom(env: NodeJS.ProcessEnv, mockResellerId: string | undefined): string | undefined {
  if (env.WEBHOOK_SECRET) return env.WEBHOOK_SECRET;
  return mockResellerId === undefined ? undefined : demoWebhookSecret(mockResellerId);
}

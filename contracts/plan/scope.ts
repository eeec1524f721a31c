/**
 * The run's scope: each reason a check is left out by what the user chose or did not give, with the setting
 * that brings it in, and the one reason a check cannot apply to a target (it needs the embedded mock's clock).
 * Decided from the configuration when the check is declared, so the request plan (request-request-plan.ts) counts only what
 * the run will send; a check out of scope is listed, never failed, and leaves the exit code alone.
 */
import type { EnvironmentName, Family } from '../../catalogue';
import type { HarnessConfig } from '../../config/harness-config';
import type { OutOfScope } from '../record/annotations';

type Scope = OutOfScope | undefined;

/** A check that changes state: production runs read-only operations only. */
export function writesScope(cfg: HarnessConfig, what: string): Scope {
  if (cfg.allowWrites) return undefined;
  return { reason: `${what} changes state; production runs read-only operations only`, bringsIn: 'ALLOW_PRODUCTION_WRITES=1' };
}

/** A check that spends a bucket to its 429 (a window of the app's quota). */
export function probeLimitsScope(cfg: HarnessConfig): Scope {
  if (cfg.probeLimits) return undefined;
  return { reason: 'exhaustion spends the app quota for a window', bringsIn: 'PROBE_LIMITS=1' };
}

/** A check that spends a write operation's bucket to its 429: as many writes as its limit. */
export function probeWriteLimitsScope(cfg: HarnessConfig): Scope {
  if (cfg.probeWriteLimits) return undefined;
  return {
    reason: "spending a write operation's bucket creates or changes as many resources as its limit",
    bringsIn: 'PROBE_WRITE_LIMITS=1',
  };
}

/** A check that needs a family. */
export function familyScope(cfg: HarnessConfig, family: Family, why: string): Scope {
  if (cfg.families.includes(family)) return undefined;
  return { reason: `${why}; FAMILIES excludes ${family}`, bringsIn: `FAMILIES including ${family}` };
}

/** A check that needs an environment. */
export function environmentScope(cfg: HarnessConfig, env: EnvironmentName, why: string): Scope {
  if (cfg.environments.includes(env)) return undefined;
  return { reason: `${why}; ENVIRONMENTS excludes ${env}`, bringsIn: `ENVIRONMENTS including ${env}` };
}

/** A check that needs the app of a family. */
export function credentialsScope(cfg: HarnessConfig, family: Family, why: string): Scope {
  if (cfg.credentials[family]) return undefined;
  const prefix = family.toUpperCase();
  return { reason: `${why}: no ${family} app is configured`, bringsIn: `${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET` };
}

/** A check that needs a second reseller app. */
export function secondAppScope(cfg: HarnessConfig): Scope {
  if (cfg.secondReseller) return undefined;
  return { reason: 'needs a second reseller app', bringsIn: 'RESELLER_B_CLIENT_ID and RESELLER_B_CLIENT_SECRET' };
}

/** A webhook call: signed with the app's webhook secret. */
export function webhookSecretScope(cfg: HarnessConfig): Scope {
  if (cfg.webhookSecret) return undefined;
  return { reason: "a webhook call is signed with the app's webhook secret", bringsIn: 'WEBHOOK_SECRET (see .env.example)' };
}

/** A check of the push to a webhook receiver the target can reach. */
export function webhookReceiverScope(cfg: HarnessConfig): Scope {
  if (cfg.webhookReceiverUrl || cfg.kind === 'mock') return undefined;
  return { reason: 'the push needs a receiver the target can reach', bringsIn: 'WEBHOOK_RECEIVER_URL' };
}

/** A check of operations the run does not certify (FAMILIES, VENDOR_OPERATIONS). */
export function selectedScope(missing: readonly string[]): Scope {
  if (!missing.length) return undefined;
  return {
    reason: `${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not selected`,
    bringsIn: 'FAMILIES (or VENDOR_OPERATIONS) selecting them',
  };
}

/** The first reason a check is out of scope, if any. */
export function firstScope(...scopes: Scope[]): Scope {
  return scopes.find((s) => s !== undefined);
}

/** A check that moves the embedded mock's clock: it cannot apply to another target. */
export function mockClockApplies(cfg: HarnessConfig, why: string): string | undefined {
  return cfg.kind === 'mock' ? undefined : `needs the embedded mock's clock to ${why}`;
}

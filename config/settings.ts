/**
 * Every environment variable the harness reads, defined once (settings-harness.ts, settings-tools.ts): its kind
 * (type, constraint, default, and the zod schema that parses it, setting-kinds.ts), a one-line description, and
 * whether it is a secret. The configuration's readers take each value through `setting`, whose refusals are the
 * start-up errors; `.env.example` and docs/configuration.md are generated from these definitions
 * (`npm run settings:docs`, config/settings-reference.ts), and tests/config/settings.spec.ts fails when the code reads a
 * variable they do not define, a definition loses its description, or a generated file is stale.
 */
import { registerSecret } from '../clients/redact';
import { ConfigError } from './config-error';
import type { Setting } from './setting-kinds';
import { DEFAULTS, HARNESS_SETTINGS } from './settings-harness';
import { TOOL_SETTINGS } from './settings-tools';

export { DEFAULTS };
export { SETTING_GROUPS, type Setting, type SettingGroup } from './setting-kinds';

/** Every variable: the harness's (settings-harness.ts), then the tools', the tests' and the harness's own processes' (settings-tools.ts). */
export const SETTINGS = { ...HARNESS_SETTINGS, ...TOOL_SETTINGS } satisfies Record<string, Setting<unknown>>;

export type SettingName = keyof typeof SETTINGS;
/** A setting's typed value. */
export type SettingValue<N extends SettingName> = (typeof SETTINGS)[N] extends Setting<infer T> ? T : never;

/** An environment: the process's, or one a test or a command builds. */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * A setting's value from `env`, parsed by its schema. A secret's text is registered for redaction as it is read, so
 * no output shows it. A value its schema refuses is a ConfigError saying what the variable must be, what it received
 * (never a secret's value) and where the reference is.
 */
export function setting<N extends SettingName>(env: Env, name: N): SettingValue<N> {
  const s: Setting<unknown> = SETTINGS[name];
  if (s.secret) registerSecret(env[name]);
  const parsed = s.schema.safeParse(env[name]);
  if (parsed.success) return parsed.data as SettingValue<N>;
  const issue = parsed.error.issues[0];
  throw new ConfigError(
    refusalText(
      name,
      s,
      issue?.message ?? `must be ${s.constraint}`,
      (issue as { params?: { received?: string } } | undefined)?.params?.received,
    ),
  );
}

/** A refusal's text: "<NAME> <why>, received "<value>"" (a secret's value withheld), with where to read more. */
export function refusalText(name: string, s: Pick<Setting<unknown>, 'secret'>, why: string, received: string | undefined): string {
  const said = why.startsWith(`${name} `) ? why : `${name} ${why}`;
  const value = received === undefined ? '' : s.secret ? ', received a value that is not shown (a secret)' : `, received "${received}"`;
  const more = /\bsee\b/.test(said) ? '' : ` (see ${name} in docs/configuration.md)`;
  return `${said}${value}${more}`;
}

/**
 * The kinds of value a setting holds (number, flag, list, text, …): each is a zod schema from the variable's text
 * to its typed value, with the words the reference and the start-up errors use for it: its type, its constraint
 * and its default. A refusal's message completes "<NAME> …" (config/settings.ts adds the name); the value it
 * received is kept apart, so that a secret's is never shown.
 */
import { z } from 'zod';

/** What a setting holds, as its schema parses it and as the reference describes it. */
export interface Kind<T> {
  /** The value's type as the reference names it: number, flag, list, text, path, URL, JSON. */
  type: string;
  /** What a value must be, in words: "a non-negative number". */
  constraint: string;
  /** The default as the reference prints it; empty: none. */
  default: string;
  /** From the variable's text (undefined when unset) to its typed value. */
  schema: z.ZodType<T, string | undefined>;
}

/** Why a value is refused: the message completing "<NAME> …" and, apart, the value received (never shown for a secret). */
export class Refused extends Error {
  constructor(
    message: string,
    readonly received?: string,
  ) {
    super(message);
  }
}

/** A parse of a set variable's text into its value; it throws Refused (through `refuse`) for a value it does not take. */
export type Parse<T> = (text: string) => T;

/** Refuses a value: `message` completes "<NAME> …"; `received` is the value, or the part of it, that breaks the rule. */
export function refuse(message: string, received?: string): never {
  throw new Refused(message, received);
}

/** How a kind is built: its words for the reference and its value when unset (an empty value is unset too). */
interface KindOptions<D> {
  type: string;
  constraint: string;
  /** The value when unset. */
  fallback: D;
  /** The default as printed; by default `fallback` as text, or nothing when it is undefined. */
  defaultText?: string;
}

/** A kind from a parse of the variable's text. */
export function kind<T, D = undefined>(parse: Parse<T>, o: KindOptions<D>): Kind<T | D> {
  const schema = z
    .string()
    .optional()
    .transform((v, ctx): T | D => {
      // A copy: a caller that changes its list or object changes no other caller's.
      if (v === undefined || v === '') return structuredClone(o.fallback);
      try {
        return parse(v);
      } catch (e) {
        if (!(e instanceof Refused)) throw e;
        ctx.addIssue({ code: 'custom', message: e.message, params: e.received === undefined ? {} : { received: e.received } });
        return z.NEVER;
      }
    });
  const defaultText = o.defaultText ?? (o.fallback === undefined ? '' : String(o.fallback));
  return { type: o.type, constraint: o.constraint, default: defaultText, schema };
}

/** A parse through a zod schema: its value, or the refusal `must be <constraint>` with the text received. */
function through<T>(schema: z.ZodType<T>, constraint: string): Parse<T> {
  return (v) => {
    const r = schema.safeParse(v.trim() === '' ? undefined : v);
    if (!r.success) refuse(`must be ${constraint}`, v);
    return r.data;
  };
}

const NON_NEGATIVE = 'a non-negative number';

/** A number of at least 0; `fallback` when unset or empty. */
export function nonNegative(fallback: number, defaultText?: string): Kind<number> {
  return kind(through(z.coerce.number().finite().min(0), NON_NEGATIVE), {
    type: 'number',
    constraint: NON_NEGATIVE,
    fallback,
    defaultText,
  });
}

/** A number of at least 0, or undefined when unset: what applies then is `defaultText`. */
export function optionalNonNegative(defaultText: string): Kind<number | undefined> {
  return kind(through(z.coerce.number().finite().min(0), NON_NEGATIVE), {
    type: 'number',
    constraint: NON_NEGATIVE,
    fallback: undefined,
    defaultText,
  });
}

/** A whole number from `min`, or undefined when unset: what applies then is `defaultText`. */
export function optionalWholeFrom(min: number, defaultText: string): Kind<number | undefined> {
  const constraint = `a whole number from ${min}`;
  return kind(through(z.coerce.number().int().min(min), constraint), {
    type: 'whole number',
    constraint,
    fallback: undefined,
    defaultText,
  });
}

/** A flag: on for 1, true or yes (any case); off for anything else and when unset. */
export function flag(defaultText = 'off'): Kind<boolean> {
  return kind((v) => ['1', 'true', 'yes'].includes(v.toLowerCase()), {
    type: 'flag',
    constraint: '1, true or yes (any case) turn it on; anything else is off',
    fallback: false,
    defaultText,
  });
}

/** Text taken as given, or undefined when unset or empty: what applies then is `defaultText`. */
export function text(type: string, constraint: string, defaultText = ''): Kind<string | undefined> {
  return kind((v) => v, { type, constraint, fallback: undefined, defaultText });
}

/** A path, taken as given, or undefined when unset or empty: what applies then is `defaultText`. */
export function path(constraint: string, defaultText = ''): Kind<string | undefined> {
  return text('path', constraint, defaultText);
}

/** Text taken as given, `fallback` when unset or empty. */
export function textOr(fallback: string, type: string, constraint: string): Kind<string> {
  return kind((v) => v, { type, constraint, fallback });
}

/** A comma-separated list's items, trimmed, empty ones dropped. */
function items(v: string): string[] {
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A comma-separated list of some of `valid`, or undefined when unset: what applies then is `defaultText`. */
export function listOf<T extends string>(valid: readonly [T, ...T[]], defaultText: string): Kind<T[] | undefined> {
  const item = z.enum(valid);
  const listed = valid.join(' and/or ');
  return kind(
    (v) => {
      const list = items(v);
      const wrong = list.length ? list.find((i) => !item.safeParse(i).success) : v;
      if (wrong !== undefined) refuse(`must list ${listed}`, wrong);
      return list as T[];
    },
    { type: 'list', constraint: `a comma-separated list of ${listed}`, fallback: undefined, defaultText },
  );
}

/** A comma-separated list of items checked where they are used (`constraint` says where); empty when unset. */
export function listOfText(constraint: string): Kind<string[]> {
  return kind(items, { type: 'list', constraint, fallback: [] as string[], defaultText: 'none' });
}

/** The sections of `.env.example` and of the reference, in order; `internal` is documented but not in `.env.example`. */
export type SettingGroup = 'target' | 'apps' | 'headers' | 'run' | 'limits' | 'inputs' | 'mock' | 'load' | 'tests' | 'internal';

/** Each section's title, and what holds for all of its settings. */
export const SETTING_GROUPS: Readonly<Record<SettingGroup, { title: string; about?: string }>> = {
  target: { title: 'What is certified' },
  apps: {
    title: 'The apps the harness takes tokens for',
    about: "A deployment needs each certified family's pair; the embedded mock uses its demo apps for the variables left unset.",
  },
  headers: {
    title: 'Request headers and vendor operations',
    about:
      "The IM-* values are checked at start-up against the published document's constraints; a fresh IM-CorrelationID (32 " +
      'hexadecimal characters: a UUID without dashes, the longest the document allows) goes with every request and is shown ' +
      "in failure evidence and the report, to quote to the distributor's support.",
  },
  run: {
    title: "The run's scope, safety and request budget",
    about:
      "Checks out of the run's scope (ENVIRONMENTS, FAMILIES, PROBE_LIMITS, credentials, WEBHOOK_SECRET, production writes) " +
      'are listed with what brings them in and leave the exit code 0.',
  },
  limits: { title: 'Waits and sizes' },
  inputs: {
    title: 'Webhooks, policy, OpenAPI document, reports',
    about:
      "Each webhook call's x-hub-signature is an HMAC-SHA512, base64, over the event id. A request meant to be valid that " +
      'the OPENAPI document refuses is reported as a harness defect and not sent. A POLICY or OPENAPI file that is missing ' +
      'or not what it must be ends the run with exit 2.',
  },
  mock: { title: 'The embedded mock (certify)', about: 'Read only when TARGET=mock.' },
  load: {
    title: 'Load probes (npm run load)',
    about: "npm run load's options are in the reference's Command-line options and in npm run load -- --help.",
  },
  tests: { title: "The harness's own tests (npm test)" },
  internal: { title: 'Set by the harness for its own processes', about: 'Not for users to set; listed here because the code reads them.' },
};

/** What the reference says of a setting besides its kind. */
interface SettingDoc {
  group: SettingGroup;
  /** One line: what the setting does. */
  description: string;
  /** Its value is never printed: not in errors, logs or reports. */
  secret?: true;
}

/** A setting: its kind and what the reference says of it. */
export type Setting<T> = Kind<T> & SettingDoc;

/** Marks a setting whose value is never printed. */
export const SECRET = 'secret';

/** The definer of a group's settings: `apps(kind, description)`, `apps(kind, description, SECRET)`. */
export const definer =
  (group: SettingGroup) =>
  <T>(kind: Kind<T>, description: string, secret?: typeof SECRET): Setting<T> => ({
    ...kind,
    group,
    description,
    ...(secret ? { secret: true as const } : {}),
  });

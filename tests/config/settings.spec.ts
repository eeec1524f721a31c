/**
 * Every environment variable is defined once, in config/settings.ts: the code reads no variable it does not define,
 * it defines none the code does not read, each definition describes its variable, and `.env.example` and
 * docs/configuration.md are what `npm run settings:docs` generates from it. The reads are found in the code
 * (process.env.X, env.X / env['X'] of an injected environment, `setting(env, 'X')`, k6's __ENV.X, a read through
 * a template such as env[`${family}_CLIENT_ID`] or through a constant holding the name).
 */
import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { SETTINGS, refusalText, setting, type Setting } from '../../config/settings';
import { GENERATED, staleFiles } from '../../config/settings-reference';
import { commandLines } from '../../scripts/command-lines';
import { ConfigError } from '../../config/config-error';
import { REDACTED, redact } from '../../clients/redact';
import { constraintOf, integer, listOf as cliListOf } from '../../config/cli-options';

const SKIP_DIRS = new Set(['node_modules', 'dist', 'reports', '.git']);
/** This file (its examples are not reads) and the definitions themselves. */
const NOT_SCANNED = new Set([join('tests', 'config', 'settings.spec.ts'), join('config', 'settings.ts')]);
const NAME = '([A-Z][A-Z0-9_]*)';
const READS = [
  new RegExp(`\\bprocess\\.env\\.${NAME}`, 'g'),
  new RegExp(`\\bprocess\\.env\\[['"\`]${NAME}['"\`]\\]`, 'g'),
  new RegExp(`(?<![.\\w])env\\.${NAME}`, 'g'),
  new RegExp(`(?<![.\\w])env\\[['"\`]${NAME}['"\`]\\]`, 'g'),
  new RegExp(`\\(\\s*env\\s*,\\s*['"\`]${NAME}['"\`]`, 'g'),
];
/** k6's __ENV in the harness's k6 scripts (the tests' own small scripts for the k6 double are not the harness). */
const K6_READS = [new RegExp(`(?<![.\\w])__ENV\\.${NAME}`, 'g'), new RegExp(`(?<![.\\w])__ENV\\[['"\`]${NAME}['"\`]\\]`, 'g')];
/** A read through a template literal (`${prefix}_CLIENT_ID`): the template, which some defined name must match. */
const TEMPLATE_READS = /(?<![.\w])(?:process\.env|env|__ENV)\[`([^`]*\$\{[^`]*)`\]/g;
/** A read through a constant (`process.env[RUN_DIR_ENV]`), and where constants are given names. */
const CONSTANT_READS = /(?<![.\w])(?:process\.env|env|__ENV)\[([A-Z][A-Z0-9_]*)\]/g;
const CONSTANTS = new RegExp(`\\bconst ([A-Z][A-Z0-9_]*)\\s*=\\s*['"]${NAME}['"]`, 'g');

const readsOf = (file: string) => (file.startsWith(`tests${sep}`) ? READS : [...READS, ...K6_READS]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (SKIP_DIRS.has(e.name)) return [];
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.(ts|mjs|js)$/.test(e.name) ? [p] : [];
  });
}

const SOURCES = sourceFiles('.')
  .filter((f) => !NOT_SCANNED.has(f))
  .map((file) => ({ file, text: readFileSync(file, 'utf8') }));

/** A template read as a pattern of names: `${f.toUpperCase()}_CLIENT_ID` matches RESELLER_CLIENT_ID. */
const templatePattern = (template: string) =>
  new RegExp(
    `^${template
      .split(/\$\{[^}]*\}/)
      .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
      .join('[A-Z0-9_]+')}$`,
  );

/** The variables the code reads, each with the first file reading it, and the reads no definition can match. */
function variablesRead(sources: { file: string; text: string }[], defined: readonly string[]) {
  const where = new Map<string, string>();
  const unmatched: string[] = [];
  const constants = new Map(sources.flatMap(({ text }) => [...text.matchAll(CONSTANTS)].map((m) => [m[1], m[2]] as [string, string])));
  const note = (name: string, file: string) => where.has(name) || where.set(name, file);
  for (const { file, text } of sources) {
    for (const re of readsOf(file)) for (const m of text.matchAll(re)) note(m[1] as string, file);
    for (const m of text.matchAll(CONSTANT_READS)) {
      const name = constants.get(m[1] as string);
      if (name) note(name, file);
      else unmatched.push(`${m[0]} (${file}): no constant names the variable`);
    }
    for (const m of text.matchAll(TEMPLATE_READS)) {
      const names = defined.filter((n) => templatePattern(m[1] as string).test(n));
      if (names.length) names.forEach((n) => note(n, file));
      else unmatched.push(`${m[0]} (${file}): no defined variable matches it`);
    }
  }
  return { where, unmatched };
}

/** What is wrong with a definition's words: each must be there, the description on one line. */
function undescribed(settings: Record<string, Setting<unknown>>): string[] {
  return Object.entries(settings).flatMap(([name, s]) =>
    (['description', 'type', 'constraint'] as const)
      .filter((k) => typeof s[k] !== 'string' || !s[k].trim() || /[\r\n]/.test(s[k]))
      .map((k) => `${name}: no one-line ${k}`),
  );
}

test.describe('settings', () => {
  test('should define every variable the code reads', () => {
    const defined = Object.keys(SETTINGS);
    const { where, unmatched } = variablesRead(SOURCES, defined);
    expect(where.size, 'the scan finds the configuration reads (config/ at least)').toBeGreaterThan(40);
    const missing = [...where.entries()].filter(([v]) => !defined.includes(v)).map(([v, file]) => `${v} (read in ${file})`);
    expect(missing, 'variables read by the code but not defined in config/settings.ts: define each').toEqual([]);
    expect(unmatched, 'reads whose variable the scan cannot name').toEqual([]);
  });

  test('should define no variable the code does not read', () => {
    const { where } = variablesRead(SOURCES, Object.keys(SETTINGS));
    // A variable read through a table of names (the IM-* headers) is not a direct read: its name in the code is enough.
    const code = SOURCES.filter((s) => !s.file.startsWith(`config${sep}settings`))
      .map((s) => s.text)
      .join('\n');
    const stale = Object.keys(SETTINGS).filter((v) => !where.has(v) && !new RegExp(`\\b${v}\\b`).test(code));
    expect(stale, 'variables defined in config/settings.ts that no code reads: remove them or read them').toEqual([]);
  });

  test('should describe every variable and option in one line, with its type and constraint', () => {
    expect(undescribed(SETTINGS)).toEqual([]);
    const options = commandLines().flatMap(({ name, program }) => program.options.map((o) => ({ name, o })));
    expect(options.filter(({ o }) => !o.description.trim()).map(({ name, o }) => `${name} ${o.flags}`)).toEqual([]);
    const { description: _, ...withoutDescription } = SETTINGS.REQUEST_TIMEOUT_MS;
    expect(
      undescribed({ REQUEST_TIMEOUT_MS: withoutDescription as Setting<unknown> }),
      'a definition without its description is found',
    ).toEqual(['REQUEST_TIMEOUT_MS: no one-line description']);
    expect(undescribed({ TARGET: { ...SETTINGS.TARGET, description: 'two\nlines' } })).toEqual(['TARGET: no one-line description']);
  });

  test('should keep .env.example and docs/configuration.md as npm run settings:docs generates them', async () => {
    expect(
      await staleFiles(commandLines()),
      `generated from config/settings.ts: run npm run settings:docs and commit ${Object.values(GENERATED).join(', ')}`,
    ).toEqual([]);
    const example = readFileSync(GENERATED.envExample, 'utf8');
    const reference = readFileSync(GENERATED.reference, 'utf8');
    for (const [name, s] of Object.entries(SETTINGS) as [string, Setting<unknown>][]) {
      if (s.group !== 'internal') expect(example, `${name} is in .env.example`).toMatch(new RegExp(`^${name}=$`, 'm'));
      expect(reference, `${name} is in the reference`).toContain(`\`${name}\``);
    }
    for (const { name, program } of commandLines()) {
      const section = reference.slice(reference.indexOf(`### ${name}\n`));
      for (const o of program.options) expect(section, `${name}'s ${o.flags} is in the reference`).toContain(`\`${o.flags}\``);
    }
  });

  test("should refuse a value with the words of its definition, never showing a secret's value", () => {
    const refusal = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        return (e as Error).message;
      }
      throw new Error('expected a refusal');
    };
    expect(refusal(() => setting({ MAX_BODY_BYTES: '-1' }, 'MAX_BODY_BYTES'))).toBe(
      `MAX_BODY_BYTES must be ${SETTINGS.MAX_BODY_BYTES.constraint}, received "-1" (see MAX_BODY_BYTES in docs/configuration.md)`,
    );
    expect(refusal(() => setting({ CERTIFY_CONCURRENCY: '1.5' }, 'CERTIFY_CONCURRENCY'))).toContain(
      `CERTIFY_CONCURRENCY must be ${SETTINGS.CERTIFY_CONCURRENCY.constraint}, received "1.5"`,
    );
    expect(refusal(() => setting({ FAMILIES: 'reseller,partner' }, 'FAMILIES'))).toContain(
      'FAMILIES must list reseller and/or vendor, received "partner"',
    );
    expect(
      refusal(() => setting({ TARGET: ' ' }, 'TARGET')),
      'a blank TARGET is refused, not taken for the mock',
    ).toContain('received ""');
    expect(setting({ TARGET: '' }, 'TARGET'), 'an empty TARGET, as .env.example gives it, is unset: the mock').toBe('mock');
    expect(refusalText('X_SECRET', { secret: true }, 'must be y', 'hunter2')).toBe(
      'X_SECRET must be y, received a value that is not shown (a secret) (see X_SECRET in docs/configuration.md)',
    );
    expect(refusalText('X', {}, 'must be y', 'hunter2')).toContain('received "hunter2"');
    expect(
      refusal(() => setting({ VENDOR_OPERATIONS: 'FOO' }, 'VENDOR_OPERATIONS')),
      'a start-up error, not a crash',
    ).toContain('VENDOR_OPERATIONS entry "FOO" is not "METHOD /path"');
    const secretApp = JSON.stringify([{ clientId: 'x', clientSecret: 'hunter2-secret', family: 'partner' }]);
    expect(refusal(() => setting({ MOCK_APPS: secretApp }, 'MOCK_APPS'))).not.toContain('hunter2-secret');
    expect(setting({ WEBHOOK_SECRET: 'whs-2f9c41' }, 'WEBHOOK_SECRET')).toBe('whs-2f9c41');
    expect(redact('signed with whs-2f9c41'), "a secret setting's value is masked in output once read").toBe(`signed with ${REDACTED}`);
    expect(setting({}, 'MAX_BODY_BYTES'), 'unset: the default').toBe(5 * 1024 * 1024);
    expect(setting({ MAX_BODY_BYTES: '' }, 'MAX_BODY_BYTES'), 'empty: the default').toBe(5 * 1024 * 1024);
    expect(setting({ REQUIRE_EVERY_CHECK: 'YES' }, 'REQUIRE_EVERY_CHECK')).toBe(true);
    expect(setting({ REQUIRE_EVERY_CHECK: '0' }, 'REQUIRE_EVERY_CHECK')).toBe(false);
  });

  test("should refuse an option's value with the constraint the reference prints", () => {
    const parse = integer('--budget', 1);
    expect(constraintOf(parse)).toBe('an integer of at least 1');
    expect(() => parse('0')).toThrow('--budget expects an integer of at least 1, received "0"');
    expect(() => cliListOf('--ops', ['a', 'b'])('c')).toThrow(
      `--ops expects ${constraintOf(cliListOf('--ops', ['a', 'b']))}; received unknown "c"`,
    );
  });

  test('should find a variable read in each of the forms the scan knows', () => {
    const text = [
      "const a = process.env.ONE; const b = process.env['TWO'];",
      "const c = env.THREE ?? env['FOUR']; const d = setting(env, 'FIVE'); const e = __ENV.SIX;",
      "const f = { ...process.env, NOT_A_READ: '1' }; const g = __ENV[`${prefix}_CLIENT_ID`];",
      "export const DIR_ENV = 'SEVEN'; const h = process.env[DIR_ENV]; const i = env[`${x}_NOTHING`];",
    ].join('\n');
    const { where, unmatched } = variablesRead(
      [{ file: join('load', 'scripts', 'x.ts'), text }],
      ['RESELLER_CLIENT_ID', 'VENDOR_CLIENT_ID'],
    );
    expect([...where.keys()].sort()).toEqual([
      'FIVE',
      'FOUR',
      'ONE',
      'RESELLER_CLIENT_ID',
      'SEVEN',
      'SIX',
      'THREE',
      'TWO',
      'VENDOR_CLIENT_ID',
    ]);
    expect(unmatched).toEqual([`env[\`\${x}_NOTHING\`] (${join('load', 'scripts', 'x.ts')}): no defined variable matches it`]);
  });
});

/**
 * `.env.example` and docs/configuration.md, generated from the settings' definitions (config/settings.ts) and,
 * for the reference's command-line options, from the command lines' definitions (commander) it is handed:
 * `npm run settings:docs` writes them, and tests/config/settings.spec.ts fails when either differs from what
 * this module generates. The reference page is formatted by Prettier, as `npm run check` expects every page.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { Argument, Command, Option } from 'commander';
import { constraintOf } from './cli-options';
import { SETTING_GROUPS, SETTINGS, type Setting, type SettingGroup } from './settings';

/** A command line the reference lists: its name and its definition, as its command builds it (commander). */
export interface CommandLine {
  name: string;
  program: Command;
}

/** The generated files, relative to the project's root. */
export const GENERATED = { envExample: '.env.example', reference: 'docs/configuration.md' } as const;

const SOURCE = 'config/settings-harness.ts and config/settings-tools.ts';
const COMMAND = 'npm run settings:docs';
const WIDTH = 118;

const entries = () => Object.entries(SETTINGS) as [string, Setting<unknown>][];
const inGroup = (group: SettingGroup) => entries().filter(([, s]) => s.group === group);
const groups = () => Object.keys(SETTING_GROUPS) as SettingGroup[];

/** Words wrapped into comment lines of at most WIDTH characters. */
function comment(text: string): string[] {
  const lines: string[] = [];
  let line = '#';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line.length + 1 + word.length > WIDTH && line !== '#') {
      lines.push(line);
      line = '#';
    }
    line += ` ${word}`;
  }
  return [...lines, line];
}

/** A setting as `.env.example` explains it: what it does, its type and constraint, its default, whether secret. */
function envEntry(name: string, s: Setting<unknown>): string[] {
  const secret = s.secret ? ' Secret: never printed.' : '';
  const def = s.default ? ` Default: ${s.default}.` : '';
  return [...comment(`${s.description} ${capital(s.type)}: ${s.constraint}.${def}${secret}`), `${name}=`];
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** `.env.example`: every variable for users to set, by section, empty (their defaults apply). */
export function envExample(): string {
  const sections = groups()
    .filter((g) => g !== 'internal')
    .map((g) => {
      const { title, about } = SETTING_GROUPS[g];
      return [`# --- ${title} ---`, ...(about ? comment(about) : []), ...inGroup(g).flatMap(([name, s]) => envEntry(name, s))].join('\n');
    });
  const head = [
    ...comment(`Every variable the harness reads, generated from ${SOURCE} by \`${COMMAND}\`: edit those, not this file.`),
    ...comment('Copy to .env (gitignored) or export them; none is needed for the embedded mock. Reference: docs/configuration.md.'),
  ];
  return `${[head.join('\n'), ...sections].join('\n\n')}\n`;
}

/** Text safe in a Markdown table cell. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/</g, '&lt;');

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-');

/** A section's table: one row per variable. */
function table(group: SettingGroup): string {
  const rows = inGroup(group).map(
    ([name, s]) =>
      `| \`${name}\`${s.secret ? ' (secret)' : ''} | ${cell(s.type)} | ${cell(s.default || '—')} | ${cell(s.constraint)} | ${cell(s.description)} |`,
  );
  return ['| Variable | Type | Default | Constraint | Description |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}

/** An option's default as the reference prints it. */
function defaultOf(o: Option): string {
  const v: unknown = o.defaultValue;
  if (o.defaultValueDescription) return o.defaultValueDescription;
  if (v === undefined || (Array.isArray(v) && v.length === 0) || v === '') return '—';
  if (v === false) return 'off';
  return Array.isArray(v) ? v.join(' ') : String(v as string | number);
}

/** A command line's table: its arguments, then its options, one row each. */
function commandTable(c: CommandLine): string {
  const args = c.program.registeredArguments.map(
    (a: Argument) =>
      `| \`${a.required ? '<' : '['}${a.name()}${a.variadic ? '...' : ''}${a.required ? '>' : ']'}\` | — | — | ${cell(a.description)} |`,
  );
  const options = c.program.options.map(
    (o: Option) =>
      `| \`${o.flags}\` | ${cell(defaultOf(o))} | ${cell(constraintOf(o.parseArg) ?? (o.argChoices ? `one of ${o.argChoices.join(', ')}` : '—'))} | ${cell(o.description)} |`,
  );
  return [
    `### ${c.name}`,
    ['| Argument or option | Default | Constraint | Description |', '| --- | --- | --- | --- |', ...args, ...options].join('\n'),
  ].join('\n\n');
}

/** The command lines' section. */
function commandsSection(commands: readonly CommandLine[]): string {
  const about =
    "Each option is defined once, in its command line's definition, with its parser: a value that does not parse ends " +
    'the command with exit code 2, naming the option, what it expects and what it received.';
  return ['## Command-line options', about, ...commands.map(commandTable)].join('\n\n');
}

/** docs/configuration.md, before formatting. */
function referenceText(commands: readonly CommandLine[]): string {
  const intro = [
    '# Configuration reference',
    `<!-- Generated from ${SOURCE} by \`${COMMAND}\`: edit those, not this page. -->`,
    'Every environment variable the harness reads, with its type, default, constraint and what it does. Export them, or ' +
      'copy `.env.example` (the same list, generated from the same definitions) to `.env`; none is needed to certify the ' +
      'embedded mock.',
    'Each value is parsed once, at start-up, into the typed configuration (`config/read-config.ts`). A value that breaks ' +
      'its constraint ends `npm run certify` and `npm run load` before any request, with exit code 2 and a message naming ' +
      'the variable, what it must be and what it received. A secret is never printed: not in errors, logs or reports.',
    'The command lines take options too: [Command-line options](#command-line-options) lists them from their ' +
      "definitions, the same the commands' `--help` prints.",
    `Contents: ${groups()
      .map((g) => SETTING_GROUPS[g].title)
      .concat('Command-line options')
      .map((title) => `[${title}](#${anchor(title)})`)
      .join(' · ')}.`,
  ];
  const sections = groups().map((g) => {
    const { title, about } = SETTING_GROUPS[g];
    return [`## ${title}`, ...(about ? [cell(about)] : []), table(g)].join('\n\n');
  });
  return `${[...intro, ...sections, commandsSection(commands)].join('\n\n')}\n`;
}

/** docs/configuration.md, formatted by Prettier with the project's settings. */
export async function configurationReference(commands: readonly CommandLine[]): Promise<string> {
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(GENERATED.reference)) ?? {};
  return prettier.format(referenceText(commands), { ...options, parser: 'markdown' });
}

/** Each generated file with its text as generated now. */
export async function generatedFiles(commands: readonly CommandLine[]): Promise<{ file: string; text: string }[]> {
  return [
    { file: GENERATED.envExample, text: envExample() },
    { file: GENERATED.reference, text: await configurationReference(commands) },
  ];
}

/** The generated files that differ from what is generated now. */
export async function staleFiles(commands: readonly CommandLine[]): Promise<string[]> {
  const read = (file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
  };
  return (await generatedFiles(commands)).filter((g) => read(g.file) !== g.text).map((g) => g.file);
}

/** Writes the generated files; returns those it changed. */
export async function writeSettingsDocs(commands: readonly CommandLine[]): Promise<string[]> {
  const stale = new Set(await staleFiles(commands));
  for (const g of await generatedFiles(commands)) if (stale.has(g.file)) writeFileSync(g.file, g.text);
  return [...stale];
}

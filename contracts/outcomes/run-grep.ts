/**
 * A run's test selection, applied to the checks of a group: a grouped check runs when the run's greps select
 * it as they would select a test of its title and tags. The greps are Playwright's: `-g`/`--grep` and
 * `-G`/`--grep-invert` on the runner's command line (read from `config.argv`), and the project's `grep` and
 * `grepInvert`. So `npm run certify -- -g '@catalog\.search'` runs the catalog.search checks of a group, not
 * the group's other checks.
 */
import type { TestInfo } from '@playwright/test';

type Matcher = (title: string) => boolean;

/** Playwright's reading of a grep option: `/source/flags`, or else a case-insensitive pattern. */
function toRegExp(pattern: string): RegExp {
  const m = /^\/(.*)\/([gi]*)$/.exec(pattern);
  return m ? new RegExp(m[1] as string, (m[2] as string).replace('g', '')) : new RegExp(pattern, 'i');
}

/** The value of a command-line option in its three spellings: `-g x`, `--grep x`, `--grep=x` (and `-gx`). */
function optionValue(argv: readonly string[], short: string, long: string): string | undefined {
  let value: string | undefined;
  argv.forEach((arg, i) => {
    if (arg === short || arg === long) value = argv[i + 1];
    else if (arg.startsWith(`${long}=`)) value = arg.slice(long.length + 1);
    else if (arg.startsWith(short) && arg.length > short.length && !arg.startsWith('--')) value = arg.slice(short.length);
  });
  return value;
}

const matchesAny = (patterns: RegExp | RegExp[] | null | undefined, title: string): boolean | undefined => {
  if (!patterns) return undefined;
  return (Array.isArray(patterns) ? patterns : [patterns]).some((re) => {
    re.lastIndex = 0;
    return re.test(title);
  });
};

/** Whether the run's greps select a test of this grep title (Playwright's: title path, then tags, space-joined). */
export function runGrep(info: Pick<TestInfo, 'config' | 'project'>): Matcher {
  const argv = info.config.argv ?? [];
  const cliGrep = optionValue(argv, '-g', '--grep');
  const cliInvert = optionValue(argv, '-G', '--grep-invert');
  const grep = cliGrep === undefined ? undefined : toRegExp(cliGrep);
  const invert = cliInvert === undefined ? undefined : toRegExp(cliInvert);
  return (title) =>
    matchesAny(grep, title) !== false &&
    matchesAny(invert, title) !== true &&
    matchesAny(info.project.grep, title) !== false &&
    matchesAny(info.project.grepInvert, title) !== true;
}

/**
 * A grouped check's grep title: the project, the group test's title path, the check's title, then the check's
 * tags (the group's when it declares none), as Playwright writes a test's.
 */
export function checkGrepTitle(info: Pick<TestInfo, 'project' | 'titlePath' | 'tags'>, title: string, tags?: readonly string[]): string {
  return ['', info.project.name, ...info.titlePath, title, ...(tags ?? info.tags)].join(' ');
}

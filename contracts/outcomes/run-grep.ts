/**
 * A run's test selection, applied to the checks of a group: a grouped check runs when the run's greps select
 * it as they would select a test of its title and tags. The greps are Playwright's: `-g`/`--grep` and
 * `-G`/`--grep-invert` on the runner's command line (read from `config.argv`), and the project's `grep` and
 * `grepInvert`. So `npm run certify -- -g '@catalog\.search'` runs the catalog.search checks of a group, not
 * the group's other checks.
 */
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

/** A project's greps, as Playwright gives them to a test and a reporter. */
type ProjectGreps = { grep: RegExp | RegExp[]; grepInvert: RegExp | RegExp[] | null };

/** The runner's command-line greps (`-g`/`--grep`, `-G`/`--grep-invert`), as Playwright reads them. */
export function commandLineGreps(argv: readonly string[]): { grep?: RegExp; invert?: RegExp } {
  const cliGrep = optionValue(argv, '-g', '--grep');
  const cliInvert = optionValue(argv, '-G', '--grep-invert');
  return {
    ...(cliGrep === undefined ? {} : { grep: toRegExp(cliGrep) }),
    ...(cliInvert === undefined ? {} : { invert: toRegExp(cliInvert) }),
  };
}

/** Whether the run's greps (the runner's command line, the project's) select a test of this grep title. */
export function runGrep(argv: readonly string[], project: ProjectGreps = { grep: /.*/, grepInvert: null }): Matcher {
  const { grep, invert } = commandLineGreps(argv);
  return (title) =>
    matchesAny(grep, title) !== false &&
    matchesAny(invert, title) !== true &&
    matchesAny(project.grep, title) !== false &&
    matchesAny(project.grepInvert, title) !== true;
}

/**
 * A grouped check's grep title, as Playwright writes a test's: the group test's path (the root's empty title,
 * the project, the file, the describes, the test's title), the check's title, then its own tags, or the group
 * test's when it declares none.
 */
export function checkGrepTitle(
  testPath: readonly string[],
  title: string,
  tags: readonly string[] | undefined,
  testTags: readonly string[],
): string {
  return [...testPath, title, ...(tags ?? testTags)].join(' ');
}

/**
 * A run's test selection, applied to the checks of a group: a grouped check runs when the run's greps select
 * it as they would select a test of its title and tags. The greps are Playwright's: `-g`/`--grep` and
 * `-G`/`--grep-invert` on the runner's command line (read from `config.argv`), and the project's `grep` and
 * `grepInvert`. So `npm run certify -- -g '@catalog\.search'` runs the catalog.search checks of a group, not
 * the group's other checks.
 */
import { commandLineGreps } from '../plan/command-line-greps';

type Matcher = (title: string) => boolean;

const matchesAny = (patterns: RegExp | RegExp[] | null | undefined, title: string): boolean | undefined => {
  if (!patterns) return undefined;
  return (Array.isArray(patterns) ? patterns : [patterns]).some((re) => {
    re.lastIndex = 0;
    return re.test(title);
  });
};

/** A project's greps, as Playwright gives them to a test and a reporter. */
type ProjectGreps = { grep: RegExp | RegExp[]; grepInvert: RegExp | RegExp[] | null };

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

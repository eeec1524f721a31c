/**
 * The greps on the runner's command line, `-g`/`--grep` and `-G`/`--grep-invert`, read as Playwright reads them:
 * the run's projects (phases.ts) and its grouped checks (outcomes/run-grep.ts) select by them.
 */
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

/** The runner's command-line greps (`-g`/`--grep`, `-G`/`--grep-invert`), as Playwright reads them. */
export function commandLineGreps(argv: readonly string[]): { grep?: RegExp; invert?: RegExp } {
  const cliGrep = optionValue(argv, '-g', '--grep');
  const cliInvert = optionValue(argv, '-G', '--grep-invert');
  return {
    ...(cliGrep === undefined ? {} : { grep: toRegExp(cliGrep) }),
    ...(cliInvert === undefined ? {} : { invert: toRegExp(cliInvert) }),
  };
}

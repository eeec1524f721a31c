/** `npm run report`'s command line (scripts/report.ts parses it): each option with its parser, default and description, defined once. */
import { Command } from 'commander';
import { parsedBy } from '../config/cli-options';
import { DEFAULT_PERF_THRESHOLD, DEFAULT_PERF_THRESHOLD_SPEC, parsePerfThreshold } from './perf-compare';

/** The command line's definition. */
export function reportProgram(): Command {
  return new Command()
    .name('npm run report --')
    .option('--out <dir>', 'reports directory', 'reports')
    .option('--summary <file>', 'summary.json to render (default <out>/summary.json)')
    .option('--baseline <file>', 'an older summary.json to compare with')
    .option('--capacity-baseline <run>', "an older capacity run's folder (default the load/ folder beside --baseline)")
    .option(
      '--perf-threshold <spec>',
      `a latency or rate change counts beyond this (default ${DEFAULT_PERF_THRESHOLD_SPEC})`,
      parsedBy((v) => parsePerfThreshold(v)),
      DEFAULT_PERF_THRESHOLD,
    )
    .option('--fail-on-change', 'exit 1 when behaviour changed since the baseline, or performance regressed beyond the threshold', false);
}

/**
 * `npm run report [-- --summary <file>] [--baseline <older summary.json>] [--capacity-baseline <older run>]
 *   [--perf-threshold 20%,5ms,p95:50%,p95:20ms,1pt] [--fail-on-change] [--out <dir>]`
 * Builds reports/index.html (each failed check with its exchanges from exchanges.har) and, with a baseline,
 * reports/diff.json (with the capacity comparison when both runs kept their requests) and the checks whose verdict
 * changed with their exchanges that differ, on the page and here.
 */
import { Command } from 'commander';
import { parseOrExit, parsedBy } from '../config/cli-options';
import { buildReport } from '../reporting/build-report';
import { comparisonLines } from '../reporting/capacity-runs';
import { checkChangeLines } from '../reporting/failed-checks-section';
import { DEFAULT_PERF_THRESHOLD, DEFAULT_PERF_THRESHOLD_SPEC, parsePerfThreshold, type PerfThreshold } from '../reporting/perf-compare';

// An unknown option or a value that does not parse ends the command with exit 2, naming it.
const o = parseOrExit(
  new Command()
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
    .option('--fail-on-change', 'exit 1 when behaviour changed since the baseline, or performance regressed beyond the threshold', false),
).opts<{
  out: string;
  summary?: string;
  baseline?: string;
  capacityBaseline?: string;
  perfThreshold: PerfThreshold;
  failOnChange: boolean;
}>();

buildReport({
  reportsDir: o.out,
  ...(o.summary ? { summaryFile: o.summary } : {}),
  ...(o.baseline ? { baseline: o.baseline } : {}),
  ...(o.capacityBaseline ? { capacityBaseline: o.capacityBaseline } : {}),
  compare: { threshold: o.perfThreshold },
})
  .then((r) => {
    console.log(`report: ${r.htmlPath}`);
    if (r.performance) for (const line of comparisonLines(r.performance)) console.log(line);
    if (o.failOnChange && r.performance?.verdict === 'failed') {
      console.error('report: performance regressed beyond the threshold since the baseline capacity run (--fail-on-change)');
      process.exitCode = 1;
    }
    for (const c of r.changedChecks) for (const line of checkChangeLines(c)) console.log(line);
    if (r.diff) {
      const d = r.diff;
      console.log(
        `diff: ${r.diffPath}: ${d.newlyFailing.length} newly failing, ${d.newlyPassing.length} newly passing, ${d.limitsChanged.length} limits changed, ${d.findingsChanged.length} findings changed, ` +
          `${d.headersAppeared.length + d.headersDisappeared.length} header and ${d.fieldsAppeared.length + d.fieldsDisappeared.length} field changes`,
      );
      if (o.failOnChange && d.changed) {
        console.error('report: behaviour changed since the baseline (--fail-on-change)');
        process.exit(1);
      }
    }
  })
  .catch((e: Error) => {
    console.error(`report: ${e.message}`);
    process.exit(2);
  });

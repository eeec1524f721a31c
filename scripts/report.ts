/**
 * `npm run report [-- --summary <file>] [--baseline <older summary.json>] [--capacity-baseline <older run>]
 *   [--perf-threshold 20%,5ms,p95:50%,p95:20ms,1pt] [--fail-on-change] [--out <dir>]`
 * Builds reports/index.html (each failed check with its exchanges from exchanges.har) and, with a baseline,
 * reports/diff.json (with the capacity comparison when both runs kept their requests) and the checks whose verdict
 * changed with their exchanges that differ, on the page and here.
 */
import { parseOrExit } from '../config/cli-options';
import { buildReport } from '../reporting/build-report';
import { comparisonLines } from '../reporting/capacity-runs';
import { checkChangeLines } from '../reporting/failed-checks-section';
import type { PerfThreshold } from '../reporting/perf-compare';
import { reportProgram } from '../reporting/report-command';

// An unknown option or a value that does not parse ends the command with exit 2, naming it.
const o = parseOrExit(reportProgram()).opts<{
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

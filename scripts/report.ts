/**
 * `npm run report [-- --summary <file>] [--baseline <older summary.json>] [--fail-on-change] [--out <dir>]`
 * Builds reports/index.html and, with a baseline, reports/diff.json.
 */
import { Command } from 'commander';
import { parseOrExit } from '../clients/cli-options';
import { buildReport } from '../reporting/build-report';

// An unknown option ends the command with exit 2, naming it.
const o = parseOrExit(
  new Command()
    .name('npm run report --')
    .option('--out <dir>', 'reports directory', 'reports')
    .option('--summary <file>', 'summary.json to render (default <out>/summary.json)')
    .option('--baseline <file>', 'an older summary.json to compare with')
    .option('--fail-on-change', 'exit 1 when behaviour changed since the baseline', false),
).opts<{ out: string; summary?: string; baseline?: string; failOnChange: boolean }>();

buildReport({ reportsDir: o.out, ...(o.summary ? { summaryFile: o.summary } : {}), ...(o.baseline ? { baseline: o.baseline } : {}) })
  .then((r) => {
    console.log(`report: ${r.htmlPath}`);
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

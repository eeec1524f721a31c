/**
 * `npm run load`'s command line (scripts/load.ts parses it): each option with its parser, its default and what it
 * does, defined once; the configuration reference lists them from this definition (config/settings-reference.ts).
 */
import { Command, InvalidArgumentError } from 'commander';
import { allOperations, ENVIRONMENTS, parseErrorStatuses } from '../catalogue';
import { described, duration, integer, listOf, oneOf, parsedBy, positive } from '../config/cli-options';
import { setting, type Env } from '../config/settings';
import { DEFAULT_PERF_THRESHOLD_SPEC, parsePerfThreshold } from '../reporting/perf-compare';
import { COMMANDS } from './steps';
import { DEFAULT_BUDGET, DEFAULT_MAX_DURATION, defaultCommandOptions } from './load-options';

/** `mock`, `sandbox` or an http(s) base URL. */
const TARGET = 'mock, sandbox (with BASE_URL) or an http(s) base URL';
const target = described(TARGET, (v: string): string => {
  if (v === 'mock' || v === 'sandbox') return v;
  try {
    if (['http:', 'https:'].includes(new URL(v).protocol)) return v;
  } catch {
    // said below
  }
  throw new InvalidArgumentError(`--target expects ${TARGET}, received "${v}"`);
});

/**
 * The mock's options the run sets itself, each with the option of this command that sets it: given inside
 * --mock-args, the mock and the plan would disagree (a plan of seed-1 ids against a mock serving seed 7).
 */
const RUN_OWNED_MOCK_OPTIONS: Record<string, string> = {
  '--seed': '--seed',
  '--window-ms': '--window-ms',
  '--limits': '--random-limits',
  '--port': '(none: the run picks a free port)',
};

/** --mock-args split into arguments; an option the run sets itself is refused with the option to use instead. */
function mockArgs(v: string): string[] {
  const args = v.split(/\s+/).filter(Boolean);
  for (const a of args) {
    const owned = RUN_OWNED_MOCK_OPTIONS[a.split('=')[0] as string];
    if (owned)
      throw new InvalidArgumentError(
        `--mock-args must not set ${a.split('=')[0]}: the run gives it to the mock and to the plan alike; pass ${owned} to npm run load instead`,
      );
  }
  return args;
}

const refusedStatuses = parsedBy((v) => parseErrorStatuses(v, '--refused-status'), 'comma-separated HTTP statuses, e.g. 503');

/** The command line's options, each parsed into the type runner/load-options.ts gives it. */
export function loadProgram(env: Env = process.env): Command {
  const d = defaultCommandOptions();
  const names = Object.keys(COMMANDS);
  return new Command()
    .name('npm run load --')
    .argument('<command>', names.map((n) => `${n}: ${COMMANDS[n]?.about}`).join('; '))
    .argument('[inputs...]', 'merge: runner folders (default <reports-dir>/segment-*)')
    .option('--target <target>', 'mock, sandbox (needs BASE_URL) or a base URL', target, d.target)
    .option('--environment <env>', 'production or sandbox', oneOf('--environment', ENVIRONMENTS), d.environment)
    .option(
      '--ops <ids>',
      'comma-separated operation ids (default: all; non-mock targets: read-only ones)',
      listOf(
        '--ops',
        allOperations().map((o) => o.id),
      ),
    )
    .option(
      '--window-ms <n>',
      'window of the embedded mock, ms (short windows compress time in tests)',
      integer('--window-ms', 1),
      d.windowMs,
    )
    .option('--seed <n>', 'seed of the plan and of the embedded mock (their ids and data)', integer('--seed'), d.seed)
    .option('--random-limits <seed>', 'embedded mock: seeded random per-operation limits (3..12)', integer('--random-limits'))
    .option('--mock-args <args>', 'embedded mock: more `npm run mock` arguments, e.g. "--reset-unit seconds"', mockArgs, d.mockArgs)
    .option(
      '--budget <n>',
      `most requests a probe may send; checked against what probe-limits needs before k6 starts (default ${DEFAULT_BUDGET}; the embedded mock: what the plan needs, if more)`,
      integer('--budget', 1),
    )
    .option('--partial', 'run what --budget covers when short; the operations left out are "not run: budget" (exit 99)', d.partial)
    .option('--duration <d>', 'capacity: duration per operation, k6 syntax (default 1m)', duration('--duration'))
    .option('--fraction <f>', 'capacity: share of each limit used as the arrival rate (default 0.5)', positive('--fraction'))
    .option('--allow-quota-spend', 'allow probes against a non-mock target (they spend the app quota for a window)', d.allowQuotaSpend)
    .option('--allow-production', 'allow a production target', d.allowProduction)
    .option('--reports-dir <dir>', 'where manifests, results and JUnit files go', d.reportsDir)
    .option(
      '--out <output>',
      'k6 output, passed to `k6 run --out` (repeatable), e.g. json=results.json, experimental-prometheus-rw',
      (v: string, a: string[]) => [...a, v],
      d.out,
    )
    .option('--summary-export <file>', "k6's --summary-export file (default <reports-dir>/<script>-k6-summary.json)")
    .option('--web-dashboard', "k6's web dashboard (K6_WEB_DASHBOARD=true; k6 v0.49+)", d.webDashboard)
    .option('--web-dashboard-export <file>', "k6's dashboard HTML report (K6_WEB_DASHBOARD_EXPORT; k6 v0.49+)")
    .option('--execution-segment <segment>', "k6's --execution-segment, e.g. 0:1/3 (probes take that share of the operations)")
    .option('--execution-segment-sequence <seq>', "k6's --execution-segment-sequence, e.g. 0,1/3,2/3,1")
    .option('--max-duration <d>', 'stop k6 after this long (exit 105)', duration('--max-duration'), DEFAULT_MAX_DURATION)
    .option(
      '--refused-status <codes>',
      "statuses taken as refusals besides 429, e.g. 503 (nginx limit_req's default); comma-separated",
      refusedStatuses,
    )
    .option(
      '--probe-wait-ms <n>',
      'probe-reset: longest wait for a bucket to reopen (default 3 windows, at least 5 s)',
      integer('--probe-wait-ms', 1),
    )
    .option('--probe-max-ms <n>', 'probe-reset: longest fingerprint of one operation (default 25 windows)', integer('--probe-max-ms', 1))
    .option('--reads-only', 'only the read operations (a probe of a create/modify/cancel operation creates resources)', false)
    .option('--manifest <file>', 'verify-pacing: the probe-reset manifest with the pacings (default <reports-dir>/limits.json)')
    .option(
      '--perf-threshold <spec>',
      `compare: margins a change must exceed (median %, ms; p95:%, p95:ms; rate points; default ${DEFAULT_PERF_THRESHOLD_SPEC})`,
      parsedBy((v) => parsePerfThreshold(v)),
    )
    .option('--bundle-dir <dir>', 'bundle directory (default LOAD_BUNDLE_DIR, else dist/load)')
    .option('--skip-build', 'use the bundles already in the bundle directory', d.skipBuild)
    .option('--openapi <file>', 'embedded mock: answer with bodies from this OpenAPI document (default: OPENAPI)', setting(env, 'OPENAPI'));
}

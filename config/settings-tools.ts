/** The definitions of the variables of the load tools, of the harness's own tests, and of the harness's own processes. */
import { definer, path, text, textOr, type Setting } from './setting-kinds';
import { DEFAULTS } from './settings-harness';

const [load, tests, internal] = [definer('load'), definer('tests'), definer('internal')];

export const TOOL_SETTINGS = {
  K6_BIN: load(path('an executable k6 binary', 'k6 on PATH'), 'The k6 binary the load probes run.'),
  LOAD_BUNDLE_DIR: load(textOr(DEFAULTS.bundleDir, 'path', 'a folder'), 'Where npm run load and npm run load:build put the k6 bundles.'),
  LOAD_SEGMENT: load(
    text('text', 'a k6 execution segment, e.g. 0:1/3', 'none'),
    "This runner's execution segment for distributed probes by hand (k6-operator sets k6's own).",
  ),
  K6_WEB_DASHBOARD: load(text('flag', 'true turns it on (read by k6 v0.49+)', 'off'), "k6's live web dashboard."),
  K6_WEB_DASHBOARD_EXPORT: load(path('a file (read by k6 v0.49+)', 'none'), "The file of k6's web dashboard HTML report."),
  K6_WEB_DASHBOARD_PORT: load(
    text('number', 'a port, or -1 for no live dashboard (read by k6)', "k6's; -1 when only the export is asked for"),
    "k6's web dashboard port.",
  ),
  SETUP_TIMEOUT: load(
    text('duration', "k6's duration syntax, e.g. 10m", '10m for probe-limits; 30m for probe-reset and verify-pacing'),
    'The k6 setup timeout of the probe scripts.',
  ),

  VENDOR_OPENAPI: tests(
    path("the YAML form of the distributor's published OpenAPI document", 'none: the tests that need it are skipped'),
    "The distributor's published OpenAPI document.",
  ),
  VENDOR_OPENAPI_JSON: tests(
    path("the JSON form of the distributor's published OpenAPI document", 'none: the tests that need it are skipped'),
    'Its JSON form, which is not the same document: the same tests run on it too.',
  ),
  CI: tests(text('flag', 'any non-empty value turns it on', 'off'), 'Set by CI systems: forbids test.only and prints one line per test.'),
  NGINX_BIN: tests(
    path('an nginx binary', '/usr/sbin/nginx; the test is skipped without one'),
    'The nginx of the limit_req fingerprint test.',
  ),
  REAL_LIMITERS_SKEW: tests(
    text('number', 'a number of calls', '0'),
    'Real-limiter tests: configure every gateway this many calls larger than the test expects (1: the test must fail).',
  ),
  HARNESS_RUN_DIR: tests(
    path('a folder', 'a new temporary folder'),
    'The folder of one test run: load bundles, the detection matrix run, output of failing tests.',
  ),
  PLAYWRIGHT_LAST_RUN_OUTPUT_FILE: tests(
    path('a file', 'reports/harness-tests/last-run.json'),
    "Playwright's record of the last run, read by --last-failed.",
  ),
  HARNESS_BIN: tests(
    path('a folder', 'set by the global setup'),
    "The folder of this run's bundled command lines (certify, load, mock, k6 double, bench), started instead of their TypeScript.",
  ),
  DRIFT_MATRIX_MODES: tests(
    text('list', 'comma-separated drift mode ids (mock/drift/)', 'all'),
    'Detection matrix: only these drift modes.',
  ),
  DRIFT_MATRIX_GROUPS: tests(
    text('JSON', 'a JSON array of arrays of drift mode ids', 'set by the matrix runner'),
    'Detection matrix: the drift modes packed into projects whose tests do not overlap.',
  ),
  CERTIFY_REPEAT: tests(
    text('number', 'a positive number of rounds', 'none: that test is skipped, saying so'),
    'Certify at a 2 s window behind a forwarding proxy this many times in a row and two at once (tests/contracts/rate-limit-pace-repeat.spec.ts).',
  ),

  PLAN: internal(text('JSON', 'the load plan', 'set by npm run load'), 'The load plan, passed by npm run load to the k6 scripts.'),
  OPERATION: internal(
    text('text', 'an operation id', 'set per scenario'),
    "A capacity scenario's operation, set per scenario by load/scripts/capacity.ts.",
  ),
  CERTIFY_RUN_DIR: internal(
    path('a folder', "set by certify's global setup"),
    "The run's folder, passed by certify's global setup to its workers and reporters (its plan and sessions).",
  ),
  TEST_WORKER_INDEX: internal(
    text('number', 'a worker index', 'set by Playwright'),
    "Set by Playwright in its worker processes (the harness tests' configuration tells runner from worker).",
  ),
  PATH: internal(text('text', 'the system search path', "the system's"), 'The system search path (k6 is looked up on it).'),
} satisfies Record<string, Setting<unknown>>;

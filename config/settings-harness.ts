/**
 * The definitions of the variables certify and `npm run load` read about the target, its apps, the run and the
 * embedded mock (config/settings.ts gathers them with the tools' own).
 */
import {
  definer,
  SECRET,
  flag,
  listOf,
  listOfText,
  nonNegative,
  optionalNonNegative,
  optionalWholeFrom,
  path,
  text,
  textOr,
  type Setting,
} from './setting-kinds';
import {
  extraHeadersKind,
  headersProfileKind,
  IM_HEADER_VARIABLES,
  imHeaderKind,
  knownIdsKind,
  mockAppsKind,
  targetKind,
  vendorOperationsKind,
} from './setting-parsers';

/** The configuration's defaults that code elsewhere names too. */
export const DEFAULTS = {
  requestTimeoutMs: 10_000,
  maxBodyBytes: 5 * 1024 * 1024,
  max429WaitMs: 65_000,
  mockWindowMs: 2_000,
  mockSeed: 1,
  concurrency: 8,
  reportsDir: 'reports',
  bundleDir: 'dist/load',
} as const;

const [target, apps, headers, run] = [definer('target'), definer('apps'), definer('headers'), definer('run')];
const [limits, inputs, mock] = [definer('limits'), definer('inputs'), definer('mock')];
const demo = (app: string) => `the embedded mock's ${app}; required for a deployment`;

const im = (name: keyof typeof IM_HEADER_VARIABLES) =>
  headers(
    imHeaderKind(IM_HEADER_VARIABLES[name]),
    `The ${IM_HEADER_VARIABLES[name].header} header of business calls: your account's value (the default is the embedded mock's).`,
  );

export const HARNESS_SETTINGS = {
  TARGET: target(
    targetKind,
    'What is certified: the embedded mock, the deployment at BASE_URL (sandbox, production), or a base URL (its sandbox is <url>/sandbox).',
  ),
  BASE_URL: target(
    text('URL', 'an http(s) URL without credentials (trailing slashes dropped)', 'none; required for TARGET=sandbox or production'),
    'The {base_url} of the deployment for TARGET=sandbox or TARGET=production (its sandbox is BASE_URL/sandbox).',
  ),
  ENVIRONMENTS: target(
    listOf(['production', 'sandbox'], 'both for the mock and a URL target; the one TARGET=sandbox or production names'),
    'The environments to certify.',
  ),
  FAMILIES: target(listOf(['reseller', 'vendor'], 'both'), 'The API families to certify.'),

  RESELLER_CLIENT_ID: apps(text('text', 'any text', demo('demo reseller app')), 'The reseller app the harness takes tokens for.'),
  RESELLER_CLIENT_SECRET: apps(text('text', 'any text', demo('demo reseller app')), "The reseller app's client secret.", SECRET),
  VENDOR_CLIENT_ID: apps(text('text', 'any text', demo('demo vendor app')), 'The vendor app the harness takes tokens for.'),
  VENDOR_CLIENT_SECRET: apps(text('text', 'any text', demo('demo vendor app')), "The vendor app's client secret.", SECRET),
  RESELLER_B_CLIENT_ID: apps(
    text('text', 'any text', "the embedded mock's second reseller app; none for a deployment"),
    'A second reseller app, for the check that each app has its own rate limits (optional).',
  ),
  RESELLER_B_CLIENT_SECRET: apps(
    text('text', 'any text', "the embedded mock's second reseller app; none for a deployment"),
    "The second reseller app's client secret.",
    SECRET,
  ),

  IM_CUSTOMER_NUMBER: im('IM_CUSTOMER_NUMBER'),
  IM_COUNTRY_CODE: im('IM_COUNTRY_CODE'),
  IM_CUSTOMER_CONTACT: im('IM_CUSTOMER_CONTACT'),
  IM_APPLICATION_ID: im('IM_APPLICATION_ID'),
  IM_SENDER_ID: im('IM_SENDER_ID'),
  EXTRA_HEADERS: headers(extraHeadersKind, 'Extra request headers sent with every call (over those of HEADERS_PROFILE).'),
  HEADERS_PROFILE: headers(headersProfileKind, 'A JSON file of extra request headers sent with every call.'),
  VENDOR_OPERATIONS: headers(vendorOperationsKind, "The vendor family's operations (the spec shows only a placeholder for them)."),

  ALLOW_PRODUCTION: run(flag(), 'Confirms TARGET=production, which spends the quota of a production app (read-only operations only).'),
  ALLOW_PRODUCTION_WRITES: run(flag(), 'Lets a production run send the operations that create, change or cancel.'),
  REQUEST_BUDGET: run(
    optionalNonNegative("the run's plan, printed at its start; unlimited on the embedded mock"),
    'The most requests certify may send; a budget below the plan ends the run before any request (exit 2, with the number needed).',
  ),
  REQUEST_BUDGET_PARTIAL: run(
    flag(),
    'With a budget below the plan, run whole operations in catalogue order while the budget covers them; the rest are not run (exit 99).',
  ),
  REQUIRE_EVERY_CHECK: run(
    flag(),
    "Count the checks out of the run's scope as not judged (exit 99) instead of listing them aside with exit 0.",
  ),
  CERTIFY_CONCURRENCY: run(
    optionalWholeFrom(1, `${DEFAULTS.concurrency} against a deployment; 1 on the embedded mock`),
    'The most calls a certify worker sends at once against a deployment and the most workers (4); 1 sends one call at a time.',
  ),
  KNOWN_IDS: run(knownIdsKind, "Ids of the target's own data, used before any search (certify, and npm run load on a deployment)."),
  PROBE_LIMITS: run(
    flag('off; always on for the embedded mock'),
    "Run the limit exhaustion checks on a remote target (they spend the app's quota for a window).",
  ),
  PROBE_WRITE_LIMITS: run(
    flag('off; always on for the embedded mock'),
    "Spend the write operations' buckets too on a remote target: as many orders, quotes and returns created or cancelled as their limits (production also needs ALLOW_PRODUCTION_WRITES).",
  ),

  MAX_429_WAIT_MS: limits(
    nonNegative(DEFAULTS.max429WaitMs),
    'The longest wait, in ms, for a rate-limit reset in a check that is not about limits.',
  ),
  REQUEST_TIMEOUT_MS: limits(
    nonNegative(DEFAULTS.requestTimeoutMs),
    'The request timeout, in ms: a target that answers no request within it is silent and the checks after it are blocked.',
  ),
  MAX_BODY_BYTES: limits(
    nonNegative(DEFAULTS.maxBodyBytes, `${DEFAULTS.maxBodyBytes} (5 MiB)`),
    'The largest response body accepted, in bytes.',
  ),

  WEBHOOK_RECEIVER_URL: inputs(
    text('URL', 'a public URL that forwards to the local receiver', 'none: a receiver no one runs'),
    "The webhooks' targeturl.",
  ),
  WEBHOOK_SECRET: inputs(
    text('text', 'any text', '<reseller client id>-webhook-secret on the embedded mock; none for a deployment'),
    "The secret that signs each webhook call's x-hub-signature; a remote target's webhook checks are not run without it.",
    SECRET,
  ),
  POLICY: inputs(
    path('a JSON policy file (see policy/strict.example.json), checked at start-up against its JSON Schema', 'none'),
    'A policy file pinning or promoting findings.',
  ),
  OPENAPI: inputs(
    path('an OpenAPI 3.0 or 3.1 document (JSON or YAML), checked at start-up', 'none'),
    'A vendor OpenAPI document: answers are also validated against it, and every request meant to be valid before it is sent.',
  ),
  REPORTS_DIR: inputs(textOr(DEFAULTS.reportsDir, 'path', 'a folder (created when missing)'), 'Where the reports go.'),
  GITHUB_ACTIONS: inputs(
    flag('off; GitHub Actions sets it to true'),
    'Set by GitHub Actions: certify and `npm run load` write their step summary and annotate each failed check or broken fact.',
  ),
  GITHUB_STEP_SUMMARY: inputs(
    path('a file (set by GitHub Actions)', 'none'),
    "The job's step summary file, which certify and `npm run load` append their Markdown to when GITHUB_ACTIONS is on.",
  ),

  MOCK_WINDOW_MS: mock(nonNegative(DEFAULTS.mockWindowMs), "The embedded mock's rate-limit window for certify, in ms."),
  MOCK_SEED: mock(nonNegative(DEFAULTS.mockSeed), "The embedded mock's faker seed (its ids and data)."),
  MOCK_DRIFT: mock(
    listOfText('a comma-separated list of drift mode ids (mock/drift/), checked when the mock starts'),
    'Drift modes the embedded mock serves: each breaks one fact of the document, to show a check fails.',
  ),
  MOCK_APPS: mock(mockAppsKind, 'The apps the embedded mock knows.', SECRET),
  MOCK_REQUESTS: mock(
    textOr('strict', 'text', 'strict or warn, checked when the mock starts'),
    'strict refuses a request breaking a document constraint with 400; warn serves it and reports each violation.',
  ),
} satisfies Record<string, Setting<unknown>>;

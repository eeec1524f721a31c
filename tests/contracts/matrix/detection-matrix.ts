/**
 * What the contract suite must catch in each drift mode of the mock: which tests run (grep over their
 * titles and tags), and either the checks of which one must fail (by the labels the suite records:
 * check, operation, environment) or the finding that must be recorded. Keyed by drift id: a mode
 * without a detection, or a detection of no mode, does not compile.
 */
import type { EnvironmentName } from '../../../catalogue';
import { DRIFT_MODES, type DriftId } from '../../../mock/drift';
import {
  bucketSpendsOf,
  createReadBacksOf,
  filtersOf,
  headerRefusalsOf,
  headerStepsOf,
  pagingOf,
  validCallsOf,
  writeReadBacksOf,
} from '../support/greps';

/** A check by the labels the suite records for it (contracts/outcomes/outcomes.ts `label`); absent parts match any. */
export interface CheckRef {
  check: string;
  operation?: string;
  environment?: EnvironmentName;
}

export interface Detection {
  /**
   * Tests run in this mode (matched against title path and tags, as Playwright's grep). Never on the
   * file name: the matrix runs the specs through matrix-suite.ts.
   */
  grep: RegExp;
  /** Failure modes: one of these checks must fail. */
  mustFail?: readonly CheckRef[];
  /** Finding modes: this finding must be recorded, and no check fail. */
  finding?: { id: string; observed: string };
}

/*
 * Where several tests can catch a mode (one per environment, family or operation), each mode selects
 * one of them, spread so that few modes share a test: the matrix run needs one project per mode that
 * shares a test (matrix-runner.ts), and each project costs a worker start.
 */
/** The token checks run grouped, one test per family and environment (contracts/outcomes/check-groups.ts). */
const tokenGroup = (family: 'reseller' | 'vendor', env: 'production' | 'sandbox') =>
  new RegExp(`${family} token requests as documented \\(${env}\\)`);
/** The per-operation auth checks run grouped, one test per environment. */
const authGroup = (env: 'production' | 'sandbox') => new RegExp(`refuse every operation without a valid token.*\\(${env}\\)`);
/** The valid-call checks run grouped, one test per environment; a check's tags name its operation. */
const validCall = (op: string, env?: 'production' | 'sandbox') => new RegExp(validCallsOf([op], env));
/** The operations whose answers carry the fields shapes.field-renamed renames. */
const VALID_CALL = new RegExp(validCallsOf(['catalog.search', 'orders.details'], 'production'));
/** Every rate-limit check except the two on the 429 answer (four modes each select those already). */
const RATE_LIMIT_BUT_429 = /^(?!.*should answer 429).*@rate-limit/;
const tokenCheck = (check: string, family: 'reseller' | 'vendor', environment: EnvironmentName): CheckRef => ({
  check,
  operation: `token.${family}`,
  environment,
});
/** The check of a valid call of an operation (contracts/operations.spec.ts). */
const validCallCheck = (operation: string, environment?: EnvironmentName): CheckRef => ({
  check: 'valid-call',
  operation,
  ...(environment ? { environment } : {}),
});
/** The header invariants over calls in a row, in one family and environment. */
const remainingStep = (family: 'reseller' | 'vendor', env: EnvironmentName) =>
  new RegExp(`decrease X-RateLimit-Remaining by exactly 1 per call.*\\(${family}, ${env}\\)`);
/** The whole exhaustion of a bucket, Remaining call by call. */
const REMAINING_SEQUENCE = /lower X-RateLimit-Remaining by exactly one per accepted call/;
const ERROR_429 = /429 with the spec's error body/;
const HEADERS_429 = /429 with Remaining 0 and all three/;
/** The check of two pages of a search (contracts/paging.spec.ts), in one environment. */
const paging = (op: string, env: EnvironmentName) => new RegExp(pagingOf([op], env));
/** The input checks of every operation, in one environment (contracts/inputs.spec.ts). */
const inputGroup = (env: EnvironmentName) => new RegExp(`take the input the published document allows.*\\(${env}\\)`);
const pagingCheck = (operation: string, environment: EnvironmentName): CheckRef => ({ check: 'paging', operation, environment });

export const DETECTIONS = {
  'token.type-not-bearer': { grep: tokenGroup('reseller', 'production'), mustFail: [tokenCheck('shape', 'reseller', 'production')] },
  'token.expires-in-string': { grep: tokenGroup('vendor', 'production'), mustFail: [tokenCheck('shape', 'vendor', 'production')] },
  'token.access-token-missing': { grep: tokenGroup('reseller', 'sandbox'), mustFail: [tokenCheck('shape', 'reseller', 'sandbox')] },
  'token.wrong-secret-accepted': { grep: tokenGroup('vendor', 'sandbox'), mustFail: [tokenCheck('auth', 'vendor', 'sandbox')] },
  'token.json-body-accepted': {
    grep: tokenGroup('reseller', 'production'),
    mustFail: [tokenCheck('rejections', 'reseller', 'production')],
  },
  // Every check, old and new, renews a token refused early: the whole suite runs in this mode, and none fails.
  'token.refused-early': {
    grep: /./,
    finding: { id: 'token.refused-early', observed: 'refused-early' },
  },
  'token.no-ratelimit-headers': { grep: tokenGroup('vendor', 'production'), mustFail: [tokenCheck('headers', 'vendor', 'production')] },
  'headers.limit-missing-2xx': {
    grep: validCall('catalog.search', 'production'),
    mustFail: [validCallCheck('catalog.search', 'production')],
  },
  'headers.all-missing-4xx': {
    grep: new RegExp(`${authGroup('sandbox').source}|rate-limit headers on 4xx`),
    mustFail: [{ check: 'auth', environment: 'sandbox' }, { check: 'headers-4xx' }],
  },
  'headers.remaining-not-decreasing': {
    grep: remainingStep('reseller', 'production'),
    mustFail: [{ check: 'remaining-step', environment: 'production' }],
  },
  'headers.remaining-rising': {
    grep: remainingStep('vendor', 'production'),
    mustFail: [{ check: 'remaining-step', environment: 'production' }],
  },
  'headers.sandbox-frozen': { grep: remainingStep('reseller', 'sandbox'), mustFail: [{ check: 'remaining-step', environment: 'sandbox' }] },
  'headers.remaining-step-two': { grep: REMAINING_SEQUENCE, mustFail: [{ check: 'remaining-sequence' }] },
  'headers.remaining-after-zero': { grep: REMAINING_SEQUENCE, mustFail: [{ check: 'remaining-sequence' }] },
  'headers.reset-in-past': { grep: validCall('orders.details', 'production'), mustFail: [validCallCheck('orders.details', 'production')] },
  'headers.reset-not-integer': { grep: validCall('catalog.search', 'sandbox'), mustFail: [validCallCheck('catalog.search', 'sandbox')] },
  '429.no-errors': { grep: ERROR_429, mustFail: [{ check: '429-body' }] },
  '429.message-missing': { grep: ERROR_429, mustFail: [{ check: '429-body' }] },
  '429.field-missing': { grep: ERROR_429, mustFail: [{ check: '429-body' }] },
  '429.remaining-positive': { grep: HEADERS_429, mustFail: [{ check: '429-headers' }] },
  '429.no-headers': { grep: HEADERS_429, mustFail: [{ check: '429-headers' }] },
  '429.non-json': { grep: ERROR_429, mustFail: [{ check: '429-body' }] },
  '429.limit-differs': { grep: HEADERS_429, mustFail: [{ check: '429-headers' }] },
  'limits.extra-call': { grep: /allow exactly the advertised number/, mustFail: [{ check: 'limit-enforced' }] },
  'limits.shared-across-operations': { grep: /independent across operations/, mustFail: [{ check: 'bucket-per-operation' }] },
  'limits.shared-across-apps': { grep: /independent across apps/, mustFail: [{ check: 'bucket-per-app' }] },
  'limits.bucket-per-token': { grep: /second token's calls in the app's bucket/, mustFail: [{ check: 'bucket-per-app-token' }] },
  'limits.bucket-per-path': { grep: /one operation for two ids in one bucket/, mustFail: [{ check: 'bucket-per-endpoint-ids' }] },
  'limits.bucket-per-prefix': {
    grep: /operations that share a spent bucket/,
    mustFail: [{ check: 'bucket-per-endpoint-spent' }],
  },
  '429.sandbox-plain-text': {
    grep: /refuse a spent bucket in sandbox/,
    mustFail: [{ check: '429-per-environment', environment: 'sandbox' }],
  },
  '429.vendor-plain-text': {
    grep: new RegExp(bucketSpendsOf(['vendor.orders.search'], 'production')),
    mustFail: [{ check: 'bucket-spent', operation: 'vendor.orders.search', environment: 'production' }],
  },
  'paging.page-size-ignored': { grep: paging('orders.search', 'production'), mustFail: [pagingCheck('orders.search', 'production')] },
  'paging.page-repeated': { grep: paging('quotes.search', 'sandbox'), mustFail: [pagingCheck('quotes.search', 'sandbox')] },
  'paging.records-found-wrong': { grep: paging('catalog.search', 'production'), mustFail: [pagingCheck('catalog.search', 'production')] },
  'limits.late-refill': { grep: /refuse calls until the reset/, mustFail: [{ check: 'reset' }] },
  'limits.get-61': { grep: /60 calls per window on a GET/, mustFail: [{ check: 'get-limit' }] },
  'limits.header-differs': { grep: /allow exactly the advertised number/, mustFail: [{ check: 'limit-enforced' }] },
  'limits.post-refuses-early': {
    grep: new RegExp(bucketSpendsOf(['freight.estimate'], 'sandbox')),
    mustFail: [{ check: 'bucket-spent', operation: 'freight.estimate', environment: 'sandbox' }],
  },
  'auth.no-token-accepted': { grep: authGroup('production'), mustFail: [{ check: 'auth', environment: 'production' }] },
  'auth.garbage-token-accepted': { grep: authGroup('sandbox'), mustFail: [{ check: 'auth', environment: 'sandbox' }] },
  'auth.other-family-accepted': { grep: authGroup('production'), finding: { id: 'auth.other-family-token', observed: 'accepted' } },
  'auth.expired-accepted': { grep: /refresh the token at the earlier/, mustFail: [{ check: 'refresh' }] },
  'routing.no-sandbox': {
    grep: /same version segments/,
    mustFail: [{ check: 'same-versions' }],
  },
  'routing.v61-missing': { grep: /v6\.1 details/, mustFail: [{ check: 'v6.1' }] },
  'routing.non-json-content-type': {
    grep: validCall('orders.details', 'sandbox'),
    mustFail: [validCallCheck('orders.details', 'sandbox')],
  },
  'finding.vendor-list-answer': {
    grep: validCall('vendor.catalog.search', 'production'),
    finding: { id: 'shapes.not-published', observed: 'json-array' },
  },
  'webhooks.invalid-accepted': {
    grep: /whether a webhooks\.orderStatus event its schema refuses/,
    finding: { id: 'webhooks.invalid-event', observed: 'accepted' },
  },
  'finding.webhook-signature-ignored': {
    grep: /wrong x-hub-signature is refused/,
    finding: { id: 'webhooks.signature', observed: 'not-verified' },
  },
  'shapes.field-renamed': { grep: VALID_CALL, finding: { id: 'shapes.expected-field-absent', observed: 'absent' } },
  'shapes.pna-object': {
    grep: validCall('catalog.priceAndAvailability', 'sandbox'),
    mustFail: [validCallCheck('catalog.priceAndAvailability', 'sandbox')],
  },
  'orders.created-unknown': {
    grep: new RegExp(createReadBacksOf(['orders.create'], 'production')),
    mustFail: [{ check: 'created-order-details' }],
  },
  'answers.other-key': { grep: validCall('catalog.details', 'production'), mustFail: [validCallCheck('catalog.details', 'production')] },
  'answers.filter-ignored': {
    grep: new RegExp(filtersOf(['deals.search'], 'production')),
    mustFail: [{ check: 'search-filter', operation: 'deals.search', environment: 'production' }],
  },
  'answers.customer-order-number-ignored': {
    grep: new RegExp(filtersOf(['orders.search'], 'sandbox')),
    mustFail: [{ check: 'search-filter', operation: 'orders.search', environment: 'sandbox' }],
  },
  'answers.list-filter-ignored': {
    grep: new RegExp(filtersOf(['returns.search'], 'production')),
    mustFail: [{ check: 'search-filter', operation: 'returns.search', environment: 'production' }],
  },
  // The first Reset read fixes the run's unit: whichever family answers first, the other's check fails.
  'headers.vendor-reset-seconds': {
    grep: new RegExp(headerStepsOf(['catalog.search', 'vendor.orders.search'], 'sandbox')),
    mustFail: [
      { check: 'remaining-step', operation: 'catalog.search', environment: 'sandbox' },
      { check: 'remaining-step', operation: 'vendor.orders.search', environment: 'sandbox' },
    ],
  },
  'status.accepted-undocumented': {
    grep: validCall('invoices.details', 'sandbox'),
    mustFail: [validCallCheck('invoices.details', 'sandbox')],
  },
  'writes.cancel-ignored': {
    grep: new RegExp(writeReadBacksOf(['orders.cancel'], 'production')),
    mustFail: [{ check: 'cancel-read-back' }],
  },
  'writes.return-unknown': {
    grep: new RegExp(createReadBacksOf(['returns.create'], 'sandbox')),
    mustFail: [{ check: 'created-return-details' }],
  },
  'writes.modify-ignored': { grep: new RegExp(writeReadBacksOf(['orders.modify'], 'sandbox')), mustFail: [{ check: 'modify-read-back' }] },
  'routing.sandbox-search-not-served': {
    grep: validCall('deals.search', 'sandbox'),
    mustFail: [validCallCheck('deals.search', 'sandbox')],
  },
  'finding.missing-header-accepted': {
    grep: new RegExp(headerRefusalsOf(['required-header'])),
    finding: { id: 'headers.required-missing', observed: 'accepted' },
  },
  'finding.header-constraint-ignored': {
    grep: new RegExp(headerRefusalsOf(['header-constraint'])),
    finding: { id: 'headers.constraint-broken', observed: 'accepted' },
  },
  'finding.document-strict': {
    grep: new RegExp(headerRefusalsOf(['client-forms'])),
    finding: { id: 'openapi.client-conflict', observed: 'refused' },
  },
  'finding.reset-seconds': { grep: RATE_LIMIT_BUT_429, finding: { id: 'ratelimit.reset-unit', observed: 'seconds' } },
  'finding.token-get-rejected': { grep: tokenGroup('reseller', 'sandbox'), finding: { id: 'token.method', observed: 'post-only' } },
  'finding.token-get-accepted': { grep: tokenGroup('vendor', 'sandbox'), finding: { id: 'token.method', observed: 'get-accepted' } },
  'finding.expires-in-long': {
    grep: /token requests as documented|refresh the token at the earlier/,
    finding: { id: 'token.lifetime', observed: 'beyond-24h' },
  },
  // The input checks run grouped, one test per environment (contracts/inputs.spec.ts).
  'input.lenient': { grep: inputGroup('production'), finding: { id: 'input.lenient', observed: 'served' } },
  // invoices.details's one query parameter with a maxLength (customerType) is the value certify keeps at its bound, whatever the seed.
  'input.max-length-exclusive': {
    grep: inputGroup('sandbox'),
    mustFail: [{ check: 'input', operation: 'invoices.details', environment: 'sandbox' }],
  },
} as const satisfies Record<DriftId, Detection>;

/**
 * The text a drift mode's grep is matched against, as Playwright greps: the title path (file, describe
 * blocks, title) and the tags.
 */
export function grepTitle(titlePath: readonly string[], tags: readonly string[]): string {
  return [...titlePath, ...tags].join(' ');
}

/** The drift mode of a group that selects this test (groups hold modes whose tests are disjoint). */
export function modeOfTest(modes: readonly DriftId[], title: string): DriftId | undefined {
  return modes.find((m) => DETECTIONS[m].grep.test(title));
}

/**
 * Packs drift modes into groups whose selected tests do not overlap (greedy colouring, most-selected
 * first), so one project of the matrix run can serve several modes: each test runs under the one
 * mode of its group that selects it, switched on the mock before the test. Fewer projects, fewer
 * worker starts (a worker serves one project). A mode that selects no test gets a group of its own.
 */
export function groupModes(modes: readonly DriftId[], titles: readonly string[]): DriftId[][] {
  const selected = new Map(modes.map((m) => [m, new Set(titles.filter((t) => DETECTIONS[m].grep.test(t)))]));
  const order = [...modes].sort((a, b) => (selected.get(b)?.size ?? 0) - (selected.get(a)?.size ?? 0));
  const groups: { modes: DriftId[]; tests: Set<string> }[] = [];
  for (const m of order) {
    const tests = selected.get(m) ?? new Set<string>();
    const fits = tests.size > 0 ? groups.find((g) => g.tests.size > 0 && ![...tests].some((t) => g.tests.has(t))) : undefined;
    if (fits) {
      fits.modes.push(m);
      for (const t of tests) fits.tests.add(t);
    } else groups.push({ modes: [m], tests: new Set(tests) });
  }
  return groups.map((g) => g.modes);
}

/** The drift modes DRIFT_MATRIX_MODES names (comma-separated), all without it; throws on an unknown id. */
export function selectedModes(named = process.env.DRIFT_MATRIX_MODES ?? ''): DriftId[] {
  const ids = named.split(',').filter(Boolean);
  const known: readonly string[] = DRIFT_MODES.map((m) => m.id);
  const unknown = ids.filter((id) => !known.includes(id));
  if (unknown.length) throw new Error(`DRIFT_MATRIX_MODES names unknown drift mode(s) ${unknown.join(', ')}; known: ${known.join(', ')}`);
  return DRIFT_MODES.map((m) => m.id).filter((id) => !ids.length || ids.includes(id));
}

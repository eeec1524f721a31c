/**
 * What the contract suite must catch in each drift mode of the mock: which tests run (grep), which
 * must fail and for which reason (the failure text names the broken fact), or which finding must be
 * recorded. Used by the DRIFT_MATRIX projects of playwright.config.ts and by the detection matrix test.
 */
export interface Detection {
  /** Tests run in this mode (title + tags). */
  grep: RegExp;
  /** Titles of tests that must fail. */
  mustFail?: RegExp;
  /** The failure text of each of those tests must match. */
  reason?: RegExp;
  /** A finding that must be recorded (finding modes). */
  finding?: { id: string; observed: string; evidence?: RegExp };
}

/*
 * Where several tests can catch a mode (one per environment, family or operation), each mode selects
 * one of them, spread so that few modes share a test: the matrix run needs one project per mode that
 * shares a test (matrix-runner.ts), and each project costs a worker start.
 */
/** The token checks run grouped, one test per family and environment (support/checks.ts). */
const TOKEN_GROUP = /token requests as documented/;
const tokenGroup = (family: 'reseller' | 'vendor', env: 'production' | 'sandbox') =>
  new RegExp(`${family} token requests as documented \\(${env}\\)`);
/** The per-operation auth checks run grouped, one test per environment. */
const AUTH_GROUP = /refuse every operation without a valid token/;
const authGroup = (env: 'production' | 'sandbox') => new RegExp(`refuse every operation without a valid token.*\\(${env}\\)`);
/** The operations whose answers carry the fields shapes.field-renamed renames. */
const VALID_CALL = /valid (catalog\.search|orders\.details) call/;
const validCall = (op: 'catalog.search' | 'orders.details', env: 'production' | 'sandbox') =>
  new RegExp(`valid ${op.replace('.', '\\.')} call.*\\(${env}\\)`);
/** Every rate-limit check except the two on the 429 answer (four modes each select those already). */
const RATE_LIMIT_BUT_429 = /^(?!.*should answer 429).*@rate-limit/;
/** The whole exhaustion of a bucket, Remaining call by call. */
const REMAINING_SEQUENCE = /lower X-RateLimit-Remaining by exactly one per accepted call/;
const ERROR_429 = /429 with the spec's error body/;
const HEADERS_429 = /429 with Remaining 0 and all three/;

export const DETECTIONS: Readonly<Record<string, Detection>> = {
  'token.type-not-bearer': {
    grep: tokenGroup('reseller', 'production'),
    mustFail: TOKEN_GROUP,
    reason: /token response with access_token[^\n]*\n[\s\S]*token_type/,
  },
  'token.expires-in-string': { grep: tokenGroup('vendor', 'production'), mustFail: TOKEN_GROUP, reason: /expires_in: must be integer/ },
  'token.access-token-missing': {
    grep: tokenGroup('reseller', 'sandbox'),
    mustFail: TOKEN_GROUP,
    reason: /required property 'access_token'/,
  },
  'token.wrong-secret-accepted': {
    grep: tokenGroup('vendor', 'sandbox'),
    mustFail: TOKEN_GROUP,
    reason: /a token needs the app's client secret/,
  },
  'token.json-body-accepted': { grep: tokenGroup('reseller', 'production'), mustFail: TOKEN_GROUP, reason: /x-www-form-urlencoded/ },
  'token.no-ratelimit-headers': {
    grep: tokenGroup('vendor', 'production'),
    mustFail: TOKEN_GROUP,
    reason: /rate-limit headers on the \w+ token response[^\n]*\n[\s\S]*x-ratelimit-limit is absent/,
  },
  'token.refused-early': {
    grep: /keeps a token until the earlier of expires_in and 24 h/,
    finding: { id: 'token.refused-early', observed: 'refused-early', evidence: /issued at \S+, refused at \S+/ },
  },
  'headers.limit-missing-2xx': {
    grep: validCall('catalog.search', 'production'),
    mustFail: VALID_CALL,
    reason: /x-ratelimit-limit is absent/,
  },
  'headers.all-missing-4xx': {
    grep: new RegExp(`${authGroup('sandbox').source}|rate-limit headers on 4xx`),
    mustFail: /refuse every operation without a valid token|rate-limit headers on 4xx/,
    reason: /x-ratelimit-\w+ is absent/,
  },
  'headers.remaining-not-decreasing': {
    grep: /decrease X-RateLimit-Remaining/,
    mustFail: /decrease X-RateLimit-Remaining/,
    reason: /X-RateLimit-Remaining is the number of requests/,
  },
  'headers.remaining-rising': {
    grep: /decrease X-RateLimit-Remaining/,
    mustFail: /decrease X-RateLimit-Remaining/,
    reason: /X-RateLimit-Remaining is the number of requests/,
  },
  'headers.remaining-step-two': {
    grep: REMAINING_SEQUENCE,
    mustFail: REMAINING_SEQUENCE,
    reason: /one less per accepted call[\s\S]*lowered by 2 between IM-CorrelationID \w+ and IM-CorrelationID \w+/,
  },
  'headers.remaining-after-zero': {
    grep: REMAINING_SEQUENCE,
    mustFail: REMAINING_SEQUENCE,
    reason:
      /no call is accepted after Remaining 0[\s\S]*IM-CorrelationID \w+ answered Remaining 0, then IM-CorrelationID \w+ answered 2\d\d/,
  },
  'headers.reset-in-past': {
    grep: validCall('orders.details', 'production'),
    mustFail: VALID_CALL,
    reason: /X-RateLimit-Reset \d+ is in the past/,
  },
  'headers.reset-not-integer': {
    grep: validCall('catalog.search', 'sandbox'),
    mustFail: VALID_CALL,
    reason: /x-ratelimit-reset is "[\d.]+", not an integer/,
  },
  '429.no-errors': {
    grep: ERROR_429,
    mustFail: ERROR_429,
    reason: /the 429 body is JSON with errors\[\][\s\S]*required property 'errors'/,
  },
  '429.message-missing': { grep: ERROR_429, mustFail: ERROR_429, reason: /required property 'message'/ },
  '429.field-missing': { grep: ERROR_429, mustFail: ERROR_429, reason: /required property 'field'/ },
  '429.remaining-positive': { grep: HEADERS_429, mustFail: HEADERS_429, reason: /X-RateLimit-Remaining is 0 on a 429/ },
  '429.no-headers': { grep: HEADERS_429, mustFail: HEADERS_429, reason: /x-ratelimit-\w+ is absent/ },
  '429.non-json': { grep: ERROR_429, mustFail: ERROR_429, reason: /the body is not JSON/ },
  '429.limit-differs': {
    grep: HEADERS_429,
    mustFail: HEADERS_429,
    reason: /the X-RateLimit-Limit of a 429 is the limit[\s\S]*IM-CorrelationID \S+\)[\s\S]*IM-CorrelationID \S+\)/,
  },
  'limits.extra-call': {
    grep: /allow exactly the advertised number/,
    mustFail: /allow exactly the advertised number/,
    reason: /X-RateLimit-Limit is the limit enforced/,
  },
  'limits.shared-across-operations': {
    grep: /independent across operations/,
    mustFail: /independent across operations/,
    reason: /limits are per endpoint/,
  },
  'limits.shared-across-apps': { grep: /independent across apps/, mustFail: /independent across apps/, reason: /allocated per API app/ },
  'limits.late-refill': {
    grep: /refuse calls until the reset/,
    mustFail: /refuse calls until the reset/,
    reason: /only until the refresh period ends/,
  },
  'limits.get-61': {
    grep: /60 calls per window on a GET/,
    mustFail: /60 calls per window on a GET/,
    reason: /60 calls per minute per endpoint/,
  },
  'limits.header-differs': {
    grep: /allow exactly the advertised number/,
    mustFail: /allow exactly the advertised number/,
    reason: /X-RateLimit-Limit is the limit enforced/,
  },
  'auth.no-token-accepted': { grep: authGroup('production'), mustFail: AUTH_GROUP, reason: /401 or 403 without Authorization/ },
  'auth.garbage-token-accepted': { grep: authGroup('sandbox'), mustFail: AUTH_GROUP, reason: /401 or 403 for a garbage token/ },
  'auth.other-family-accepted': { grep: authGroup('production'), finding: { id: 'auth.other-family-token', observed: 'accepted' } },
  'auth.expired-accepted': {
    grep: /refresh the token at the earlier/,
    mustFail: /refresh the token at the earlier/,
    reason: /a token expires after 24 hours/,
  },
  'routing.no-sandbox': {
    grep: /valid catalog\.search call .*\(sandbox\)|same version segments/,
    mustFail: /valid catalog\.search call .*\(sandbox\)|same version segments/,
    reason: /is served \(sandbox\)|sandbox adds the prefix|token endpoint \(sandbox\) answered 404: the token endpoint is not served/,
  },
  'routing.v61-missing': {
    grep: /v6\.1 details/,
    mustFail: /v6\.1 details/,
    // The id comes from the target's search, so a missing v6.1 route answers 404 for a listed id.
    reason: /version 6\.1|is served at \/resellers\/v6\.1\//,
  },
  'routing.non-json-content-type': {
    grep: validCall('orders.details', 'sandbox'),
    mustFail: VALID_CALL,
    reason: /Broken fact: responses are JSON/,
  },
  'webhooks.invalid-accepted': {
    grep: /reject an invalid webhooks/,
    mustFail: /reject an invalid webhooks/,
    reason: /an invalid event is rejected/,
  },
  'finding.webhook-signature-ignored': {
    grep: /wrong x-hub-signature is refused/,
    finding: { id: 'webhooks.signature', observed: 'not-verified', evidence: /wrong x-hub-signature/ },
  },
  'shapes.field-renamed': {
    grep: VALID_CALL,
    mustFail: VALID_CALL,
    reason: /published shape[\s\S]*must have required property '(ingramPartNumber|ingramOrderNumber)'/,
  },
  'shapes.pna-object': {
    grep: /valid catalog\.priceAndAvailability call/,
    mustFail: /valid catalog\.priceAndAvailability call/,
    reason: /published shape[\s\S]*must be array/,
  },
  'orders.created-unknown': {
    grep: /created order with orders\.details/,
    mustFail: /created order with orders\.details/,
    reason: /the created order \S+ is known to orders\.details/,
  },
  'finding.missing-header-accepted': {
    grep: /missing a required header/,
    finding: { id: 'headers.required-missing', observed: 'accepted', evidence: /IM-CustomerNumber omitted/ },
  },
  'finding.header-constraint-ignored': {
    grep: /longer than the document allows/,
    finding: { id: 'headers.constraint-broken', observed: 'accepted', evidence: /IM-CorrelationID of 33 characters/ },
  },
  'finding.document-strict': {
    grep: /distributor client's forms/,
    finding: { id: 'openapi.client-conflict', observed: 'refused' },
  },
  'finding.reset-seconds': { grep: RATE_LIMIT_BUT_429, finding: { id: 'ratelimit.reset-unit', observed: 'seconds' } },
  'finding.token-get-rejected': { grep: tokenGroup('reseller', 'sandbox'), finding: { id: 'token.method', observed: 'post-only' } },
  'finding.token-get-accepted': { grep: tokenGroup('vendor', 'sandbox'), finding: { id: 'token.method', observed: 'get-accepted' } },
  'finding.expires-in-long': {
    grep: /token requests as documented|refresh the token at the earlier/,
    finding: { id: 'token.lifetime', observed: 'beyond-24h', evidence: /expires_in=315360000/ },
  },
};

/** Must this check fail in this drift mode (its failure is what catches the drift)? */
export function mustFailIn(mode: string, title: string): boolean {
  return !!mode && !!DETECTIONS[mode]?.mustFail?.test(title);
}

/**
 * The text a drift mode's grep is matched against, as Playwright greps: the title path (file, describe
 * blocks, title) and the tags.
 */
export function grepTitle(titlePath: readonly string[], tags: readonly string[]): string {
  return [...titlePath, ...tags].join(' ');
}

/** The drift mode of a group that selects this test (groups hold modes whose tests are disjoint). */
export function modeOfTest(modes: readonly string[], title: string): string | undefined {
  return modes.find((m) => DETECTIONS[m]?.grep.test(title));
}

/**
 * Packs drift modes into groups whose selected tests do not overlap (greedy colouring, most-selected
 * first), so one project of the matrix run can serve several modes: each test runs under the one
 * mode of its group that selects it, switched on the mock before the test. Fewer projects, fewer
 * worker starts (a worker serves one project). A mode that selects no test gets a group of its own.
 */
export function groupModes(modes: readonly string[], titles: readonly string[]): string[][] {
  const selected = new Map(modes.map((m) => [m, new Set(titles.filter((t) => DETECTIONS[m]?.grep.test(t)))]));
  const order = [...modes].sort((a, b) => (selected.get(b)?.size ?? 0) - (selected.get(a)?.size ?? 0));
  const groups: { modes: string[]; tests: Set<string> }[] = [];
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

/**
 * Where the spec conflicts with itself or is silent. The harness never guesses these: it probes
 * the target and records a finding (which statement the target follows, with evidence). A policy
 * file can promote a finding to a failure or pin the expected `observed` value.
 */
export interface FindingDefinition {
  /** Stable id, used by policy files and regression diffs. */
  readonly id: string;
  readonly kind: 'conflict' | 'gap';
  /** The spec statement(s) concerned, quoted or paraphrased with their section. */
  readonly statement: string;
  /** Machine-comparable answers the probe can record. */
  readonly observedValues: readonly string[];
}

const defs: readonly FindingDefinition[] = [
  {
    id: 'token.method',
    kind: 'conflict',
    statement: 'Token endpoint: a listing gives the reseller token method as GET; the instructions use a form-body POST (documented).',
    observedValues: ['post-only', 'get-accepted'],
  },
  {
    id: 'headers.required-missing',
    kind: 'gap',
    statement:
      'Published document: IM-CustomerNumber, IM-CountryCode and IM-CorrelationID are required request headers on every business call; whether the service refuses a call without one is not shown.',
    observedValues: ['refused', 'accepted'],
  },
  {
    id: 'headers.constraint-broken',
    kind: 'gap',
    statement:
      'Published document: IM-CorrelationID is at most 32 characters (IM-CustomerNumber 10, IM-CountryCode 2, IM-SenderID 32, ...); whether the service refuses a longer value is not shown.',
    observedValues: ['refused', 'accepted'],
  },
  {
    id: 'webhooks.signature',
    kind: 'gap',
    statement:
      'Published document: webhook calls carry x-hub-signature, made with the app secret over the event id (ASSUMPTION: HMAC-SHA512, base64); whether a wrong signature is refused is not shown.',
    observedValues: ['verified', 'not-verified'],
  },
  {
    id: 'openapi.client-conflict',
    kind: 'conflict',
    statement:
      "The distributor's generated client and its published document disagree, and so do the document's two published forms (reseller-api.yaml and reseller-api.json, one commit; npm run openapi -- diff): deals.details vendorName (the YAML form requires the query parameter; the JSON form has none and the client cannot send it), freight.estimate shipToAddress (the YAML form gives an object; the JSON form an array of any length, which the client's model sends with one element), returns.create list[].invoiceDate as a date-time (both forms give format: date; the client's models send a Date so). The catalogue follows the YAML form: its requests send vendorName and shipToAddress as an object.",
    observedValues: ['accepted', 'refused'],
  },
  {
    id: 'token.lifetime',
    kind: 'conflict',
    statement: 'Authentication 5: the token expires every 24 hours; the sample expires_in is 2592000 seconds (30 days).',
    observedValues: ['within-24h', 'beyond-24h'],
  },
  {
    id: 'token.refused-early',
    kind: 'gap',
    statement:
      'Authentication 5: a token lasts 24 hours (guidance) or expires_in seconds, and a client must be ready to request a new token at any time; how much earlier the service may refuse a token is not shown.',
    observedValues: ['kept', 'refused-early'],
  },
  {
    id: 'token.rejection-shape',
    kind: 'gap',
    statement: 'Errors 4: responses to bad token requests are not shown; only the 429 error body shape is given.',
    observedValues: ['error-body', 'other-body'],
  },
  {
    id: 'auth.other-family-token',
    kind: 'gap',
    statement: "Authentication 6: vendors use oauth30, resellers oauth20; whether one family's token is refused by the other is not shown.",
    observedValues: ['rejected', 'accepted'],
  },
  {
    id: 'auth.missing-token-status',
    kind: 'gap',
    statement: 'Errors 4: the response to a missing or invalid token is not shown.',
    observedValues: ['401', '403', 'other'],
  },
  {
    id: 'ratelimit.reset-unit',
    kind: 'conflict',
    statement: 'Errors 2: an X-RateLimit header tells how many seconds to wait; X-RateLimit-Reset is given as an epoch time.',
    observedValues: ['epoch', 'seconds', 'absent'],
  },
  {
    id: 'ratelimit.write-limits',
    kind: 'gap',
    statement: 'Limits 3 and 5: limits of POST, PUT and DELETE calls depend on the endpoint and are not shown.',
    observedValues: ['recorded'],
  },
  {
    id: 'environments.vendor-sandbox-base',
    kind: 'conflict',
    statement:
      'Environments: the vendor sandbox base is {base_url}/sandbox; Versioning 2: the sandbox only adds the /sandbox prefix (so /sandbox/vendors/v1).',
    observedValues: ['prefix-rule', 'table-literal', 'both', 'neither'],
  },
  {
    id: 'shapes.not-published',
    kind: 'gap',
    statement:
      'Vendor family endpoints: "The concrete operation paths, methods and payloads are only shown as a placeholder path"; quote to order (POST /resellers/v6/q2o/orders, Reseller family endpoints) is absent from the published document. No document gives the shape of these answers: certify records what the target answered (status, content type, top-level keys) and judges the shape only against a supplied OPENAPI document that gives the path.',
    observedValues: ['json-object', 'json-array', 'other'],
  },
  {
    id: 'shapes.expected-field-absent',
    kind: 'gap',
    statement:
      'Endpoints: business bodies are not shown; the published document (both forms) requires no field of any answer. A client relies on the ids, the paging fields (recordsFound, pageSize, pageNumber) and the lists of the answers (catalogue/answers.ts EXPECTED_FIELDS: e.g. catalog.search catalog[].ingramPartNumber, orders.details ingramOrderNumber and orderStatus); whether a target sends them is recorded, with the operation:field list of those it lacks.',
    observedValues: ['all-present', 'absent'],
  },
  {
    id: 'input.lenient',
    kind: 'gap',
    statement:
      "Published document: each operation's query parameters and body fields have constraints (type, format, enum, maxLength, range, required) that both published forms give; whether the service refuses a value breaking one is not shown (certify tries a few per operation, seeded).",
    observedValues: ['refused', 'served'],
  },
  {
    id: 'webhooks.invalid-event',
    kind: 'gap',
    statement:
      'Published document: the webhook calls answer "200 OK" or "500 Internal Server Error"; their event schemas (OrderStatusAsyncNotificationRequest, AvailabilityAsyncNotificationRequest) require no field and type eventId as a string; whether the service refuses an event its schema refuses is not shown.',
    observedValues: ['refused', 'accepted'],
  },
  {
    id: 'webhooks.push',
    kind: 'gap',
    statement: 'Events 2: which side sends event payloads, signing, delivery and retries are not shown.',
    observedValues: ['pushed-signed', 'pushed-unsigned', 'not-pushed', 'not-run'],
  },
  {
    id: 'errors.fixture-unknown',
    kind: 'gap',
    statement: 'Endpoints: business bodies and ids are not shown; a fixture id may be unknown to a real target (404 recorded, not failed).',
    observedValues: ['found', 'not-found'],
  },
  {
    id: 'openapi.token-response',
    kind: 'conflict',
    statement:
      'Access token response: access_token string, token_type string (Bearer), expires_in integer; an imported OpenAPI document may say otherwise.',
    observedValues: ['agrees', 'differs'],
  },
  {
    id: 'openapi.token-method',
    kind: 'conflict',
    statement: 'Token endpoint: the documented method is a form-body POST; an imported OpenAPI document may give another method or body.',
    observedValues: ['agrees', 'differs'],
  },
  {
    id: 'openapi.path-spelling',
    kind: 'conflict',
    statement:
      "Reseller family endpoints table: the spec's path of an operation (trailing slash, path parameter names and casing); an imported OpenAPI document may spell it otherwise.",
    observedValues: ['agrees', 'differs'],
  },
  {
    id: 'openapi.operation-absent',
    kind: 'conflict',
    statement: 'Reseller family endpoints table: every listed operation exists; an imported OpenAPI document may not document one of them.',
    observedValues: ['present', 'absent'],
  },
  {
    id: 'ratelimit.document-operation-limits',
    kind: 'gap',
    statement:
      'Limits: neither the spec nor the published document gives limits for the operations the document adds (catalog.detailsByReference, orders.createV7, orders.vendorRequiredInfo, quotes.create); the catalogue assumes one by class: a GET the GET limit, a lookup by POST the price and availability limit, a write the write limit.',
    observedValues: ['recorded'],
  },
  {
    id: 'openapi.operation-one-form',
    kind: 'conflict',
    statement:
      "The published document's two forms disagree on operations: POST /resellers/v7/vendorrequiredinfo (orders.vendorRequiredInfo) is in the YAML form only, POST /resellers/v6/quotes/create (quotes.create) in the JSON form only; the catalogue serves both.",
    observedValues: ['present', 'absent'],
  },
  {
    id: 'writes.created-visible',
    kind: 'gap',
    statement:
      'Published document: order create v7 and quote create answer a confirmation and process the request asynchronously (Order Status and Quote Status webhooks); return create answers the case request number; when the created order, quote or return is found by search and details is not shown.',
    observedValues: ['visible', 'not-visible'],
  },
  {
    id: 'writes.read-back',
    kind: 'gap',
    statement:
      'Published document: a cancelled order reads back Canceled (CANCELLED in the search filter), a modified order reads back its new notes; when a cancel or a modify takes effect is not shown.',
    observedValues: ['changed', 'unchanged', 'unreadable'],
  },
  {
    id: 'status.success-not-shown',
    kind: 'gap',
    statement:
      'The vendor family (a placeholder in the seed) and quote to order (absent from the published document): the success status is not shown; the catalogue assumes one.',
    observedValues: ['200', '201', '202', '203', '204', '206', '207'],
  },
  {
    id: 'paging.records-found-changed',
    kind: 'gap',
    statement:
      'Published document: recordsFound is the number of records found for the search, pageSize the records required in the call, pageNumber the page; whether recordsFound stays the same between two pages of one search, nothing written between them, is not shown.',
    observedValues: ['stable', 'changed'],
  },
];

export const findingDefinitions: readonly FindingDefinition[] = defs;

export function findingDefinition(id: string): FindingDefinition {
  const d = defs.find((x) => x.id === id);
  if (!d) throw new Error(`unknown finding id "${id}"; known: ${defs.map((x) => x.id).join(', ')}`);
  return d;
}

/**
 * One fast test per drift mode (Fastify inject(), no certification run): the same requests against the
 * conforming mock and against the mock in the mode, each answer reduced to named readings; the mode must
 * change the readings it claims to change and leave every other one as it was. The detection matrix proves
 * the contract suite catches each mode; this proves each mode breaks what it says, and only that.
 * A new mode needs its entry in SCENARIOS (the compiler asks for it).
 */
import { test, expect } from '@playwright/test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { absentFields, allOperations, EXPECTED_FIELDS, familyBase, fillPath, type Operation } from '../../catalogue';
import { knownIds, requestFor, world } from '../../fixtures';
import { DRIFT_MODES, ManualClock, type MockOptions } from '../../mock';
import type { DriftId } from '../../mock/drift';
import { app, authed, bearer, FORM, IM, RESELLER, RESELLER_B, VENDOR, webhookHeaders } from './helpers';

type Readings = Record<string, unknown>;
type Observe = (a: FastifyInstance, clock: ManualClock) => Promise<Readings>;
interface Scenario {
  observe: Observe;
  /** The readings the mode changes; every other one must stay as the conforming mock gives it. */
  changes: readonly string[];
  /** Options of both mocks (a reading the mode switches, set to the conforming other one). */
  base?: MockOptions;
}

const START = 1_800_000_000_000;
const TOKEN_PATH = '/oauth/oauth20/token';
const CATALOG = '/resellers/v6/catalog';
const JSON_CT = { 'content-type': 'application/json' };
const op = (id: string): Operation => allOperations().find((o) => o.id === id) as Operation;

async function tokenOf(a: FastifyInstance, form = RESELLER, path = TOKEN_PATH): Promise<string> {
  const r = await a.inject({ method: 'POST', url: path, headers: FORM, payload: form });
  return (JSON.parse(r.body) as { access_token?: string }).access_token ?? '';
}

/** One call of a catalogued operation with its fixture request; `headers` replace the caller's. */
async function callOp(a: FastifyInstance, id: string, headers: Record<string, string>, env: 'production' | 'sandbox' = 'production') {
  const o = op(id);
  const r0 = requestFor(o);
  const q = new URLSearchParams(r0.query).toString();
  const url = `${familyBase(o.family, env)}${fillPath(o.path, { ...knownIds(), ...r0.params })}${q ? `?${q}` : ''}`;
  return a.inject({
    method: o.method,
    url,
    headers: { ...headers, ...(r0.body ? JSON_CT : {}), ...(r0.headers ?? {}), ...(o.webhook ? webhookHeaders(r0.body) : {}) },
    ...(r0.body ? { payload: JSON.stringify(r0.body) } : {}),
  });
}

const parse = (body: string): unknown => {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
};

/** The token answer. */
const tokenAnswer: Observe = async (a) => {
  const r = await a.inject({ method: 'POST', url: TOKEN_PATH, headers: FORM, payload: RESELLER });
  const b = parse(r.body) as Record<string, unknown>;
  return {
    status: r.statusCode,
    tokenType: b.token_type,
    expiresInType: typeof b.expires_in,
    expiresInBeyond24h: Number(b.expires_in) > 86_400,
    accessToken: typeof b.access_token === 'string',
    rateLimitHeaders: r.headers['x-ratelimit-limit'] !== undefined,
  };
};

/** What the token endpoint refuses. */
const tokenRefusals: Observe = async (a) => ({
  wrongSecret: (await a.inject({ method: 'POST', url: TOKEN_PATH, headers: FORM, payload: RESELLER.replace('-secret', '-wrong') }))
    .statusCode,
  jsonBody: (
    await a.inject({
      method: 'POST',
      url: TOKEN_PATH,
      headers: JSON_CT,
      payload: { grant_type: 'client_credentials', client_id: 'demo-reseller', client_secret: 'demo-reseller-secret' },
    })
  ).statusCode,
  byGet: (await a.inject({ method: 'GET', url: `${TOKEN_PATH}?${RESELLER}` })).statusCode,
});

/** Five accepted calls (a limit of 8), then a 4xx one (no token), read by their rate-limit headers. */
const headersOf: Observe = async (a, clock) => {
  const t = authed(await tokenOf(a));
  const accepted = [];
  for (let i = 0; i < 5; i++) accepted.push(await a.inject({ method: 'GET', url: CATALOG, headers: t }));
  const [r1, r2] = accepted as [LightMyRequestResponse, LightMyRequestResponse];
  const r4 = await a.inject({ method: 'GET', url: CATALOG, headers: IM });
  const reset = Number(r2.headers['x-ratelimit-reset']);
  const remaining = accepted.map((r) => Number(r.headers['x-ratelimit-remaining']));
  return {
    statuses: [...accepted.map((r) => r.statusCode), r4.statusCode],
    limit2xx: r1.headers['x-ratelimit-limit'],
    remainingSteps: remaining.slice(1).map((r, i) => (remaining[i] as number) - r),
    resetInteger: Number.isInteger(reset),
    // In the future: a later epoch second, or a positive number of seconds to wait.
    resetFuture: reset > 1e9 ? reset > clock.now() / 1000 : reset > 0,
    resetAsEpoch: reset > 1e9,
    headers4xx: r4.headers['x-ratelimit-remaining'] !== undefined,
    contentType: String(r1.headers['content-type']).split(';')[0],
  };
};

/** A limit of 2 exhausted: three calls, the 429, other operations and apps, the next window. */
const limitsOf: Observe = async (a, clock) => {
  const t = authed(await tokenOf(a));
  const calls = [];
  for (let i = 0; i < 4; i++) calls.push(await a.inject({ method: 'GET', url: CATALOG, headers: t }));
  const statuses = calls.map((r) => r.statusCode);
  const over = await a.inject({ method: 'GET', url: CATALOG, headers: t });
  const b = parse(over.body) as { errors?: { message?: unknown; field?: unknown }[] } | undefined;
  const otherOperation = (await a.inject({ method: 'GET', url: '/resellers/v6/deals/search', headers: t })).statusCode;
  const otherApp = (await a.inject({ method: 'GET', url: CATALOG, headers: authed(await tokenOf(a, RESELLER_B)) })).statusCode;
  clock.advance(1000);
  const nextWindow = (await a.inject({ method: 'GET', url: CATALOG, headers: t })).statusCode;
  return {
    statuses,
    // The first two calls, accepted by the conforming mock.
    remainings: calls.slice(0, 2).map((r) => r.headers['x-ratelimit-remaining']),
    overStatus: over.statusCode,
    json429: b !== undefined,
    errors429: Array.isArray(b?.errors),
    message429: typeof b?.errors?.[0]?.message === 'string',
    field429: b?.errors?.[0] !== undefined && (b.errors[0].field === null || typeof b.errors[0].field === 'string'),
    remaining429: over.headers['x-ratelimit-remaining'],
    limit429: over.headers['x-ratelimit-limit'],
    otherOperation,
    otherApp,
    nextWindow,
  };
};
const LIMIT_2: MockOptions = { limits: { 'catalog.search': 2, 'deals.search': 2 }, windowMs: 1000 };

const LIMIT_8: MockOptions = { limits: { 'catalog.search': 8 } };

/** 61 calls of a GET operation without a configured limit. */
const sixtyOneGets: Observe = async (a) => {
  const t = authed(await tokenOf(a));
  let accepted = 0;
  for (let i = 0; i < 61; i++) if ((await a.inject({ method: 'GET', url: CATALOG, headers: t })).statusCode === 200) accepted++;
  return { accepted };
};

/** Calls with a missing, garbage, other family's and expired token, and a token seconds after its first use. */
const authOf: Observe = async (a, clock) => {
  const t = await tokenOf(a);
  const first = (await a.inject({ method: 'GET', url: CATALOG, headers: authed(t) })).statusCode;
  clock.advance(5000);
  const secondsLater = (await a.inject({ method: 'GET', url: CATALOG, headers: authed(t) })).statusCode;
  const vendor = await tokenOf(a, VENDOR, '/oauth/oauth30/token');
  const readings = {
    first,
    secondsLater,
    noToken: (await a.inject({ method: 'GET', url: CATALOG, headers: IM })).statusCode,
    garbageToken: (await a.inject({ method: 'GET', url: CATALOG, headers: { ...IM, ...bearer('garbage-token') } })).statusCode,
    otherFamily: (await a.inject({ method: 'GET', url: CATALOG, headers: authed(vendor) })).statusCode,
  };
  clock.advance(25 * 3600 * 1000);
  return { ...readings, expired: (await a.inject({ method: 'GET', url: CATALOG, headers: authed(t) })).statusCode };
};

/** Where the API is served, what it answers, what it refuses. */
const servingOf: Observe = async (a) => {
  const t = authed(await tokenOf(a));
  const sandboxToken = authed(await tokenOf(a, RESELLER, `/sandbox${TOKEN_PATH}`));
  const created = await callOp(a, 'orders.create', t);
  const orderNumber = (parse(created.body) as { orders?: { ingramOrderNumber?: string }[] })?.orders?.[0]?.ingramOrderNumber;
  const details = orderNumber
    ? (await a.inject({ method: 'GET', url: `/resellers/v6.1/orders/${orderNumber}`, headers: t })).statusCode
    : 0;
  const catalog = parse((await a.inject({ method: 'GET', url: CATALOG, headers: t })).body);
  const orderDetails = await callOp(a, 'orders.details', t);
  const detailsAbsent = orderDetails.statusCode === 200 ? absentFields(parse(orderDetails.body), EXPECTED_FIELDS['orders.details']) : [];
  const pna = parse((await callOp(a, 'catalog.priceAndAvailability', t)).body);
  const { 'IM-CustomerNumber': _, ...withoutCustomer } = t;
  return {
    sandbox: (await a.inject({ method: 'GET', url: `/sandbox${CATALOG}`, headers: sandboxToken })).statusCode,
    v61OrderDetails: orderDetails.statusCode,
    createdOrderDetails: details,
    // The fields a client needs that the answers lack (finding shapes.expected-field-absent).
    expectedAbsent: [...absentFields(catalog, EXPECTED_FIELDS['catalog.search']), ...detailsAbsent],
    pnaArray: Array.isArray(pna),
    missingHeader: (await a.inject({ method: 'GET', url: CATALOG, headers: withoutCustomer })).statusCode,
    longHeader: (await a.inject({ method: 'GET', url: CATALOG, headers: { ...t, 'IM-SenderID': 'x'.repeat(200) } })).statusCode,
  };
};

/** Webhook events: an invalid one, and a valid one with a wrong signature. */
const webhooksOf: Observe = async (a) => {
  const t = authed(await tokenOf(a));
  const o = op('webhooks.orderStatus');
  const event = requestFor(o).body as Record<string, unknown>;
  const post = (payload: unknown, headers: Record<string, string>) =>
    a.inject({ method: 'POST', url: o.path, headers: { ...t, ...JSON_CT, ...headers }, payload: JSON.stringify(payload) });
  return {
    valid: (await post(event, webhookHeaders(event))).statusCode,
    // Invalid by the published schema: eventId is a string there.
    invalid: (await post({ eventId: 42 }, webhookHeaders({ eventId: 42 }))).statusCode,
    wrongSignature: (await post(event, { ...webhookHeaders(event), 'x-hub-signature': 'AAAA' })).statusCode,
  };
};

/** The client's form of a documented conflict (deals.details without vendorName). */
const conflictOf: Observe = async (a) => {
  const t = authed(await tokenOf(a));
  const o = op('deals.details');
  const r0 = requestFor(o);
  const query = new URLSearchParams(Object.entries(r0.query ?? {}).filter(([k]) => k !== 'vendorName')).toString();
  const url = `${familyBase(o.family, 'production')}${fillPath(o.path, { ...knownIds(), ...r0.params })}${query ? `?${query}` : ''}`;
  return { withoutVendorName: (await a.inject({ method: 'GET', url, headers: t })).statusCode };
};

/** Answers about what was asked, the documented status, writes read back, what the sandbox serves. */
const answersOf: Observe = async (a) => {
  const t = authed(await tokenOf(a));
  const ids = knownIds();
  const json = (r: LightMyRequestResponse) => (parse(r.body) ?? {}) as Record<string, unknown>;
  const details = await a.inject({ method: 'GET', url: `/resellers/v6/catalog/details/${ids.partNumber}`, headers: t });
  const deals = json(await a.inject({ method: 'GET', url: `/resellers/v6/deals/search?dealId=${ids.dealId}`, headers: t }));
  const orderOf = async () =>
    String((json(await callOp(a, 'orders.create', t)).orders as { ingramOrderNumber?: string }[] | undefined)?.[0]?.ingramOrderNumber);
  const readBack = async (n: string) => json(await a.inject({ method: 'GET', url: `/resellers/v6.1/orders/${n}`, headers: t }));
  const cancelled = await orderOf();
  await a.inject({ method: 'DELETE', url: `/resellers/v6/orders/${cancelled}`, headers: t });
  const modified = await orderOf();
  const modify = { ...(requestFor(op('orders.modify'), 1, 0, ids).body as object), notes: 'Modified notes' };
  await a.inject({
    method: 'PUT',
    url: `/resellers/v6/orders/${modified}`,
    headers: { ...t, ...JSON_CT },
    payload: JSON.stringify(modify),
  });
  const created = json(await callOp(a, 'returns.create', t));
  const caseNumber = (created.returnsClaims as { caseRequestNumber?: string }[] | undefined)?.[0]?.caseRequestNumber;
  const sandboxToken = authed(await tokenOf(a, RESELLER, `/sandbox${TOKEN_PATH}`));
  return {
    detailsStatus: details.statusCode,
    detailsBody: details.body,
    detailsAboutPartAsked: json(details).ingramPartNumber === ids.partNumber,
    dealsAllMatchFilter: ((deals.deals ?? []) as { dealId?: string }[]).every((d) => d.dealId === ids.dealId),
    cancelledReadsBack: (await readBack(cancelled)).orderStatus,
    modifiedNotesReadBack: (await readBack(modified)).notes,
    createdReturnDetails: (await a.inject({ method: 'GET', url: `/resellers/v6/returns/${caseNumber}`, headers: t })).statusCode,
    sandboxDealSearch: (await a.inject({ method: 'GET', url: '/sandbox/resellers/v6/deals/search', headers: sandboxToken })).statusCode,
    productionDealSearch: (await a.inject({ method: 'GET', url: '/resellers/v6/deals/search', headers: t })).statusCode,
  };
};

/** Three calls in each environment, read by how much Remaining steps down between them. */
const environmentsOf: Observe = async (a) => {
  const steps = async (prefix: string) => {
    const t = authed(await tokenOf(a, RESELLER, `${prefix}${TOKEN_PATH}`));
    const r: number[] = [];
    for (let i = 0; i < 3; i++)
      r.push(Number((await a.inject({ method: 'GET', url: `${prefix}${CATALOG}`, headers: t })).headers['x-ratelimit-remaining']));
    return r.slice(1).map((x, i) => (r[i] as number) - x);
  };
  return { productionSteps: await steps(''), sandboxSteps: await steps('/sandbox') };
};

/** A vendor operation's answer: its top-level form. */
const vendorAnswerOf: Observe = async (a) => {
  const t = authed(await tokenOf(a, VENDOR, '/oauth/oauth30/token'));
  const vendorOp = allOperations().find((o) => o.family === 'vendor' && o.method === 'GET') as Operation;
  const r = await callOp(a, vendorOp.id, t);
  return { status: r.statusCode, topLevelList: Array.isArray(parse(r.body)) };
};

/** Whose bucket a call counts in: a second token, a second id, the details of a searched resource; Remaining of each. */
const bucketOwnersOf: Observe = async (a) => {
  const [t, second] = [authed(await tokenOf(a)), authed(await tokenOf(a))];
  const remainingOf = async (url: string, headers: Record<string, string>) =>
    Number((await a.inject({ method: 'GET', url, headers })).headers['x-ratelimit-remaining']);
  const twice = async (url: string) => (await remainingOf(url, t), await remainingOf(url, t));
  const [p1, p2] = world().products.map((p) => p.ingramPartNumber);
  await twice('/resellers/v6/invoices/');
  const secondToken = await remainingOf('/resellers/v6/invoices/', second);
  await twice(`/resellers/v6/catalog/details/${p1}`);
  const secondId = await remainingOf(`/resellers/v6/catalog/details/${p2}`, t);
  await twice('/resellers/v6/orders/search');
  const detailsAfterSearch = await remainingOf(`/resellers/v6.1/orders/${knownIds().orderNumber}`, t);
  return { secondToken, secondId, detailsAfterSearch };
};

/** A limit of 2 spent in each environment: the 429's content type. */
const refusalsByEnvironmentOf: Observe = async (a) => {
  const refusal = async (prefix: string) => {
    const t = authed(await tokenOf(a, RESELLER, `${prefix}${TOKEN_PATH}`));
    let last: LightMyRequestResponse | undefined;
    for (let i = 0; i < 3; i++) last = await a.inject({ method: 'GET', url: `${prefix}${CATALOG}`, headers: t });
    return `${last?.statusCode} ${String(last?.headers['content-type']).split(';')[0]}`;
  };
  return { production429: await refusal(''), sandbox429: await refusal('/sandbox') };
};

/** A spent bucket of each family: the third call's status and content type. */
const refusalsByFamilyOf: Observe = async (a) => {
  const refusal = async (form: string, tokenPath: string, url: string) => {
    const t = authed(await tokenOf(a, form, tokenPath));
    let last: LightMyRequestResponse | undefined;
    for (let i = 0; i < 3; i++) last = await a.inject({ method: 'GET', url, headers: t });
    return `${last?.statusCode} ${String(last?.headers['content-type']).split(';')[0]}`;
  };
  return {
    reseller429: await refusal(RESELLER, TOKEN_PATH, CATALOG),
    vendor429: await refusal(VENDOR, '/oauth/oauth30/token', '/vendors/v1/orders/search'),
  };
};

/** Freight estimate called past 100 calls of a window: the status of the 101st. */
const freightPastHundredOf: Observe = async (a) => {
  const t = authed(await tokenOf(a));
  let last: LightMyRequestResponse | undefined;
  for (let i = 0; i < 101; i++) last = await callOp(a, 'freight.estimate', t);
  return { status101: last?.statusCode, limit: last?.headers['x-ratelimit-limit'] };
};

/** Two pages of two products: their sizes, keys and paging fields. */
const pagesOf: Observe = async (a) => {
  const t = authed(await tokenOf(a));
  const page = async (n: number) =>
    (parse((await a.inject({ method: 'GET', url: `${CATALOG}?pageSize=2&pageNumber=${n}`, headers: t })).body) ?? {}) as {
      catalog?: { ingramPartNumber?: string }[];
      recordsFound?: number;
      pageSize?: number;
    };
  const [one, two] = [await page(1), await page(2)];
  const keys = (p: typeof one) => (p.catalog ?? []).map((e) => e.ingramPartNumber).join(',');
  return {
    entries: [one.catalog?.length, two.catalog?.length],
    pageSizes: [one.pageSize, two.pageSize],
    secondRepeatsFirst: keys(one) === keys(two),
    recordsFound: [one.recordsFound, two.recordsFound],
  };
};

/** Values both published forms refuse, and values both allow at their maxLength, in a query and a body. */
const inputsOf: Observe = async (a) => {
  const t = authed(await tokenOf(a));
  const query = async (url: string) => (await a.inject({ method: 'GET', url, headers: { ...t, ...IM } })).statusCode;
  const create = async (customerOrderNumber: string) => {
    const body = { ...(requestFor(op('orders.create')).body as object), customerOrderNumber };
    return (
      await a.inject({ method: 'POST', url: '/resellers/v6/orders', headers: { ...t, ...IM, ...JSON_CT }, payload: JSON.stringify(body) })
    ).statusCode;
  };
  const invoice = `/resellers/v6.1/invoices/${knownIds().invoiceNumber}`;
  return {
    queryBeyond: await query('/resellers/v6/invoices/?pageSize=AAA'),
    bodyBeyond: await create('C'.repeat(36)),
    queryAtMaxLength: await query(`${invoice}?customerType=${'c'.repeat(32)}`),
    bodyAtMaxLength: await create('C'.repeat(35)),
  };
};

/**
 * Order search by a customer order number it lists and by its status (one value, and as a list), return search by its
 * status as a list, and the Reset unit of each family.
 */
const schemeAndFiltersOf: Observe = async (a) => {
  const t = authed(await tokenOf(a));
  const v = authed(await tokenOf(a, VENDOR, '/oauth/oauth30/token'));
  type Items = Record<string, string | undefined>[];
  const list = async (path: string, key: string, q: string) =>
    (((parse((await a.inject({ method: 'GET', url: `${path}${q}`, headers: t })).body) ?? {}) as Record<string, unknown>)[key] ??
      []) as Items;
  const orders = (q: string) => list('/resellers/v6/orders/search', 'orders', q);
  const returns = (q: string) => list('/resellers/v6/returns/search', 'returnsClaims', q);
  const [order] = await orders('');
  const [claim] = await returns('');
  const po = order?.customerOrderNumber ?? '';
  const filtered = await orders(`?customerOrderNumber=${encodeURIComponent(po)}`);
  const allHave = (items: Items, field: string, value: string | undefined) => items.length > 0 && items.every((i) => i[field] === value);
  const epoch = (r: LightMyRequestResponse) => Number(r.headers['x-ratelimit-reset']) > 1e9;
  return {
    customerOrderNumberMatches: filtered.every((o) => o.customerOrderNumber === po),
    orderStatusMatches: allHave(await orders(`?orderStatus=${order?.orderStatus}`), 'orderStatus', order?.orderStatus),
    orderStatusListMatches: allHave(await orders(`?orderStatus-in=${order?.orderStatus}`), 'orderStatus', order?.orderStatus),
    returnStatusListMatches: allHave(await returns(`?returnStatus-in=${claim?.status}`), 'status', claim?.status),
    resellerResetEpoch: epoch(await a.inject({ method: 'GET', url: CATALOG, headers: t })),
    vendorResetEpoch: epoch(await a.inject({ method: 'GET', url: '/vendors/v1/orders/search', headers: v })),
  };
};

const SCENARIOS: Record<DriftId, Scenario> = {
  'token.type-not-bearer': { observe: tokenAnswer, changes: ['tokenType'] },
  'token.expires-in-string': { observe: tokenAnswer, changes: ['expiresInType'] },
  'token.access-token-missing': { observe: tokenAnswer, changes: ['accessToken'] },
  'token.wrong-secret-accepted': { observe: tokenRefusals, changes: ['wrongSecret'] },
  'token.json-body-accepted': { observe: tokenRefusals, changes: ['jsonBody'] },
  'token.no-ratelimit-headers': { observe: tokenAnswer, changes: ['rateLimitHeaders'] },
  'token.refused-early': { observe: authOf, changes: ['secondsLater'] },
  'headers.limit-missing-2xx': { observe: headersOf, changes: ['limit2xx'] },
  'headers.all-missing-4xx': { observe: headersOf, changes: ['headers4xx'] },
  'headers.remaining-not-decreasing': { observe: headersOf, changes: ['remainingSteps'], base: LIMIT_8 },
  'headers.remaining-rising': { observe: headersOf, changes: ['remainingSteps'], base: LIMIT_8 },
  'headers.remaining-step-two': { observe: headersOf, changes: ['remainingSteps'], base: LIMIT_8 },
  'headers.remaining-after-zero': { observe: limitsOf, changes: ['remainings'], base: LIMIT_2 },
  'headers.reset-in-past': { observe: headersOf, changes: ['resetFuture'] },
  'headers.reset-not-integer': { observe: headersOf, changes: ['resetInteger'] },
  '429.no-errors': { observe: limitsOf, changes: ['errors429', 'message429', 'field429'], base: LIMIT_2 },
  '429.message-missing': { observe: limitsOf, changes: ['message429'], base: LIMIT_2 },
  '429.field-missing': { observe: limitsOf, changes: ['field429'], base: LIMIT_2 },
  '429.remaining-positive': { observe: limitsOf, changes: ['remaining429'], base: LIMIT_2 },
  '429.no-headers': { observe: limitsOf, changes: ['remaining429', 'limit429'], base: LIMIT_2 },
  '429.non-json': { observe: limitsOf, changes: ['json429', 'errors429', 'message429', 'field429'], base: LIMIT_2 },
  '429.limit-differs': { observe: limitsOf, changes: ['limit429'], base: LIMIT_2 },
  'limits.extra-call': { observe: limitsOf, changes: ['statuses'], base: LIMIT_2 },
  'limits.shared-across-operations': { observe: limitsOf, changes: ['otherOperation'], base: LIMIT_2 },
  'limits.shared-across-apps': { observe: limitsOf, changes: ['otherApp'], base: LIMIT_2 },
  'limits.late-refill': { observe: limitsOf, changes: ['nextWindow'], base: LIMIT_2 },
  'limits.get-61': { observe: sixtyOneGets, changes: ['accepted'] },
  'limits.header-differs': { observe: headersOf, changes: ['limit2xx'] },
  'limits.post-refuses-early': { observe: freightPastHundredOf, changes: ['status101'] },
  'auth.no-token-accepted': { observe: authOf, changes: ['noToken'] },
  'auth.garbage-token-accepted': { observe: authOf, changes: ['garbageToken'] },
  'auth.other-family-accepted': { observe: authOf, changes: ['otherFamily'] },
  'auth.expired-accepted': { observe: authOf, changes: ['expired'] },
  'routing.no-sandbox': { observe: servingOf, changes: ['sandbox'] },
  'routing.v61-missing': { observe: servingOf, changes: ['v61OrderDetails', 'createdOrderDetails'] },
  'routing.non-json-content-type': { observe: headersOf, changes: ['contentType'] },
  'webhooks.invalid-accepted': { observe: webhooksOf, changes: ['invalid'] },
  'finding.webhook-signature-ignored': { observe: webhooksOf, changes: ['wrongSignature'] },
  'shapes.field-renamed': { observe: servingOf, changes: ['expectedAbsent'] },
  'shapes.pna-object': { observe: servingOf, changes: ['pnaArray'] },
  'orders.created-unknown': { observe: servingOf, changes: ['createdOrderDetails'] },
  'finding.missing-header-accepted': { observe: servingOf, changes: ['missingHeader'] },
  'finding.header-constraint-ignored': { observe: servingOf, changes: ['longHeader'] },
  'finding.document-strict': { observe: conflictOf, changes: ['withoutVendorName'] },
  'finding.reset-seconds': { observe: headersOf, changes: ['resetAsEpoch'] },
  'finding.token-get-rejected': { observe: tokenRefusals, changes: ['byGet'] },
  // The mock accepts a token by GET by default: the conforming reading here is the refusal.
  'finding.token-get-accepted': { observe: tokenRefusals, changes: ['byGet'], base: { tokenGet: 'reject' } },
  'finding.expires-in-long': { observe: tokenAnswer, changes: ['expiresInBeyond24h'], base: { expiresInS: 3600 } },
  'finding.vendor-list-answer': { observe: vendorAnswerOf, changes: ['topLevelList'] },
  'headers.sandbox-frozen': { observe: environmentsOf, changes: ['sandboxSteps'] },
  'answers.other-key': { observe: answersOf, changes: ['detailsBody', 'detailsAboutPartAsked'] },
  'answers.filter-ignored': { observe: answersOf, changes: ['dealsAllMatchFilter'] },
  'answers.customer-order-number-ignored': { observe: schemeAndFiltersOf, changes: ['customerOrderNumberMatches'] },
  'answers.list-filter-ignored': { observe: schemeAndFiltersOf, changes: ['orderStatusListMatches', 'returnStatusListMatches'] },
  'headers.vendor-reset-seconds': { observe: schemeAndFiltersOf, changes: ['vendorResetEpoch'] },
  // Every operation documented with 200 answers 202.
  'status.accepted-undocumented': {
    observe: answersOf,
    changes: ['detailsStatus', 'createdReturnDetails', 'productionDealSearch', 'sandboxDealSearch'],
  },
  'writes.cancel-ignored': { observe: answersOf, changes: ['cancelledReadsBack'] },
  'writes.modify-ignored': { observe: answersOf, changes: ['modifiedNotesReadBack'] },
  'writes.return-unknown': { observe: answersOf, changes: ['createdReturnDetails'] },
  'routing.sandbox-search-not-served': { observe: answersOf, changes: ['sandboxDealSearch'] },
  'limits.bucket-per-token': { observe: bucketOwnersOf, changes: ['secondToken'] },
  'limits.bucket-per-path': { observe: bucketOwnersOf, changes: ['secondId'] },
  'limits.bucket-per-prefix': { observe: bucketOwnersOf, changes: ['detailsAfterSearch'] },
  '429.sandbox-plain-text': { observe: refusalsByEnvironmentOf, changes: ['sandbox429'], base: LIMIT_2 },
  '429.vendor-plain-text': {
    observe: refusalsByFamilyOf,
    changes: ['vendor429'],
    base: { ...LIMIT_2, limits: { ...LIMIT_2.limits, 'vendor.orders.search': 2 } },
  },
  'paging.page-size-ignored': { observe: pagesOf, changes: ['entries', 'pageSizes'] },
  'paging.page-repeated': { observe: pagesOf, changes: ['secondRepeatsFirst'] },
  'paging.records-found-wrong': { observe: pagesOf, changes: ['recordsFound'] },
  'input.lenient': { observe: inputsOf, changes: ['queryBeyond', 'bodyBeyond'] },
  'input.max-length-exclusive': { observe: inputsOf, changes: ['queryAtMaxLength', 'bodyAtMaxLength'] },
};

/** The readings of a fresh mock (its own clock), with the modes on. */
async function readingsOf(s: Scenario, drift: readonly string[]): Promise<Readings> {
  const clock = new ManualClock(START);
  const a = await app({ clock, ...s.base }, drift);
  try {
    return await s.observe(a, clock);
  } finally {
    await a.close();
  }
}

test.describe('each drift mode changes what it claims, and nothing else', () => {
  for (const mode of DRIFT_MODES) {
    test(`should make ${mode.id} change ${SCENARIOS[mode.id].changes.join(', ')} only (${mode.breaks})`, async () => {
      const s = SCENARIOS[mode.id];
      const [conforming, drifted] = [await readingsOf(s, []), await readingsOf(s, [mode.id])];
      for (const key of s.changes) expect(drifted[key], `${key} under ${mode.id}`).not.toEqual(conforming[key]);
      const unchanged = (r: Readings) => Object.fromEntries(Object.entries(r).filter(([k]) => !s.changes.includes(k)));
      expect(unchanged(drifted), `the readings ${mode.id} must leave alone`).toEqual(unchanged(conforming));
    });
  }
});

/**
 * Who owns a bucket: the API app, whatever its token (Limits 1: "Rate limits are allocated per API app"),
 * and the endpoint, whatever the id in its path, apart from the other endpoints of the same resource
 * (Limits 2: "calls per minute per endpoint"). The counts are read from Remaining without spending a bucket
 * (contracts/exchanges/bucket-owner.ts); with PROBE_LIMITS a bucket is spent and the refusal judged: for a
 * second token of the app, for the operations that share the spent one's path prefix, and in every
 * environment after the first (the 429's status, body, content type and headers). On the embedded mock the
 * clock is frozen for each check, as in rate-limit.spec.ts.
 */
import { idSources, type EnvironmentName, type Operation } from '../catalogue';
import { evidenceOf, type ApiResponse } from '../clients/http';
import type { TokenClient } from '../clients/token-client';
import { valueAt } from '../clients/ids';
import { test, expect, harnessConfig, label, notRun, planned, selectedOperations, type Session } from './session/test';
import { SPENDS_BUCKET } from './plan/phases';
import { credentialsScope, familyScope, firstScope, probeLimitsScope, selectedScope } from './plan/scope';
import { readCounting, type Counting } from './exchanges/bucket-owner';
import { exhaust, exhaustionRequests, judgeRefusal, mustInt, refusedOf, spendingBuckets, shown } from './exchanges/bucket-exhaustion';
import { resetAtMs } from './judge/rate-limit-sequence';
import { judges, withFacts } from './record/fact-declarations';

const cfg = harnessConfig();
const env = cfg.environments[0] as EnvironmentName;
const selected = selectedOperations(cfg);
const opNamed = (id: string): Operation => {
  const op = selected.find((o) => o.id === id);
  if (!op) throw new Error(`${id} is not selected`);
  return op;
};
/** The resource a path names, whatever its version: `/resellers/v6.1/orders/{orderNumber}` -> `orders`. */
const resourceOf = (op: Operation): string => op.path.replace(/^\/[^/]+\/v[\d.]+\/([^/?]+).*$/, '$1');
/** The read operations that share the path prefix of order search, whose bucket the spending check spends. */
const orderSiblings = selected.filter(
  (o) => o.id !== 'orders.search' && o.family === 'reseller' && o.readOnly && o.method === 'GET' && resourceOf(o) === 'orders',
);
/** Requests spending an operation's bucket sends (0 when it is not selected). */
const spending = (id: string): number => {
  const op = selected.find((o) => o.id === id);
  return op ? exhaustionRequests(op) : 0;
};

/** A bucket check's plan: its operations (all selected), the requests it sends, and what else it needs. */
const owners = (ids: readonly string[], requests: number, ...more: Parameters<typeof firstScope>) =>
  planned({
    unit: ids[0] as string,
    requests,
    outOfScope: firstScope(
      familyScope(cfg, 'reseller', 'the bucket checks use reseller operations'),
      selectedScope(ids.filter((id) => !selected.some((o) => o.id === id))),
      ...more,
    ),
  });
/** One reading of two callers: three calls of one between two of the other, read again once if a window rolls over. */
const READING = 2 * 5;

/** Fails unless the reading shows the counting the fact gives. */
function expectCounting(reading: { counting: Counting; evidence: string }, expected: Counting, fact: string): void {
  expect(
    reading.counting,
    `Broken fact: ${fact}\nExpected: counted ${expected}\nReceived: counted ${reading.counting}; ${reading.evidence}`,
  ).toBe(expected);
}

/**
 * A second token client of the session's reseller app (its calls carry its token, renewed through it when
 * refused); not run when the target issues the same access token again.
 */
async function secondToken(session: Session): Promise<TokenClient> {
  const app = cfg.credentials.reseller;
  if (!app) throw new Error('no reseller app');
  const client = session.tokenClient({ reseller: app });
  const [first, second] = [await session.token('reseller', env), await client.token('reseller', env)];
  if (second === first) notRun(test.info(), 'the target issued the same access token again: there is no second token to compare');
  return client;
}

/** Two different ids of `name` listed by its search (one call); not run when the target lists fewer. */
async function twoIds(session: Session, name: 'partNumber'): Promise<[string, string]> {
  const source = idSources[name];
  const listing = await session.call(opNamed(source.from), env);
  const list = valueAt(listing.json, [source.items]);
  const ids = [...new Set((Array.isArray(list) ? list : []).map((e) => valueAt(e, [source.field])).filter((v) => typeof v === 'string'))];
  if (ids.length < 2)
    notRun(test.info(), `${source.from} listed ${ids.length} ${source.field}(s) in ${env}: two ids are needed; ${evidenceOf(listing)}`);
  return [ids[0] as string, ids[1] as string];
}

test.describe('bucket owners', { tag: ['@bucket-owner'] }, () => {
  test.describe.configure({ mode: 'default' });

  spendingBuckets(test);

  const app = credentialsScope(cfg, 'reseller', 'a second token of the reseller app');
  test(
    "should count a second token's calls in the app's bucket, reading Remaining",
    owners(['invoices.search'], 1 + READING, app),
    async ({ session }) => {
      const op = opNamed('invoices.search');
      label(test.info(), op, env, 'bucket-per-app-token');
      const tokenFrom = await secondToken(session);
      const reading = await session.exclusively([op], () =>
        readCounting(
          () => session.call(op, env),
          () => session.call(op, env, { tokenFrom }),
        ),
      );
      expectCounting(reading, 'together', 'rate limits are allocated per API app: a second token of the app continues its count');
    },
  );

  test(
    'should count the calls of one operation for two ids in one bucket, reading Remaining',
    owners(['catalog.details', 'catalog.search'], 1 + READING),
    async ({ session }) => {
      const op = opNamed('catalog.details');
      label(test.info(), op, env, 'bucket-per-endpoint-ids');
      const [a, b] = await twoIds(session, 'partNumber');
      const reading = await session.exclusively([op], () =>
        readCounting(
          () => session.call(op, env, { params: { partNumber: a } }),
          () => session.call(op, env, { params: { partNumber: b } }),
        ),
      );
      expectCounting(reading, 'together', `calls per minute per endpoint: ${op.id} for ${a} and for ${b} is one endpoint`);
    },
  );

  test(
    'should count order search and order details (v6, v6.1) apart, reading Remaining',
    owners(['orders.details', 'orders.search'], READING),
    async ({ session }) => {
      const [search, details] = [opNamed('orders.search'), opNamed('orders.details')];
      label(test.info(), details, env, 'bucket-per-endpoint-prefix');
      // The order number first (it may be found by the search), then both buckets to the reading alone.
      await session.call(details, env);
      const reading = await session.exclusively([search, details], () =>
        readCounting(
          () => session.call(search, env),
          () => session.call(details, env),
        ),
      );
      expectCounting(
        reading,
        'apart',
        `calls per minute per endpoint: ${search.id} (${search.path}) and ${details.id} (${details.path}) are two`,
      );
    },
  );
});

/** A call refused within the window the refusal advertised: later, the reading would be of a new window. */
function withinWindowOf(refused: ApiResponse, res: ApiResponse, session: Session): boolean {
  const reset = resetAtMs(refused);
  return session.target.control !== undefined || (reset !== undefined && res.sentAtMs < reset - 1_000);
}

test.describe('bucket owners, spending a bucket', { tag: ['@bucket-owner', SPENDS_BUCKET] }, () => {
  test.describe.configure({ mode: 'default' });

  spendingBuckets(test);

  const spendsApp = owners(
    ['invoices.search'],
    2 + spending('invoices.search'),
    probeLimitsScope(cfg),
    credentialsScope(cfg, 'reseller', 'a second token'),
  );
  test(
    "should refuse a second token of the app once the first token's calls have spent the app's bucket",
    spendsApp,
    async ({ session }) => {
      const op = opNamed('invoices.search');
      label(test.info(), op, env, 'bucket-per-app-token-refusal');
      const tokenFrom = await secondToken(session);
      const { refused, res } = await session.exclusively([op], async () => {
        const refused = refusedOf(await exhaust(session, op, env), 'after the limit is exceeded, further requests fail');
        return { refused, res: await session.call(op, env, { tokenFrom, allow429: true }) };
      });
      // Refused: the app's count held for the second token. Served: a fault only if the window cannot have ended.
      if (res.status !== 429 && !withinWindowOf(refused, res, session))
        notRun(
          test.info(),
          `the second token's call was served, but sent near or after the advertised reset; ${evidenceOf(refused)}; ${evidenceOf(res)}`,
        );
      expect(
        res.status,
        `Broken fact: rate limits are allocated per API app: the app's bucket is spent for every token of the app\nExpected: 429 within the window of the refusal (${shown(refused, 'reset')})\nReceived: ${evidenceOf(res)}`,
      ).toBe(429);
    },
  );

  const spendsPrefix = owners(
    ['orders.search', ...orderSiblings.map((o) => o.id)],
    spending('orders.search') + 2 * orderSiblings.length,
    probeLimitsScope(cfg),
    selectedScope(orderSiblings.length ? [] : ["a read operation sharing orders.search's path prefix"]),
  );
  test(
    'should keep answering the operations that share a spent bucket’s path prefix, each with its own Remaining',
    spendsPrefix,
    async ({ session }) => {
      const spent = opNamed('orders.search');
      const siblings = orderSiblings;
      label(test.info(), spent, env, 'bucket-per-endpoint-spent');
      // Each served once before: its ids are found (by a search that may be the spent one) while nothing is spent.
      for (const o of siblings) await session.call(o, env);
      await session.exclusively([spent], async () =>
        refusedOf(await exhaust(session, spent, env), 'after the limit is exceeded, further requests fail'),
      );
      for (const o of siblings) {
        const res = await session.call(o, env, { allow429: true });
        expect(
          res,
          `Broken fact: calls per minute per endpoint: ${o.id} (${o.path}) is not ${spent.id} (${spent.path}), whose bucket is spent\nReceived: ${evidenceOf(res)}`,
        ).toHaveStatusIn(200, 299);
        mustInt(res, 'remaining', `${o.id} answers with its own X-RateLimit-Remaining while ${spent.id}'s bucket is spent`);
      }
    },
  );

  // The first environment's 429 is judged by rate-limit.spec.ts; here one bucket of each other environment.
  for (const other of cfg.environments.slice(1)) {
    const spendsOther = owners(['quotes.search'], spending('quotes.search'), probeLimitsScope(cfg));
    test(
      `should refuse a spent bucket in ${other} as in ${env}: 429, a JSON error body, the rate-limit headers, Remaining 0`,
      withFacts(spendsOther, judges(other, 'quotes.search', '429.error-body', '429.headers')),
      async ({ session }) => {
        const op = opNamed('quotes.search');
        label(test.info(), op, other, '429-per-environment');
        const refused = await session.exclusively([op], async () =>
          refusedOf(await exhaust(session, op, other), `after the limit is exceeded, further requests fail (${other})`),
        );
        await judgeRefusal(session, refused, other);
      },
    );
  }
});

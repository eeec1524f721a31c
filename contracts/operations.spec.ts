import { idSources, type EnvironmentName, type Operation } from '../catalogue';
import { evidenceOf, type ApiResponse } from '../clients/http';
import { valueAt as at } from '../clients/ids';
import { test, expect, harnessConfig, label, notRun, selectedOperations, type Session } from './session/test';
import { firstScope, webhookSecretScope, writesScope } from './plan/scope';
import { writeOpenApiValidation } from './record/annotations';
import { READ_BACK_ATTEMPTS, createOrder, lookFor, selectedForWrite, writeCheckScope } from './exchanges/read-back';
import { observeShape, recordExpectedFields, recordShapeNotPublished, recordVisibility } from './exchanges/answer-records';
import { expectAboutWhatWasAsked, expectDocumentedStatus, judgeNotFound } from './judge/answer-checks';
import { CheckGroup } from './outcomes/check-groups';
import type { OpenApiContract } from '../openapi/import/openapi-contract';
import { judges } from './record/fact-declarations';
import { judging } from './record/fact-verdicts';
import { ONE_SCHEME, otherResetUnit } from './exchanges/reset-units';
import { factApplies } from '../catalogue/facts';

const cfg = harnessConfig();
const operations = selectedOperations(cfg);

/** A check that writes with the first operation and reads back with the others: its plan. */
const writesAndReads = (ids: readonly string[], requests: number) => ({
  unit: ids[0] as string,
  requests,
  outOfScope: writeCheckScope(cfg, operations, ids),
});

/** A read-back check's tags: the spec's, the resource's and the create's, which the run's greps select it by. */
const readBackTags = (create: string): string[] => ['@operations', `@${create.split('.')[0] as string}`, `@${create}`];

/** Modify and cancel change an order of their own. */
const needsOwnOrder = (op: Operation): boolean => op.id === 'orders.modify' || op.id === 'orders.cancel';

/** For modify and cancel, a fresh order (when writes are allowed) so tests do not depend on each other. */
async function paramsFor(session: Session, op: Operation, env: EnvironmentName): Promise<Record<string, string> | undefined> {
  if (!needsOwnOrder(op)) return undefined;
  const created = await createOrder(session, env);
  return created?.orderNumber ? { orderNumber: created.orderNumber } : undefined;
}

/** An operation's tags: the operation and its group, beside the spec's. */
const tagsOf = (op: Operation): string[] => ['@operations', `@${op.id}`, `@${op.group.replace(/\s+/g, '-').toLowerCase()}`];

/** The answer has the shape of the imported OpenAPI document (OPENAPI). */
function judgeImportedShape(op: Operation, res: ApiResponse, openapi: OpenApiContract): void {
  const v = openapi.validateResponse(op.id, res.status, res.json);
  writeOpenApiValidation(test.info(), { validated: v.validated, failed: v.errors.length > 0 });
  expect
    .soft(
      v.errors,
      `Broken fact: ${op.id} answers the shape of the imported OpenAPI document (${cfg.openapiFile}); IM-CorrelationID ${res.correlationId}`,
    )
    .toEqual([]);
}

/** A valid call served: 2xx, a status the documents give, the documented shape; the schema it was judged by. */
function judgeServed(op: Operation, env: EnvironmentName, res: ApiResponse, openapi: OpenApiContract | undefined) {
  expect(res, `Broken fact: ${op.method} ${op.path} is served (${env})\nExpected: 2xx\nReceived: ${evidenceOf(res)}`).toHaveStatusIn(
    200,
    299,
  );
  const schema = expectDocumentedStatus(op, env, res, cfg.policyFile);
  // A shape is judged only where a document gives it: the catalogue (seed or published document) or OPENAPI.
  const documented = op.responseSchema !== undefined || openapi?.responseSchema(op.id) !== undefined;
  if (!documented) recordShapeNotPublished(op, env, res, cfg.policyFile);
  else if (schema !== null) expect.soft(res).toBeJsonResponse();
  if (schema)
    expect
      .soft(res.json)
      .toMatchSchema(schema, `${op.id} answers the published shape of ${res.status} (IM-CorrelationID ${res.correlationId})`);
  return schema;
}

/** A valid call of `op`: 2xx JSON with its documented status and shape, and integer rate-limit headers. */
async function judgeValidCall(session: Session, openapi: OpenApiContract | undefined, op: Operation, env: EnvironmentName): Promise<void> {
  label(test.info(), op, env, 'valid-call');
  const params = await paramsFor(session, op, env);
  const { sent, res } = await session.exchange(op, env, params ? { params } : {});
  observeShape(res);
  // On the embedded mock every id is its own: a 404 is judged here only for a request that named none but the run's own.
  if (res.status === 404 && (!session.target.isMock || op.needs.length === 0 || params !== undefined)) {
    await judging('answer.valid-call', () => judgeNotFound(op, env, res, params !== undefined, cfg.policyFile));
    await judging('headers.present', () => expect(res).toHaveRateLimitHeaders({ windowMs: session.target.windowMs }));
    return;
  }
  const schema = await judging('answer.valid-call', () => judgeServed(op, env, res, openapi));
  await judging('answer.about-asked', () => expectAboutWhatWasAsked(op, env, sent, res));
  await judging('headers.present', () => expect.soft(res).toHaveRateLimitHeaders({ windowMs: session.target.windowMs }));
  await judging('headers.reset-unit', () => expect.soft(otherResetUnit(session.target.baseUrl, op.id, env, [res]), ONE_SCHEME).toBeNull());
  if (openapi) await judging('answer.valid-call', () => judgeImportedShape(op, res, openapi));
  // What a client needs beyond the document: recorded, failed only under a strict policy.
  if (schema && schema === op.responseSchema) recordExpectedFields(op, env, res, cfg.policyFile);
}

for (const env of cfg.environments) {
  // One test per environment, one check per operation, several at once against a distant target (outcomes/check-groups.ts).
  const validCalls = new CheckGroup<{ session: Session; openapi: OpenApiContract | undefined }>();
  for (const op of operations) {
    const plan = {
      unit: op.id,
      requests: needsOwnOrder(op) ? 2 : 1,
      outOfScope: firstScope(op.readOnly ? undefined : writesScope(cfg, op.id), op.webhook ? webhookSecretScope(cfg) : undefined),
      facts: judges(
        env,
        op.id,
        'answer.valid-call',
        'headers.present',
        'headers.reset-unit',
        ...(factApplies('answer.about-asked', op) ? ['answer.about-asked'] : []),
      ),
    };
    validCalls.check(
      `should answer a valid ${op.id} call with 2xx JSON matching its schema and integer rate-limit headers (${env})`,
      plan,
      async ({ session, openapi }) => judgeValidCall(session, openapi, op, env),
      tagsOf(op),
    );
  }
  test(
    `should answer a valid call of each operation with 2xx JSON matching its schema and integer rate-limit headers (${env})`,
    validCalls.details(),
    async ({ session, openapi }) => validCalls.run({ session, openapi }, session.pace),
  );

  // The creates read back: one check each, several at once against a distant target (each creates its own).
  const readBacks = new CheckGroup<{ session: Session }>();
  readBacks.check(
    `should find a created order with orders.details by the number the create answer gave (${env})`,
    writesAndReads(['orders.create', 'orders.details'], 2),
    async ({ session }) => {
      label(test.info(), 'orders.create', env, 'created-order-details');
      const [, details] = selectedForWrite(session, ['orders.create', 'orders.details']);
      const created = await createOrder(session, env);
      if (!created) throw new Error('orders.create is not selected');
      expect(created.orderNumber, `Broken fact: a created order has a number\nReceived: ${evidenceOf(created.res)}`).toBeTruthy();
      const res = await session.call(details, env, { params: { orderNumber: created.orderNumber as string } });
      expect(
        res.status,
        `Broken fact: the created order ${created.orderNumber} is known to orders.details\nExpected: 2xx\nReceived: ${evidenceOf(res)}`,
      ).toBeLessThan(300);
    },
    readBackTags('orders.create'),
  );

  readBacks.check(
    `should find an order created by v7 with orders.search by its customer order number, then with orders.details (${env})`,
    // The create, then at most READ_BACK_ATTEMPTS looks of a search and a details call.
    writesAndReads(['orders.createV7', 'orders.search', 'orders.details'], 1 + 2 * READ_BACK_ATTEMPTS),
    async ({ session }) => {
      label(test.info(), 'orders.createV7', env, 'created-v7-order-details');
      const [create, search, details] = selectedForWrite(session, ['orders.createV7', 'orders.search', 'orders.details']);
      const body = session.validBody(create, Date.now() % 1_000_000) as { customerOrderNumber: string };
      const res = await session.call(create, env, { body });
      expect(res, `Broken fact: ${create.id} accepts a valid order\nReceived: ${evidenceOf(res)}`).toHaveStatusIn(200, 299);
      let last = '';
      const found = await lookFor(async () => {
        const listed = await session.call(search, env, { query: { customerOrderNumber: body.customerOrderNumber } });
        const n = at(listed.json, ['orders', 0, idSources.orderNumber.field]);
        if (typeof n !== 'string') return void (last = `orders.search → ${evidenceOf(listed)}`);
        const read = await session.call(details, env, { params: { orderNumber: n } });
        last = `orders.details ${n} → ${evidenceOf(read)}`;
        return read.status < 300 ? n : undefined;
      });
      recordVisibility(session, env, create, found, `customer order ${body.customerOrderNumber}: ${last}`, cfg.policyFile);
    },
    readBackTags('orders.createV7'),
  );

  readBacks.check(
    `should find a created quote with quotes.search and quotes.details by the number the create answer gave (${env})`,
    writesAndReads(['quotes.create', 'quotes.search', 'quotes.details'], 1 + 2 * READ_BACK_ATTEMPTS),
    async ({ session }) => {
      label(test.info(), 'quotes.create', env, 'created-quote-details');
      const [create, search, details] = selectedForWrite(session, ['quotes.create', 'quotes.search', 'quotes.details']);
      const res = await session.call(create, env, { body: session.validBody(create, Date.now() % 1_000_000) });
      const quoteNumber = at(res.json, ['quoteNumber']);
      expect(typeof quoteNumber, `Broken fact: ${create.id} answers a quote number\nReceived: ${evidenceOf(res)}`).toBe('string');
      let last = '';
      const found = await lookFor(async () => {
        const listed = await session.call(search, env, { query: { quoteNumber: quoteNumber as string } });
        const listedNumber = at(listed.json, ['quotes', 0, idSources.quoteNumber.field]);
        const read = await session.call(details, env, { params: { quoteNumber: quoteNumber as string } });
        last = `quotes.search → ${evidenceOf(listed)}; quotes.details → ${evidenceOf(read)}`;
        return listedNumber === quoteNumber && read.status < 300 ? (quoteNumber as string) : undefined;
      });
      recordVisibility(session, env, create, found, `quote ${String(quoteNumber)}: ${last}`, cfg.policyFile);
    },
    readBackTags('quotes.create'),
  );

  readBacks.check(
    `should find a created return with returns.details by the case request number the create answer gave (${env})`,
    writesAndReads(['returns.create', 'returns.details'], 1 + READ_BACK_ATTEMPTS),
    async ({ session }) => {
      label(test.info(), 'returns.create', env, 'created-return-details');
      const [create, details] = selectedForWrite(session, ['returns.create', 'returns.details']);
      const res = await session.call(create, env);
      expect(res, `Broken fact: ${create.id} accepts a valid return\nReceived: ${evidenceOf(res)}`).toHaveStatusIn(200, 299);
      const caseNumber = at(res.json, idSources.caseRequestNumber.createdBy?.path ?? []);
      if (typeof caseNumber !== 'string')
        notRun(test.info(), `${create.id} answered no case request number to look for: ${evidenceOf(res)}`);
      let last = '';
      const found = await lookFor(async () => {
        const read = await session.call(details, env, { params: { caseRequestNumber: caseNumber } });
        last = `returns.details → ${evidenceOf(read)}`;
        return read.status < 300 ? caseNumber : undefined;
      });
      recordVisibility(session, env, create, found, `return ${caseNumber}: ${last}`, cfg.policyFile);
    },
    readBackTags('returns.create'),
  );

  test(`should find what each create made by the number or reference its answer gave (${env})`, readBacks.details(), async ({ session }) =>
    readBacks.run({ session }, session.pace),
  );
}

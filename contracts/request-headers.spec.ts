/**
 * What the target does with requests that break the published document: a required header missing, a header
 * longer than the document allows, the distributor's client's forms its document refuses. Each is a finding
 * (the seed does not say a service refuses them); a refusal must carry the error body.
 */
import { IM_HEADER_CONSTRAINTS, IM_HEADERS, type EnvironmentName, type Operation } from '../catalogue';
import { evidenceOf, type ApiResponse } from '../clients/http';
import { test, expect, harnessConfig, label, selectedOperations, type Session } from './session/test';
import { selectedScope, writesScope } from './plan/scope';
import { recordFinding } from './record/finding-recorder';
import { CheckGroup } from './outcomes/check-groups';

const cfg = harnessConfig();
const operations = selectedOperations(cfg);

/** The catalogue search that the header checks call once each. */
const ON_CATALOG_SEARCH = {
  unit: 'catalog.search',
  requests: 1,
  outOfScope: selectedScope(operations.some((o) => o.id === 'catalog.search') ? [] : ['catalog.search']),
};
const catalogSearch = (session: Session): Operation => {
  const op = session.target.operations.find((o) => o.id === 'catalog.search');
  if (!op) throw new Error('catalog.search is not selected');
  return op;
};

/** The operations whose forms the distributor's client sends and its document refuses; a date-time for a date creates a return when accepted. */
const conflictOps = operations.filter(
  (o) => ['deals.details', 'freight.estimate'].includes(o.id) || (o.id === 'returns.create' && cfg.allowWrites),
);

/** A call of `op` without its required headers: whether it is refused (a finding), and a refusal's body and headers. */
async function recordRequiredHeaders(session: Session, op: Operation, env: EnvironmentName): Promise<void> {
  label(test.info(), op, env, 'required-headers');
  const res = await session.call(op, env, { omitHeaders: op.requiredHeaders, deliberatelyInvalid: true });
  const refused = res.status >= 400 && res.status < 500;
  recordFinding(
    'headers.required-missing',
    refused ? 'refused' : 'accepted',
    `${op.requiredHeaders.join(', ')} omitted → ${evidenceOf(res)}`,
    {
      environment: env,
      operationId: op.id,
      family: op.family,
      policyFile: cfg.policyFile,
    },
  );
  if (refused) {
    expect.soft(res).toBeErrorBody();
    expect.soft(res).toHaveRateLimitHeaders({ windowMs: session.target.windowMs });
  }
}

for (const env of cfg.environments) {
  // One test per environment, one check per call the document refuses, several at once (outcomes/check-groups.ts).
  const refusedHeaders = new CheckGroup<{ session: Session }>();
  refusedHeaders.check(
    `should record whether a call missing a required header is refused (${env})`,
    ON_CATALOG_SEARCH,
    async ({ session }) => {
      const op = catalogSearch(session);
      label(test.info(), op, env, 'required-header');
      const res = await session.call(op, env, { omitHeaders: [IM_HEADERS.customerNumber] });
      const refused = res.status >= 400 && res.status < 500;
      recordFinding(
        'headers.required-missing',
        refused ? 'refused' : 'accepted',
        `${IM_HEADERS.customerNumber} omitted → ${evidenceOf(res)}`,
        {
          environment: env,
          operationId: op.id,
          family: op.family,
          policyFile: cfg.policyFile,
        },
      );
      if (refused) expect.soft(res).toBeErrorBody();
    },
    ['@operations', '@headers', '@required-header'],
  );

  refusedHeaders.check(
    `should record whether the target accepts the distributor client's forms that its document refuses (${env})`,
    {
      unit: 'deals.details',
      requests: conflictOps.length,
      outOfScope: selectedScope(conflictOps.length ? [] : ['deals.details, freight.estimate or returns.create (writes allowed)']),
    },
    async ({ session }) => {
      label(test.info(), 'deals.details', env, 'client-conflict');
      const [deals, freight, returns] = ['deals.details', 'freight.estimate', 'returns.create'].map((id) =>
        conflictOps.find((o) => o.id === id),
      );
      const record = (op: Operation, form: string, res: ApiResponse) => {
        const observed = res.status < 300 ? 'accepted' : 'refused';
        recordFinding('openapi.client-conflict', observed, `${form} → ${evidenceOf(res)}`, {
          environment: env,
          operationId: op.id,
          family: op.family,
          policyFile: cfg.policyFile,
        });
        if (observed === 'refused') expect.soft(res).toBeErrorBody();
      };
      if (deals)
        record(
          deals,
          'deals.details without vendorName',
          await session.call(deals, env, { omitQuery: ['vendorName'], deliberatelyInvalid: true }),
        );
      if (freight) {
        const body = session.validBody(freight) as { shipToAddress?: unknown };
        const res = await session.call(freight, env, { body: { ...body, shipToAddress: [body.shipToAddress] }, deliberatelyInvalid: true });
        record(freight, 'freight.estimate with shipToAddress as a one-element array', res);
      }
      if (returns) {
        const body = session.validBody(returns) as { list?: { invoiceDate?: string }[] };
        const list = (body.list ?? []).map((l) => ({ ...l, invoiceDate: `${(l.invoiceDate ?? '').slice(0, 10)}T00:00:00.000Z` }));
        const res = await session.call(returns, env, { body: { ...body, list }, deliberatelyInvalid: true });
        record(returns, 'returns.create with list[].invoiceDate as a date-time', res);
      }
    },
    ['@operations', '@openapi', '@client-forms'],
  );

  // The operations the published document adds, each with its own required headers (IM-SenderID on vendor required info).
  for (const op of operations.filter((o) => o.listedIn === 'document'))
    refusedHeaders.check(
      `should record whether a call to ${op.id} missing its required headers is refused (${env})`,
      { unit: op.id, requests: 1, outOfScope: op.readOnly ? undefined : writesScope(cfg, `${op.id} (when a service accepts the call)`) },
      async ({ session }) => recordRequiredHeaders(session, op, env),
      ['@operations', '@headers', `@${op.id}`],
    );

  refusedHeaders.check(
    `should record whether a call with a header longer than the document allows is refused (${env})`,
    ON_CATALOG_SEARCH,
    async ({ session }) => {
      const op = catalogSearch(session);
      label(test.info(), op, env, 'header-constraint');
      const max = IM_HEADER_CONSTRAINTS[IM_HEADERS.correlationId].maxLength ?? 32;
      const tooLong = 'f'.repeat(max + 1);
      const res = await session.call(op, env, { headers: { [IM_HEADERS.correlationId]: tooLong }, deliberatelyInvalid: true });
      const refused = res.status >= 400 && res.status < 500;
      recordFinding(
        'headers.constraint-broken',
        refused ? 'refused' : 'accepted',
        `${IM_HEADERS.correlationId} of ${tooLong.length} characters (maxLength ${max}) → ${evidenceOf(res)}`,
        { environment: env, operationId: op.id, family: op.family, policyFile: cfg.policyFile },
      );
      if (refused) {
        expect.soft(res).toBeErrorBody();
        expect.soft(res.text, `a refusal of a header value names the header; ${evidenceOf(res)}`).toContain(IM_HEADERS.correlationId);
      }
    },
    ['@operations', '@headers', '@header-constraint'],
  );

  test(
    `should record how the target answers each call with headers or forms its document refuses (${env})`,
    refusedHeaders.details(),
    async ({ session }) => refusedHeaders.run({ session }, session.pace),
  );
}

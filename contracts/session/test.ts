/**
 * The contract suite's `test`: Playwright fixtures for the target (started once per worker), the
 * session on it and the user's OpenAPI document. Specs import `test`, `expect` and the check helpers
 * from here; what each fixture does lives in target.ts, open-session.ts, session.ts and outcomes.ts.
 */
import { _baseTest as base } from '@playwright/test';
import type { MockLayer } from '../../mock/ground/mock-layer';
import type { OpenApiContract } from '../../openapi/import/openapi-contract';
import { expect } from '../judge/matchers';
import { harnessConfig, provideTarget, selectedOperations, type Target } from './target';
import type { Session } from './session';
import { flushExchanges, openSession } from './open-session';
import { NodeFetcher } from '../../clients/fetcher';
import { writeTraffic } from '../record/annotations';
import { readAnnotations } from '../record/annotation-reader';
import { leftOutByPlan } from '../plan/run-budget';
import { notRun } from '../outcomes/outcomes';
import { runScopeOf } from '../plan/phases';

export { expect };
export { harnessConfig, selectedOperations };
export { Session } from './session';
export { label, notRun } from '../outcomes/outcomes';
export { planned } from '../plan/request-plan';

interface TestFixtures {
  /** Leaves out a test its declared plan puts out of scope, not applicable or beyond a partial budget; records what it sent. */
  planGuard: void;
}

interface WorkerFixtures {
  /** The layer over the embedded mock; default none given: the drift modes MOCK_DRIFT names, fixed for the run. */
  mockLayer: MockLayer | undefined;
  target: Target;
  session: Session;
  /** The user's OpenAPI document (OPENAPI=<file>), when given. */
  openapi: OpenApiContract | undefined;
}

/**
 * Built on the runner's own test type (`_baseTest`, typed and exported by @playwright/test), without the browser
 * fixtures its `test` adds: two of them (trace recording, context configuration) run around every test and cost
 * about a sixth of a certification's CPU, for browsers the suite never opens.
 */
export const test = base.extend<TestFixtures, WorkerFixtures>({
  mockLayer: [undefined, { option: true, scope: 'worker' }],

  target: [async ({ mockLayer }, use) => provideTarget(mockLayer, use), { scope: 'worker' }],

  openapi: [
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as the first argument.
    async ({}, use) => {
      const file = harnessConfig().openapiFile;
      // Loaded only when a document is given: the parser is a tenth of a second of every worker's start.
      await use(file ? await (await import('../../openapi/import')).loadOpenApi(file, selectedOperations()) : undefined);
    },
    { scope: 'worker' },
  ],

  session: [
    async ({ target, openapi }, use, workerInfo) => {
      // node:http with a connection pool: a fraction of the CPU per call of Playwright's request context (fetcher.ts).
      const fetcher = new NodeFetcher();
      await use(openSession(target, fetcher, openapi, runScopeOf(workerInfo.project)));
      flushExchanges();
      fetcher.close();
    },
    { scope: 'worker' },
  ],

  planGuard: [
    async ({ session }, use, info) => {
      const declared = readAnnotations(info);
      const scope = declared.outOfScope[0];
      if (scope) base.skip(true, `out of scope: ${scope.reason} (${scope.bringsIn} brings it in)`);
      if (declared.notApplicable[0]) base.skip(true, `not applicable to this target: ${declared.notApplicable[0]}`);
      const units = declared.planned.filter((p) => p.requests > 0);
      const budget = units.map((p) => leftOutByPlan(p.unit));
      if (budget.length > 0 && budget.every(Boolean)) notRun(info, budget[0] as string);
      const before = { requests: session.budget.spent, unexpected429s: session.unexpected429s };
      await use();
      flushExchanges();
      writeTraffic(info, {
        requests: session.budget.spent - before.requests,
        concurrency: session.pace.concurrency(),
        medianRttMs: session.pace.medianRttMs(),
        unexpected429s: session.unexpected429s - before.unexpected429s,
      });
    },
    { auto: true },
  ],
});

/**
 * The contract suite's `test`: Playwright fixtures for the target (started once per worker), the
 * session on it and the user's OpenAPI document. Specs import `test`, `expect` and the check helpers
 * from here; what each fixture does lives in target.ts, open-session.ts, session.ts and outcomes.ts.
 */
import { test as base } from '@playwright/test';
import type { MockLayer } from '../../mock/ground/mock-layer';
import type { OpenApiContract } from '../../openapi/import/openapi-contract';
import { expect } from './matchers';
import { harnessConfig, provideTarget, selectedOperations, type Target } from './target';
import type { Session } from './session';
import { openSession } from './open-session';

export { expect };
export { harnessConfig, selectedOperations };
export { Session } from './session';
export { label, notRun } from './outcomes';

interface WorkerFixtures {
  /** The layer over the embedded mock; default none given: the drift modes MOCK_DRIFT names, fixed for the run. */
  mockLayer: MockLayer | undefined;
  target: Target;
  session: Session;
  /** The user's OpenAPI document (OPENAPI=<file>), when given. */
  openapi: OpenApiContract | undefined;
}

export const test = base.extend<object, WorkerFixtures>({
  mockLayer: [undefined, { option: true, scope: 'worker' }],

  target: [async ({ mockLayer }, use) => provideTarget(mockLayer, use), { scope: 'worker' }],

  openapi: [
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as the first argument.
    async ({}, use) => {
      const file = process.env.OPENAPI;
      // Loaded only when a document is given: the parser is a tenth of a second of every worker's start.
      await use(file ? await (await import('../../openapi/import')).loadOpenApi(file, selectedOperations()) : undefined);
    },
    { scope: 'worker' },
  ],

  session: [
    async ({ target, playwright, openapi }, use, workerInfo) => {
      const ctx = await playwright.request.newContext({ ignoreHTTPSErrors: false });
      await use(openSession(target, ctx, openapi, workerInfo.project.name));
      await ctx.dispose();
    },
    { scope: 'worker' },
  ],
});

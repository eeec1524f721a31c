/**
 * The shipped workflow's certify step (.github/workflows/certify-sandbox.yml), which gates on the exit code, run with
 * its own environment against a conforming deployment (the mock with other data, a URL target): a whole
 * certification, every check of its scope, at the workers its configuration gives, within the plan it printed.
 */
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { startMock, type RunningMock } from '../../mock';
import { MOCK_APPS_ENV, certify } from './support/run-certify';

let mock: RunningMock;
test.beforeAll(async () => {
  mock = await startMock({ windowMs: 60_000, seed: 7 });
});
test.afterAll(async () => mock.close());

test("should pass the shipped workflow's certify step on a conforming deployment: exit 0, nothing left not judged, within its plan", async () => {
  test.setTimeout(240_000);
  const workflow = parse(readFileSync('.github/workflows/certify-sandbox.yml', 'utf8')) as {
    jobs: { certify: { steps: { run?: string; env?: Record<string, string> }[] } };
  };
  const step = workflow.jobs.certify.steps.find((s) => s.run === 'npm run certify');
  expect(step?.env, 'the workflow has a certify step with its environment').toBeDefined();
  // The repository's secrets and variables, as a conforming deployment's: the mock's demo apps and its URL.
  const values: Record<string, string> = { ...MOCK_APPS_ENV, DISTRIBUTOR_BASE_URL: mock.url, EXTRA_HEADERS: '' };
  const env = Object.fromEntries(
    Object.entries(step?.env ?? {}).map(([k, v]) => [
      k,
      String(v).replace(/\$\{\{\s*(?:secrets|vars)\.(\w+)\s*\}\}/g, (_, n: string) => values[n] ?? ''),
    ]),
  );
  const r = await certify(env);
  expect(r.status, r.stdout.slice(-3000) + r.stderr.slice(-2000)).toBe(0);
  const s = r.summary();
  expect(s.totals.failed).toBe(0);
  expect(s.totals.blocked + s.totals.skipped, 'nothing in scope is left not judged').toBe(0);
  // A deployment has no clock the harness can move: the checks that need the embedded mock's are listed, not run.
  const notApplicable = s.leftOut?.filter((l) => l.kind === 'not-applicable') ?? [];
  expect(notApplicable.length, 'the checks that need the embedded mock’s clock are listed').toBeGreaterThan(0);
  for (const l of notApplicable) expect(l.reason).toMatch(/^needs the embedded mock's clock/);
  expect(r.stdout).toMatch(/certify: plan: (\d+) requests/);
  const planned = Number(/certify: plan: (\d+) requests/.exec(r.stdout)?.[1]);
  expect(s.requests?.sent, 'the plan holds on a conforming deployment').toBeLessThanOrEqual(planned);
});

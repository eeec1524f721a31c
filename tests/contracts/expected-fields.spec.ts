/**
 * A target that omits a field no document requires but a client relies on (recordsFound of a product search):
 * certify passes and records the finding shapes.expected-field-absent with the operation and the field; a
 * policy that makes the finding strict fails the valid call.
 */
import { test, expect } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { startMock, type RunningMock } from '../../mock';
import { MOCK_APPS_ENV, certify } from './support/run-certify';
import { startProxy, type CountingTarget } from './support/targets';
import { validCallsOf } from './support/greps';

const ENV = { ...MOCK_APPS_ENV, FAMILIES: 'reseller', ENVIRONMENTS: 'production' };
const ONLY = ['-g', validCallsOf(['catalog.search'])];

let mock: RunningMock;
let proxy: CountingTarget;
test.beforeEach(async () => {
  mock = await startMock({ windowMs: 60_000 });
  proxy = await startProxy('drop-records-found', mock.url);
});
test.afterEach(async () => {
  await proxy.close();
  await mock.close();
});

test('should record a product search without recordsFound as the finding shapes.expected-field-absent and pass', async () => {
  test.setTimeout(180_000);
  const r = await certify({ ...ENV, TARGET: proxy.url }, ONLY);
  expect(r.summary().totals.failed, r.stdout.slice(-3000)).toBe(0);
  // Nothing failed; a URL target leaves some checks not run: 0, or 99.
  expect([0, 99], r.stdout.slice(-3000)).toContain(r.status);
  const found = r.findings().filter((f) => f.id.startsWith('shapes.expected-field-absent'));
  expect(found.map((f) => [f.id, f.operationId, f.observed])).toEqual([
    ['shapes.expected-field-absent@reseller/production', 'catalog.search', 'absent'],
  ]);
  expect(found[0]?.evidence).toMatch(/without catalog\.search:recordsFound$/);
});

test('should fail a product search without recordsFound where the policy makes the finding strict', async () => {
  test.setTimeout(180_000);
  const policy = test.info().outputPath('strict-expected-fields.json');
  writeFileSync(policy, JSON.stringify({ findings: { 'shapes.expected-field-absent': { strict: true } } }));
  const r = await certify({ ...ENV, TARGET: proxy.url, POLICY: policy }, ONLY);
  expect(r.summary().totals.failed, r.stdout.slice(-3000)).toBe(1);
  expect(r.status).not.toBe(0);
  expect(r.stdout).toMatch(/Policy violation for finding shapes\.expected-field-absent@reseller\/production/);
});

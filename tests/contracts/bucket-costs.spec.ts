/**
 * What spending buckets costs (contracts/plan/bucket-costs.ts), printed with the plan before the first request, and
 * the opt-in a write operation's bucket needs (contracts/plan/scope.ts).
 */
import { test, expect } from '@playwright/test';
import { allOperations } from '../../catalogue';
import { loadConfig } from '../../config/read-config';
import { bucketCost, bucketCostLine } from '../../contracts/plan/bucket-costs';
import { probeWriteLimitsScope, writesScope } from '../../contracts/plan/scope';
import { MOCK_APPS_ENV } from './support/run-certify';

const operation = (id: string) => {
  const op = allOperations().find((o) => o.id === id);
  if (!op) throw new Error(`${id} is not catalogued`);
  return op;
};
const spends = (id: string, env: string) => ({ unit: id, requests: 1, check: `${id} (${env})`, spends: bucketCost(operation(id)) });

test('should print what spending buckets costs: their number, the sum of their limits, and what each write creates or changes', () => {
  const planned = [
    ['production', 'sandbox'].flatMap((env) => [spends('orders.search', env), spends('orders.create', env), spends('orders.cancel', env)]),
    [{ unit: 'orders.details', requests: 3 }],
  ];
  const sum = planned.flat().reduce((s, p) => s + ('spends' in p ? p.spends.limit : 0), 0);
  expect(bucketCostLine(planned)).toBe(
    `certify: buckets: 6 spent to their 429, ${sum} calls in the sum of their limits; ` +
      'writes: orders.create 2 x 150 orders created, orders.cancel 2 x 150 cancels of one order (1 order created for it)',
  );
  expect(bucketCostLine([[spends('orders.search', 'sandbox')]])).toMatch(
    /1 spent to their 429, \d+ calls .*; no write operation's bucket$/,
  );
  expect(bucketCostLine([[{ unit: 'orders.search', requests: 3 }]]), 'no bucket spent: no line').toBeUndefined();
});

test("should leave a write operation's bucket to its own opt-in on a deployment, and production read-only without ALLOW_PRODUCTION_WRITES", () => {
  const deployment = loadConfig({ ...MOCK_APPS_ENV, TARGET: 'https://api.example.com', PROBE_LIMITS: '1' });
  expect(probeWriteLimitsScope(deployment)).toMatchObject({ bringsIn: 'PROBE_WRITE_LIMITS=1' });
  const optedIn = loadConfig({ ...MOCK_APPS_ENV, TARGET: 'https://api.example.com', PROBE_WRITE_LIMITS: '1' });
  expect(probeWriteLimitsScope(optedIn)).toBeUndefined();
  expect(probeWriteLimitsScope(loadConfig({})), 'on by default for the embedded mock').toBeUndefined();
  const production = loadConfig({
    ...MOCK_APPS_ENV,
    TARGET: 'production',
    BASE_URL: 'https://api.example.com',
    ALLOW_PRODUCTION: '1',
    PROBE_WRITE_LIMITS: '1',
  });
  expect(writesScope(production, 'orders.create')).toMatchObject({ bringsIn: 'ALLOW_PRODUCTION_WRITES=1' });
});

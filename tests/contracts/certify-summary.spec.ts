/**
 * The certification summary from the run's tests (contracts/support/certify-summary.ts): rows per operation and
 * environment, counts per group, findings, ids and the requests sent, without files or the environment.
 */
import { test, expect } from '@playwright/test';
import { allOperations } from '../../catalogue';
import { buildSummary, collect, type RunEntry } from '../../contracts/support/certify-summary';
import { summaryLines } from '../../contracts/support/certify-summary-lines';
import { ANNOTATION } from '../../contracts/support/annotations';

const note = (type: string, payload: unknown) => ({ type, description: typeof payload === 'string' ? payload : JSON.stringify(payload) });
const labels = (operation: string, environment: string, check: string) => [
  note(ANNOTATION.operation, operation),
  note(ANNOTATION.environment, environment),
  note(ANNOTATION.check, check),
];
const entry = (over: Partial<RunEntry>): RunEntry => ({
  title: 'a check',
  file: 'operations.spec.ts',
  tags: [],
  annotations: [],
  status: 'passed',
  durationMs: 10,
  errors: [],
  ...over,
});
const ID = { name: 'orderNumber', value: '20-1', origin: 'discovered', from: 'orders.search', environment: 'production' };
const FINDING = { id: 'token.lifetime@reseller/production', statement: 'a token lasts 24 h', observed: 'beyond-24h', evidence: 'e' };

const RUN: RunEntry[] = [
  entry({
    title: 'valid catalog.search',
    annotations: [
      ...labels('catalog.search', 'production', 'valid-call'),
      note(ANNOTATION.observed, { headers: ['x-ratelimit-limit'], fields: ['catalog'], latencyMs: 4, limit: '60' }),
    ],
  }),
  entry({
    title: 'valid orders.details',
    status: 'failed',
    errors: [{ message: 'Expected: 200\nReceived: 404' }],
    annotations: [
      ...labels('orders.details', 'production', 'valid-call'),
      note(ANNOTATION.idSource, ID),
      note(ANNOTATION.correlationId, 'GET /orders/20-1 → 404: IM-CorrelationID c1'),
    ],
  }),
  entry({
    title: 'blocked',
    status: 'skipped',
    annotations: [...labels('orders.details', 'sandbox', 'valid-call'), note(ANNOTATION.blocked, 'no sandbox app')],
  }),
  entry({
    title: 'token group',
    file: 'tokens.spec.ts',
    annotations: [
      note(ANNOTATION.checkResult, {
        title: 'token',
        status: 'passed',
        durationMs: 2,
        operation: 'catalog.search',
        environment: 'sandbox',
        check: 'auth',
      }),
      note(ANNOTATION.checkResult, { title: 'left out', status: 'skipped', durationMs: 0, reason: 'budget spent: 10 of 10' }),
      note(ANNOTATION.finding, FINDING),
    ],
  }),
];

test('should fold each check into its operation row, with observations, evidence and the ids it used', () => {
  const c = collect(RUN, allOperations());
  const row = (id: string, env: string) => c.rows.find((r) => r.id === id && r.environment === env);
  expect(row('catalog.search', 'production')).toMatchObject({
    status: 'passed',
    checks: { 'valid-call': 'passed' },
    headers: ['x-ratelimit-limit'],
    fields: ['catalog'],
    latencyMs: [4],
    advertisedLimit: 60,
  });
  expect(row('orders.details', 'production')?.status).toBe('failed');
  expect(row('orders.details', 'production')?.evidence).toBe(
    'Expected: 200\nReceived: 404\nIds used: orderNumber 20-1 (listed by orders.search, production)\nLast requests: GET /orders/20-1 → 404: IM-CorrelationID c1',
  );
  expect(row('orders.details', 'sandbox')?.status).toBe('blocked');
  expect(row('catalog.search', 'sandbox')?.checks, 'a grouped check has its own row').toEqual({ auth: 'passed' });
  expect(c.groups.get('operations')).toEqual({ passed: 1, failed: 1, blocked: 1, skipped: 0, findings: 0 });
  expect(c.groups.get('tokens')).toEqual({ passed: 1, failed: 0, blocked: 0, skipped: 1, findings: 1 });
  expect(c.leftOutByBudget).toBe(1);
  expect(c.ids).toEqual([ID]);
  expect(c.timings).toEqual({ 'operations.spec.ts': 30, 'tokens.spec.ts': 10 });
});

test('should build the summary and its screen from the collected run and the given settings', () => {
  const c = collect(RUN, allOperations());
  const requests = { sent: 12, budget: 10, checksLeftOutByBudget: c.leftOutByBudget };
  const s = buildSummary(c, {
    harnessVersion: '1.2.3',
    target: 'embedded mock',
    environments: 'production,sandbox',
    startedAt: Date.UTC(2026, 0, 1),
    endedAt: Date.UTC(2026, 0, 1) + 5000,
    passed: true,
    requests,
  });
  expect(s).toMatchObject({ target: 'embedded mock', environments: ['production', 'sandbox'], durationMs: 5000, requests, ids: [ID] });
  expect(s.verdict, 'a failed check fails the run').toBe('failed');
  expect(s.totals).toEqual({ passed: 2, failed: 1, blocked: 1, skipped: 1, findings: 1 });
  expect(s.tests.map((t) => t.title)).toEqual(['valid catalog.search', 'valid orders.details', 'blocked', 'token', 'left out']);
  const screen = summaryLines(s, c.groups, 'out', c.notJudged).join('\n');
  expect(screen).toContain('Certification of embedded mock (production, sandbox): FAILED');
  expect(screen).toMatch(/operations\s+1\s+1\s+1\s+0\s+0\ntokens\s+1\s+0\s+0\s+1\s+1\ntotal\s+2\s+1\s+1\s+1\s+1/);
  expect(screen).toContain('Requests sent: 12 of a budget of 10; 1 checks not run: budget spent');
  expect(screen).toContain('Ids from the target: orderNumber 20-1 (listed by orders.search, production)');
  expect(screen).toMatch(/token\.lifetime\s+beyond-24h/);
  expect(screen).toContain('Not judged: 1 blocked, 1 not run:\n  blocked: no sandbox app\n  not run: budget spent: 10 of 10\n');
  expect(screen).toContain('Reports: out/summary.json');
});

test('should refuse a run with a malformed annotation, naming the test and the type', () => {
  const broken = entry({ title: 'valid quotes.search', annotations: [note(ANNOTATION.observed, '{"latencyMs":')] });
  expect(() => collect([...RUN, broken], allOperations())).toThrow('Malformed annotation "observed" on test "valid quotes.search"');
});

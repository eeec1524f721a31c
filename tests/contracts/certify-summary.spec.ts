/**
 * The certification summary from the run's tests (contracts/reporter/certify-summary.ts): rows per operation and
 * environment, counts per group, findings, ids and the requests sent, without files or the environment.
 */
import { test, expect } from '@playwright/test';
import { allOperations } from '../../catalogue';
import { buildSummary, collect, type RunEntry } from '../../contracts/reporter/certify-summary';
import { summaryLines } from '../../contracts/reporter/certify-summary-lines';
import { ANNOTATION } from '../../contracts/record/annotations';
import { certifyExitCode, closingLine } from '../../contracts/reporter/certify-exit';
import { NOT_JUDGED } from '../../clients/exit-codes';

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

/** Checks that reached no verdict for reasons that leave the exit code alone: out of scope, not applicable. */
const ASIDE: RunEntry[] = [
  entry({
    title: 'exhaustion',
    file: 'rate-limit.spec.ts',
    status: 'skipped',
    annotations: [note(ANNOTATION.outOfScope, { reason: 'exhaustion spends a window', bringsIn: 'PROBE_LIMITS=1' })],
  }),
  entry({
    title: 'second exhaustion',
    file: 'rate-limit.spec.ts',
    status: 'skipped',
    annotations: [note(ANNOTATION.outOfScope, { reason: 'exhaustion spends a window', bringsIn: 'PROBE_LIMITS=1' })],
  }),
  entry({
    title: 'clock',
    file: 'tokens.spec.ts',
    status: 'skipped',
    annotations: [note(ANNOTATION.notApplicable, "needs the embedded mock's clock")],
  }),
  entry({
    title: 'grouped',
    file: 'auth.spec.ts',
    annotations: [
      note(ANNOTATION.checkResult, {
        title: 'other family',
        status: 'out-of-scope',
        durationMs: 0,
        reason: 'no vendor app',
        bringsIn: 'VENDOR_CLIENT_ID and VENDOR_CLIENT_SECRET',
      }),
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
  const none = { outOfScope: 0, notApplicable: 0 };
  expect(c.groups.get('operations')).toEqual({ passed: 1, failed: 1, blocked: 1, skipped: 0, findings: 0, ...none });
  expect(c.groups.get('tokens')).toEqual({ passed: 1, failed: 0, blocked: 0, skipped: 1, findings: 1, ...none });
  expect(c.leftOutByBudget).toBe(1);
  expect(c.ids).toEqual([ID]);
  expect(c.timings).toEqual({ 'operations.spec.ts': 30, 'tokens.spec.ts': 10 });
});

test('should build the summary and its screen from the collected run and the given settings', () => {
  const c = collect(RUN, allOperations());
  const requests = {
    sent: 12,
    budget: 10,
    checksLeftOutByBudget: c.leftOutByBudget,
    planned: 14,
    pace: { workers: 2, atOnce: 8, medianRttMs: 151.6, unexpected429s: 3 },
  };
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
  expect(s.totals).toEqual({ passed: 2, failed: 1, blocked: 1, skipped: 1, outOfScope: 0, notApplicable: 0, findings: 1 });
  expect(s.tests.map((t) => t.title)).toEqual(['valid catalog.search', 'valid orders.details', 'blocked', 'token', 'left out']);
  const screen = summaryLines(s, c.groups, 'out').join('\n');
  expect(screen).toContain('Certification of embedded mock (production, sandbox): FAILED');
  expect(screen).toMatch(/operations\s+1\s+1\s+1\s+0\s+0\s+0\s+0\ntokens\s+1\s+0\s+0\s+1\s+0\s+0\s+1\ntotal\s+2\s+1\s+1\s+1\s+0\s+0\s+1/);
  expect(screen).toContain('Requests sent: 12 (planned 14) of a budget of 10; 1 checks not run: budget spent');
  expect(screen).toContain(
    'Pace: 2 workers, up to 8 calls at once each (median round trip 152 ms; CERTIFY_CONCURRENCY caps it); 3 429s no check asked for, each waited out and sent again',
  );
  expect(screen).toContain('Ids from the target: orderNumber 20-1 (listed by orders.search, production)');
  expect(screen).toMatch(/token\.lifetime\s+beyond-24h/);
  expect(screen).toContain('Not judged: 1 blocked, 1 not run:\n  blocked: no sandbox app\n  not run: budget spent: 10 of 10\n');
  expect(screen).toContain('Reports: out/summary.json');
});

test('should refuse a run with a malformed annotation, naming the test and the type', () => {
  const broken = entry({ title: 'valid quotes.search', annotations: [note(ANNOTATION.observed, '{"latencyMs":')] });
  expect(() => collect([...RUN, broken], allOperations())).toThrow('Malformed annotation "observed" on test "valid quotes.search"');
});

test('should keep checks out of scope, not applicable and not judged apart, each reason once with what brings it in', () => {
  const c = collect([...RUN, ...ASIDE], allOperations());
  const s = buildSummary(c, {
    harnessVersion: '1.2.3',
    target: 'https://sandbox.example',
    environments: 'production',
    startedAt: 0,
    endedAt: 1,
    passed: true,
  });
  expect(s.totals).toMatchObject({ blocked: 1, skipped: 1, outOfScope: 3, notApplicable: 1 });
  expect(s.leftOut).toEqual([
    { kind: 'blocked', reason: 'no sandbox app', checks: 1 },
    { kind: 'not-run', reason: 'budget spent: 10 of 10', checks: 1 },
    { kind: 'out-of-scope', reason: 'exhaustion spends a window', bringsIn: 'PROBE_LIMITS=1', checks: 2 },
    { kind: 'not-applicable', reason: "needs the embedded mock's clock", checks: 1 },
    { kind: 'out-of-scope', reason: 'no vendor app', bringsIn: 'VENDOR_CLIENT_ID and VENDOR_CLIENT_SECRET', checks: 1 },
  ]);
  const screen = summaryLines(s, c.groups, 'out').join('\n');
  expect(screen).toContain(
    "Out of scope: 3 checks left out by this run's settings (each line: why, and what brings it in):\n" +
      '  exhaustion spends a window; brought in by PROBE_LIMITS=1 (2 checks)\n' +
      '  no vendor app; brought in by VENDOR_CLIENT_ID and VENDOR_CLIENT_SECRET\n',
  );
  expect(screen).toContain("Not applicable to this target: 1 checks:\n  needs the embedded mock's clock\n");
  expect(screen).toContain('Not judged: 1 blocked, 1 not run:\n  blocked: no sandbox app\n  not run: budget spent: 10 of 10\n');
});

test('should exit 0 on a run whose checks in scope passed, whatever it left out of scope or could not apply', () => {
  const totals = { passed: 10, failed: 0, blocked: 0, skipped: 0, outOfScope: 14, notApplicable: 2, findings: 3 };
  expect(certifyExitCode(0, totals)).toBe(0);
  expect(closingLine('1.0', 0, totals)).toBe(
    'certify: finished in 1.0 s with exit code 0; left aside: 14 out of scope, 2 not applicable to this target (listed above with what brings them in)',
  );
  expect(certifyExitCode(0, totals, true), 'REQUIRE_EVERY_CHECK: out of scope is not judged').toBe(NOT_JUDGED);
  expect(closingLine('1.0', NOT_JUDGED, totals, true)).toContain(
    '0 checks were blocked and 0 not run and 14 out of scope (REQUIRE_EVERY_CHECK)',
  );
  expect(certifyExitCode(0, { ...totals, blocked: 1 }), 'a check in scope blocked is not judged').toBe(NOT_JUDGED);
  expect(certifyExitCode(0, { ...totals, skipped: 1 }), 'a check in scope not run is not judged').toBe(NOT_JUDGED);
  expect(certifyExitCode(0, { ...totals, failed: 1, blocked: 1 }), 'a failure wins').toBe(1);
  expect(certifyExitCode(1, totals), "Playwright's own failure stays").toBe(1);
  const before = { passed: 1, failed: 0, blocked: 0, skipped: 0, findings: 0 };
  expect(certifyExitCode(0, before), 'a summary written before the new kinds reads as none of them').toBe(0);
});

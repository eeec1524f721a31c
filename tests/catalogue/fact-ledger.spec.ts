/**
 * The ledger of facts x places (catalogue/facts.ts, contracts/outcomes/fact-ledger.ts): held to the catalogue by
 * what certify's checks declare (listed, not run: the declarations are the tests' own annotations), and built
 * from a run's verdicts with the place of every pair no check judged.
 */
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { FACTS, allOperations, factPlaces, pairKey, type FactPlace } from '../../catalogue';
import { buildLedger } from '../../contracts/outcomes/fact-ledger';
import { ledgerLine } from '../../reporting/fact-ledger-lines';
import { FACTS_ANNOTATION, factsAnnotation, type FactsDeclared } from '../../contracts/record/fact-declarations';
import type { RunEntry } from '../../contracts/record/check-units';

interface ListedSuite {
  suites?: ListedSuite[];
  specs?: { tests: { annotations: { type: string; description?: string }[] }[] }[];
}

/** Every pair certify's checks declare, for the default scope (the embedded mock: every environment, family and check). */
function declaredPairs(): Set<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, CI: '' };
  for (const k of ['TARGET', 'ENVIRONMENTS', 'FAMILIES', 'PROBE_LIMITS', 'PROBE_WRITE_LIMITS', 'CERTIFY_RUN_DIR', 'VENDOR_OPERATIONS'])
    delete env[k];
  const r = spawnSync(
    process.execPath,
    ['node_modules/@playwright/test/cli.js', 'test', '-c', 'playwright.config.ts', '--list', '--reporter=json'],
    {
      env,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  expect(r.status, r.stderr).toBe(0);
  const pairs = new Set<string>();
  const walk = (s: ListedSuite): void => {
    for (const sub of s.suites ?? []) walk(sub);
    for (const a of (s.specs ?? []).flatMap((sp) => sp.tests.flatMap((t) => t.annotations)))
      if (a.type === FACTS_ANNOTATION && a.description)
        for (const p of (JSON.parse(a.description) as FactsDeclared).pairs) pairs.add(pairKey(p));
  };
  walk(JSON.parse(r.stdout) as ListedSuite);
  return pairs;
}

test('should have a check for every operation and fact of the catalogue, and judge every fact at every place on the embedded mock', () => {
  test.setTimeout(60_000);
  const declared = declaredPairs();
  const all = factPlaces(allOperations());
  const undeclared = (pairs: readonly FactPlace[]) => pairs.filter((p) => !declared.has(pairKey(p))).map(pairKey);
  for (const op of allOperations())
    expect(
      all.some((p) => p.place === op.id && declared.has(pairKey(p))),
      `${op.id}: no check declares a fact it judges there`,
    ).toBe(true);
  for (const f of FACTS)
    expect(
      all.some((p) => p.fact === f.id && declared.has(pairKey(p))),
      `${f.id}: no check declares it`,
    ).toBe(true);
  // The embedded mock spends every bucket, the write operations' too (PROBE_LIMITS and PROBE_WRITE_LIMITS on).
  expect(undeclared(all), 'pairs of the catalogue no check judges').toEqual([]);
  expect(
    [...declared].filter((k) => !all.some((p) => pairKey(p) === k)),
    'pairs declared that the catalogue does not hold',
  ).toEqual([]);
});

/** A test of the run as the summary reporter takes it. */
const entry = (title: string, status: RunEntry['status'], annotations: { type: string; description: string }[]): RunEntry => ({
  title,
  file: 'x.spec.ts',
  tags: [],
  annotations,
  status,
  durationMs: 1,
  errors: status === 'failed' ? [{ message: 'Broken fact' }] : [],
});

test('should give every pair of the scope a verdict and say where the run did not look, and why', () => {
  const ops = allOperations().filter((o) => o.id === 'orders.search' || o.id === 'deals.details');
  const passed = entry('steps', 'passed', [
    factsAnnotation(undefined, [{ fact: 'headers.remaining-steps', place: 'orders.search', environment: 'production' }]),
  ]);
  const failed = entry('valid', 'failed', [
    factsAnnotation(undefined, [{ fact: 'answer.valid-call', place: 'deals.details', environment: 'production' }]),
  ]);
  const scoped = entry('exhaustion', 'skipped', [
    factsAnnotation(undefined, [{ fact: 'limit.honoured', place: 'orders.search', environment: 'production' }]),
    {
      type: 'out-of-scope',
      description: JSON.stringify({ reason: 'exhaustion spends the app quota for a window', bringsIn: 'PROBE_LIMITS=1' }),
    },
  ]);
  const l = buildLedger([passed, failed, scoped], ops, { environments: ['production'], families: ['reseller'] });
  const cell = (fact: string, place: string, environment = 'production') =>
    l.cells.find((c) => c.fact === fact && c.place === place && c.environment === environment);
  expect(cell('headers.remaining-steps', 'orders.search')?.status).toBe('passed');
  expect(cell('answer.valid-call', 'deals.details')?.status).toBe('failed');
  expect(cell('limit.honoured', 'orders.search')).toMatchObject({ status: 'out-of-scope', bringsIn: 'PROBE_LIMITS=1' });
  expect(cell('answer.valid-call', 'orders.search', 'sandbox')).toMatchObject({
    status: 'out-of-scope',
    bringsIn: 'ENVIRONMENTS including sandbox',
  });
  expect(cell('auth.token-required', 'token.reseller')).toBeUndefined();
  expect(cell('token.as-documented', 'token.reseller')).toMatchObject({
    status: 'not-judged',
    reason: 'no check of this run judges it here',
  });
  expect(l.places).toBe(factPlaces(ops).length);
  expect(l.judged).toBe(2);
  expect(ledgerLine(l)).toMatch(
    new RegExp(
      `^Facts judged at 2 of ${l.places} places \\(1 failed\\); \\d+ out of scope: ENVIRONMENTS including sandbox \\d+, PROBE_LIMITS=1 1; \\d+ not judged: no check of this run judges it here \\d+$`,
    ),
  );
});

test('should fail only the facts a check found broken, pass those it judged, and leave those it never reached not judged', () => {
  const ops = allOperations().filter((o) => o.id === 'orders.search' || o.id === 'deals.search');
  const at = (place: string, ...facts: string[]) => facts.map((fact) => ({ fact, place, environment: 'production' as const }));
  const bucketFacts = ['limit.honoured', '429.error-body', '429.headers'];
  const verdicts = (judged: string[], broken: string[]) => ({ type: 'fact-verdicts', description: JSON.stringify({ judged, broken }) });
  // A test that is one check, stopped at its second fact; and one that says nothing of its facts.
  const stopped = entry('orders.search spent', 'failed', [
    factsAnnotation(undefined, at('orders.search', ...bucketFacts)),
    verdicts(['limit.honoured'], ['429.error-body']),
  ]);
  const silent = entry('deals.search spent', 'failed', [factsAnnotation(undefined, at('deals.search', ...bucketFacts))]);
  const l = buildLedger([stopped, silent], ops, { environments: ['production'], families: ['reseller'] });
  const statusOf = (place: string) => bucketFacts.map((fact) => l.cells.find((c) => c.fact === fact && c.place === place)?.status);
  expect(statusOf('orders.search')).toEqual(['passed', 'failed', 'not-judged']);
  expect(l.cells.find((c) => c.fact === '429.headers' && c.place === 'orders.search')?.reason).toMatch(/stopped at another broken fact/);
  expect(statusOf('deals.search')).toEqual(['failed', 'failed', 'failed']);
});

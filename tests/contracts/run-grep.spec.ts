import { test, expect } from '@playwright/test';
import { checkGrepTitle, runGrep } from '../../contracts/outcomes/run-grep';
import { plannedOf } from '../../contracts/reporter/plan-reporter';

const ALL = { grep: /.*/, grepInvert: null };
const info = (argv: string[], project: { grep: RegExp | RegExp[]; grepInvert: RegExp | RegExp[] | null } = ALL) => [argv, project] as const;

const GROUP = ['', 'contracts', 'operations.spec.ts', 'should answer a valid call of each operation (production)'];
const GROUP_TAGS = ['@operations', '@catalog.search', '@orders.details'];
const check = (id: string, tags?: string[]) => checkGrepTitle(GROUP, `should answer a valid ${id} call (production)`, tags, GROUP_TAGS);

test('should select grouped checks by the command line grep in each of its spellings, as Playwright reads it', () => {
  const search = check('catalog.search', ['@operations', '@catalog.search']);
  const details = check('orders.details', ['@operations', '@orders.details']);
  for (const argv of [
    ['test', '-g', '@catalog\\.search'],
    ['test', '--grep', '@catalog\\.search'],
    ['test', '--grep=@catalog\\.search'],
    ['test', '-g@catalog\\.search'],
    ['test', '-g', '/@CATALOG\\.search/i'],
  ]) {
    const selected = runGrep(...info(argv));
    expect([selected(search), selected(details)], argv.join(' ')).toEqual([true, false]);
  }
  // Case-insensitive unless written as /source/flags, as Playwright's.
  expect(runGrep(...info(['-g', '@CATALOG\\.SEARCH']))(search)).toBe(true);
  expect(runGrep(...info(['-g', '/@CATALOG\\.SEARCH/']))(search)).toBe(false);
});

test("should leave out the checks the inverted grep or the project's grep leaves out, and run all without a grep", () => {
  const search = check('catalog.search', ['@operations', '@catalog.search']);
  const details = check('orders.details', ['@operations', '@orders.details']);
  expect([search, details].map(runGrep(...info([])))).toEqual([true, true]);
  expect([search, details].map(runGrep(...info(['-G', '@orders'])))).toEqual([true, false]);
  expect([search, details].map(runGrep(...info(['--grep-invert=@catalog'])))).toEqual([false, true]);
  expect([search, details].map(runGrep(...info([], { grep: [/@orders\.details/, /nothing/], grepInvert: null })))).toEqual([false, true]);
  expect([search, details].map(runGrep(...info([], { grep: /.*/, grepInvert: /@orders/ })))).toEqual([true, false]);
});

test("should read a check's title after its group's title path, and the group's tags for a check that declares none", () => {
  expect(check('catalog.search')).toBe(
    ' contracts operations.spec.ts should answer a valid call of each operation (production) should answer a valid catalog.search call (production) @operations @catalog.search @orders.details',
  );
  // A grep on the group's title selects every check of the group.
  expect(runGrep(...info(['-g', 'valid call of each operation']))(check('orders.details', ['@orders.details']))).toBe(true);
});

test("should plan only the grouped checks the run's greps select, and every check of a test without groups", () => {
  const planned = (p: object) => ({ type: 'planned-requests', description: JSON.stringify(p) });
  const group = {
    title: 'should answer a valid call of each operation (production)',
    path: GROUP,
    tags: ['@operations', '@catalog.search', '@orders.details'],
    annotations: [
      planned({
        unit: 'catalog.search',
        requests: 1,
        check: 'should answer a valid catalog.search call (production)',
        tags: ['@catalog.search'],
      }),
      planned({
        unit: 'orders.details',
        requests: 1,
        check: 'should answer a valid orders.details call (production)',
        tags: ['@orders.details'],
      }),
    ],
  };
  const single = {
    title: 'should serve v6.1',
    path: ['', 'contracts', 'versions.spec.ts', 'should serve v6.1'],
    tags: [],
    annotations: [planned({ unit: 'v6.1', requests: 3 })],
  };
  expect(plannedOf([group, single], runGrep(['-g', '@catalog\\.search|v6\\.1']))).toEqual([
    [{ unit: 'catalog.search', requests: 1, check: 'should answer a valid catalog.search call (production)', tags: ['@catalog.search'] }],
    [{ unit: 'v6.1', requests: 3 }],
  ]);
  expect(plannedOf([group, single]).map((p) => p.length)).toEqual([2, 1]);
});

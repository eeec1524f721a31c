import { test, expect } from '@playwright/test';
import { checkGrepTitle, runGrep } from '../../contracts/outcomes/run-grep';

const ALL = { grep: /.*/, grepInvert: null };
const info = (argv: string[], project: { grep: RegExp | RegExp[]; grepInvert: RegExp | RegExp[] | null } = ALL) =>
  ({ config: { argv }, project }) as unknown as Parameters<typeof runGrep>[0];

const GROUP = {
  project: { name: 'contracts' },
  titlePath: ['operations.spec.ts', 'should answer a valid call of each operation (production)'],
};
const check = (id: string, tags?: string[]) =>
  checkGrepTitle(
    { ...GROUP, tags: ['@operations', '@catalog.search', '@orders.details'] } as never,
    `should answer a valid ${id} call (production)`,
    tags,
  );

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
    const selected = runGrep(info(argv));
    expect([selected(search), selected(details)], argv.join(' ')).toEqual([true, false]);
  }
  // Case-insensitive unless written as /source/flags, as Playwright's.
  expect(runGrep(info(['-g', '@CATALOG\\.SEARCH']))(search)).toBe(true);
  expect(runGrep(info(['-g', '/@CATALOG\\.SEARCH/']))(search)).toBe(false);
});

test("should leave out the checks the inverted grep or the project's grep leaves out, and run all without a grep", () => {
  const search = check('catalog.search', ['@operations', '@catalog.search']);
  const details = check('orders.details', ['@operations', '@orders.details']);
  expect([search, details].map(runGrep(info([])))).toEqual([true, true]);
  expect([search, details].map(runGrep(info(['-G', '@orders'])))).toEqual([true, false]);
  expect([search, details].map(runGrep(info(['--grep-invert=@catalog'])))).toEqual([false, true]);
  expect([search, details].map(runGrep(info([], { grep: [/@orders\.details/, /nothing/], grepInvert: null })))).toEqual([false, true]);
  expect([search, details].map(runGrep(info([], { grep: /.*/, grepInvert: /@orders/ })))).toEqual([true, false]);
});

test("should read a check's title after its group's title path, and the group's tags for a check that declares none", () => {
  expect(check('catalog.search')).toBe(
    ' contracts operations.spec.ts should answer a valid call of each operation (production) should answer a valid catalog.search call (production) @operations @catalog.search @orders.details',
  );
  // A grep on the group's title selects every check of the group.
  expect(runGrep(info(['-g', 'valid call of each operation']))(check('orders.details', ['@orders.details']))).toBe(true);
});

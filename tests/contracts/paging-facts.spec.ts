/** What two pages of a search must say (contracts/judge/paging-facts.ts), on answers written here. */
import { test, expect } from '@playwright/test';
import { PAGED_SEARCHES } from '../../catalogue';
import { pageOf, pageProblems, recordsFoundProblem, repeatsPage } from '../../contracts/judge/paging-facts';

const search = PAGED_SEARCHES['quotes.search'];
const quotes = (...ids: string[]) => ids.map((quoteNumber) => ({ quoteNumber }));
const answer = (recordsFound: unknown, pageSize: unknown, pageNumber: unknown, ...ids: string[]) => ({
  recordsFound,
  pageSize,
  pageNumber,
  quotes: quotes(...ids),
});

test('should find nothing wrong with two pages as published', () => {
  const [one, two] = [pageOf(answer(5, 2, 1, 'Q1', 'Q2'), search, 2, 1), pageOf(answer(5, 2, 2, 'Q3', 'Q4'), search, 2, 2)];
  expect([...pageProblems(one), ...pageProblems(two)]).toEqual([]);
  expect([recordsFoundProblem(one), recordsFoundProblem(two)]).toEqual([null, null]);
  expect(repeatsPage(one, two)).toBe(false);
});

test('should name a page longer than asked and a pageSize or pageNumber other than asked', () => {
  const p = pageOf(answer(5, 25, 1, 'Q1', 'Q2', 'Q3'), search, 2, 2);
  expect(pageProblems(p)).toEqual([
    'page 2 lists 3 entries where pageSize 2 was asked',
    'page 2 answers pageSize 25 where 2 was asked',
    'page 2 answers pageNumber 1 where 2 was asked',
  ]);
});

test('should tell page 1 repeated as page 2, and a recordsFound its pages contradict', () => {
  const one = pageOf(answer(5, 2, 1, 'Q1', 'Q2'), search, 2, 1);
  expect(repeatsPage(one, pageOf(answer(5, 2, 2, 'Q1', 'Q2'), search, 2, 2))).toBe(true);
  expect(recordsFoundProblem(pageOf(answer(2, 2, 2, 'Q3', 'Q4'), search, 2, 2))).toMatch(/lists 2 entries where recordsFound 2 leaves 0/);
  expect(recordsFoundProblem(pageOf(answer(3, 2, 2, 'Q3', 'Q4'), search, 2, 2))).toMatch(/leaves 1/);
});

test('should read integer strings as the document examples write them, and judge nothing it does not give', () => {
  const p = pageOf(answer('5', '2', '1', 'Q1', 'Q2'), search, 2, 1);
  expect([p.recordsFound, p.pageSize, p.pageNumber]).toEqual([5, 2, 1]);
  const bare = pageOf({ quotes: quotes('Q1') }, search, 2, 1);
  expect([pageProblems(bare), recordsFoundProblem(bare)]).toEqual([[], null]);
});

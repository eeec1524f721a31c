/**
 * Paging as published: each search the distributor's document gives `pageSize` and `pageNumber` for
 * (catalogue/paging.ts) is asked a page smaller than what the target holds, then the next one. Documented
 * facts fail (contracts/judge/paging-facts.ts); a `recordsFound` that changes between the two pages, nothing
 * written between them, is a finding. A target that holds too few records to page says so: not run, with
 * what it answered, never passed.
 */
import { PAGED_SEARCHES, PAGE_QUERY, isPagedSearch, type EnvironmentName, type Operation } from '../catalogue';
import { evidenceOf, type ApiResponse } from '../clients/http';
import { recordFinding } from './record/finding-recorder';
import { pageOf, pageProblems, recordsFoundProblem, repeatsPage, type Page } from './judge/paging-facts';
import { test, expect, harnessConfig, label, notRun, selectedOperations, type Session } from './session/test';
import { CheckGroup } from './outcomes/check-groups';
import { writesBetween, writesSeen } from './session/write-log';
import { findingNotJudged } from './outcomes/finding-not-judged';
import { judges } from './record/fact-declarations';

const RECORDS_FOUND_CHANGED = 'paging.records-found-changed';

const cfg = harnessConfig();
const SEARCHES = selectedOperations(cfg).filter((o) => isPagedSearch(o.id));
/** The page size asked: small, so that a target holding a few records can still be paged. */
const PAGE_SIZE = 2;

/** Asks page `number` of PAGE_SIZE entries; fails on an answer other than 2xx. */
async function askPage(session: Session, op: Operation, env: EnvironmentName, number: number): Promise<{ res: ApiResponse; page: Page }> {
  const res = await session.call(op, env, { query: { [PAGE_QUERY.size]: String(PAGE_SIZE), [PAGE_QUERY.number]: String(number) } });
  expect(
    res,
    `Broken fact: ${op.id} answers a page asked with pageSize and pageNumber (${env})\nReceived: ${evidenceOf(res)}`,
  ).toHaveStatusIn(200, 299);
  const search = PAGED_SEARCHES[op.id as keyof typeof PAGED_SEARCHES];
  return { res, page: pageOf(res.json, search, PAGE_SIZE, number) };
}

/** Fails (softly: each page's facts are reported) on the page's own broken facts. */
function expectPageFacts(op: Operation, env: EnvironmentName, { res, page }: { res: ApiResponse; page: Page }): void {
  expect
    .soft(
      pageProblems(page),
      `Broken fact: pageSize is the number of records required in the call, pageNumber the page (${op.id}, ${env})\nEvidence: ${evidenceOf(res)}`,
    )
    .toEqual([]);
}

/**
 * The finding on recordsFound across the two pages, judged only where no write of the run could have changed
 * the list between them (else the same target would read `changed` in one run and `stable` in the next): not
 * judged, with the reason, otherwise.
 */
function recordRecordsFound(
  op: Operation,
  env: EnvironmentName,
  [r1, r2]: [number, number],
  writes: string | null,
  res: ApiResponse,
): void {
  const evidence = `recordsFound ${r1} on page 1, ${r2} on page 2; ${evidenceOf(res)}`;
  if (writes) {
    findingNotJudged(test.info(), RECORDS_FOUND_CHANGED, `${writes}: ${evidence}`, { environment: env, operationId: op.id });
    return;
  }
  recordFinding(RECORDS_FOUND_CHANGED, r1 === r2 ? 'stable' : 'changed', evidence, {
    environment: env,
    operationId: op.id,
    policyFile: cfg.policyFile,
  });
}

/** Two pages of a search, and what they show. */
async function judgePaging(session: Session, op: Operation, env: EnvironmentName): Promise<void> {
  label(test.info(), op, env, 'paging');
  const { changedBy } = PAGED_SEARCHES[op.id as keyof typeof PAGED_SEARCHES];
  const before = writesSeen(changedBy);
  const first = await askPage(session, op, env, 1);
  expectPageFacts(op, env, first);
  if (first.page.items.length < PAGE_SIZE)
    notRun(
      test.info(),
      `${op.id} lists ${first.page.items.length} record(s) in ${env}, too few to page by ${PAGE_SIZE}: ${evidenceOf(first.res)}`,
    );
  const second = await askPage(session, op, env, 2);
  expectPageFacts(op, env, second);
  const [r1, r2] = [first.page.recordsFound, second.page.recordsFound];
  if (second.page.items.length === 0 && (r1 ?? 0) <= PAGE_SIZE && (r2 ?? 0) <= PAGE_SIZE)
    notRun(test.info(), `${op.id} holds ${r1 ?? 'no more than'} ${PAGE_SIZE} record(s) in ${env}: a second page has none to list`);
  expect(
    repeatsPage(first.page, second.page),
    `Broken fact: pageNumber is the page asked: page 2 is not page 1 again (${op.id}, ${env})\nReceived: ${second.page.keys.join(', ')} on both; ${evidenceOf(second.res)}`,
  ).toBe(false);
  if (r1 !== undefined && r2 !== undefined) recordRecordsFound(op, env, [r1, r2], writesBetween(before, writesSeen(changedBy)), second.res);
  for (const p of [first, second]) {
    expect
      .soft(
        recordsFoundProblem(p.page),
        `Broken fact: recordsFound is the number of records found for the search (${op.id}, ${env})\nEvidence: ${evidenceOf(p.res)}`,
      )
      .toBeNull();
  }
}

for (const env of cfg.environments) {
  // One test per environment, one check per search, several at once against a distant target (outcomes/check-groups.ts).
  const pagings = new CheckGroup<{ session: Session }>();
  for (const op of SEARCHES)
    pagings.check(
      `should page ${op.id} as published: at most pageSize entries, the page asked, recordsFound as the pages hold (${env})`,
      // Two pages.
      { unit: op.id, requests: 2, facts: judges(env, op.id, 'paging.as-published') },
      async ({ session }) => judgePaging(session, op, env),
      ['@paging', `@${op.id}`],
    );
  test(
    `should page each search as published: at most pageSize entries, the page asked, recordsFound as the pages hold (${env})`,
    pagings.details(),
    async ({ session }) => pagings.run({ session }, session.pace),
  );
}

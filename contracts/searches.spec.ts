/**
 * Searches answer what their documented filters ask for: each search is asked with each filter, one check per
 * filter, set to a value of the target's data: an id (KNOWN_IDS, else listed by that same search: clients/ids.ts,
 * shared with the details checks, so no extra call), or the field of the first entry the search lists unfiltered
 * (one more call); every item of the filtered answer that has the field must carry that value (catalogue/answers.ts:
 * the filters and item fields the published document defines).
 */
import { filteredField, valuesAt, type EnvironmentName, type IdName, type Operation, type SearchFilter } from '../catalogue';
import { evidenceOf, type ApiResponse } from '../clients/http';
import { IdResolver } from '../clients/ids';
import { itemsNotMatching, searchFilters } from './judge/answer-facts';
import { test, expect, harnessConfig, label, notRun, selectedOperations, type Session } from './session/test';
import { CheckGroup } from './outcomes/check-groups';
import { judges } from './record/fact-declarations';

const cfg = harnessConfig();
const SEARCHES: Operation[] = selectedOperations(cfg).filter((o) => searchFilters(o).length > 0);

/**
 * The value of a filter on a field of the search's entries: the first entry's that has one, as the search listed it
 * unfiltered (an empty value asks for nothing: the published examples list empty ids).
 */
function listedValue(f: SearchFilter, listed: ApiResponse | undefined): string {
  const { items, field } = filteredField(f);
  const value = valuesAt(listed?.json, [items, '*', field]).find((v) => v !== '');
  return value ?? notRun(test.info(), `no entry listed carries ${field} to filter by: ${listed ? evidenceOf(listed) : 'no answer'}`);
}

/** An id of the target's data (KNOWN_IDS, else listed by its search); not run without one. */
async function idValue(session: Session, name: IdName, env: EnvironmentName): Promise<string> {
  if (!session.idResolver) notRun(test.info(), 'no id resolver: the ids of the target are unknown');
  const id = await session.idResolver.resolve(name, env);
  return IdResolver.isResolved(id) ? id.value : notRun(test.info(), id.reason);
}

/**
 * Asks `op` with the documented filter `f` set to a value of the target's data (an id, or the field of an entry the
 * search lists unfiltered); every item listed must match it.
 */
async function judgeFilter(session: Session, op: Operation, f: SearchFilter, env: EnvironmentName): Promise<void> {
  label(test.info(), op, env, 'search-filter');
  const value = typeof f.id === 'string' ? await idValue(session, f.id, env) : listedValue(f, await session.call(op, env));
  const res = await session.call(op, env, { query: { [f.query]: value } });
  expect(res, `Broken fact: ${op.id} answers a documented filter (${env})\nReceived: ${evidenceOf(res)}`).toHaveStatusIn(200, 299);
  expect
    .soft(
      itemsNotMatching(f, value, res.json),
      `Broken fact: ${op.id} filtered by ${f.query}=${value} lists only items whose ${filteredField(f).field} ${f.inPart ? 'contains' : 'is'} ${value} (${env})\nReceived: ${evidenceOf(res)}`,
    )
    .toEqual([]);
}

for (const env of cfg.environments) {
  // One test per environment, one check per search and filter, several at once against a distant target (outcomes/check-groups.ts).
  const filtered = new CheckGroup<{ session: Session }>();
  for (const op of SEARCHES)
    for (const f of searchFilters(op))
      filtered.check(
        `should answer ${op.id} filtered by ${f.query} with matching items only (${env})`,
        // One call; an id comes from the searches the session makes once (request-plan.ts), another value from one search.
        { unit: op.id, requests: typeof f.id === 'string' ? 1 : 2, facts: judges(env, op.id, `search.filter.${f.query}`) },
        async ({ session }) => judgeFilter(session, op, f, env),
        ['@operations', '@searches', `@${op.id}`],
      );
  test(
    `should answer each search filtered by its documented filters with matching items only (${env})`,
    filtered.details(),
    async ({ session }) => filtered.run({ session }, session.pace),
  );
}

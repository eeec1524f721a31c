/**
 * Searches answer what their documented filters ask for: each search is asked with a filter set to an id
 * of the target's data (KNOWN_IDS, else listed by that same search: clients/ids.ts, shared with the
 * details checks, so no extra call), and every item of the filtered answer that has the field must carry
 * that value (catalogue/answers.ts: the filters and item fields the published document defines).
 */
import { filteredField, valuesAt, type EnvironmentName, type IdName, type Operation, type SearchFilter } from '../catalogue';
import { evidenceOf, type ApiResponse } from '../clients/http';
import { IdResolver } from '../clients/ids';
import { itemsNotMatching, searchFilters } from './judge/answer-facts';
import { test, expect, harnessConfig, label, notRun, selectedOperations, type Session } from './session/test';
import { CheckGroup } from './outcomes/check-groups';
import { judges } from './outcomes/fact-ledger';

const cfg = harnessConfig();
const SEARCHES: Operation[] = selectedOperations(cfg).filter((o) => searchFilters(o).length > 0);

/** The value of a filter on a field of the search's entries: the first entry's, as the search listed it unfiltered. */
function listedValue(f: SearchFilter, listed: ApiResponse | undefined): string {
  const { items, field } = filteredField(f);
  const value = valuesAt(listed?.json, [items, '*', field])[0];
  return value ?? notRun(test.info(), `no entry listed carries ${field} to filter by: ${listed ? evidenceOf(listed) : 'no answer'}`);
}

/** An id of the target's data (KNOWN_IDS, else listed by its search); not run without one. */
async function idValue(session: Session, name: IdName, env: EnvironmentName): Promise<string> {
  if (!session.idResolver) notRun(test.info(), 'no id resolver: the ids of the target are unknown');
  const id = await session.idResolver.resolve(name, env);
  return IdResolver.isResolved(id) ? id.value : notRun(test.info(), id.reason);
}

/** Asks `op` with each documented filter set to an id of the target's data; every item listed must match it. */
async function judgeFilters(session: Session, op: Operation, env: EnvironmentName): Promise<void> {
  label(test.info(), op, env, 'search-filter');
  const listed = searchFilters(op).some((f) => typeof f.id !== 'string') ? await session.call(op, env) : undefined;
  for (const f of searchFilters(op)) {
    const value = typeof f.id === 'string' ? await idValue(session, f.id, env) : listedValue(f, listed);
    const res = await session.call(op, env, { query: { [f.query]: value } });
    expect(res, `Broken fact: ${op.id} answers a documented filter (${env})\nReceived: ${evidenceOf(res)}`).toHaveStatusIn(200, 299);
    expect
      .soft(
        itemsNotMatching(f, value, res.json),
        `Broken fact: ${op.id} filtered by ${f.query}=${value} lists only items whose ${filteredField(f).field} is ${value} (${env})\nReceived: ${evidenceOf(res)}`,
      )
      .toEqual([]);
  }
}

for (const env of cfg.environments) {
  // One test per environment, one check per search, several at once against a distant target (outcomes/check-groups.ts).
  const filtered = new CheckGroup<{ session: Session }>();
  for (const op of SEARCHES) {
    const filters = searchFilters(op);
    filtered.check(
      `should answer ${op.id} filtered by ${filters.map((f) => f.query).join(', ')} with matching items only (${env})`,
      // One call per filter; the ids come from the searches the session makes once (request-request-plan.ts).
      {
        unit: op.id,
        requests: filters.length + (filters.some((f) => typeof f.id !== 'string') ? 1 : 0),
        facts: judges(env, op.id, ...filters.map((f) => `search.filter.${f.query}`)),
      },
      async ({ session }) => judgeFilters(session, op, env),
      ['@operations', '@searches', `@${op.id}`],
    );
  }
  test(
    `should answer each search filtered by its documented filters with matching items only (${env})`,
    filtered.details(),
    async ({ session }) => filtered.run({ session }, session.pace),
  );
}

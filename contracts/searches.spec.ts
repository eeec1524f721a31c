/**
 * Searches answer what their documented filters ask for: each search is asked with a filter set to an id
 * of the target's data (KNOWN_IDS, else listed by that same search: clients/ids.ts, shared with the
 * details checks, so no extra call), and every item of the filtered answer that has the field must carry
 * that value (catalogue/answers.ts: the filters and item fields the published document defines).
 */
import { filteredField, type Operation } from '../catalogue';
import { evidenceOf } from '../clients/http';
import { IdResolver } from '../clients/ids';
import { itemsNotMatching, searchFilters } from './judge/answer-facts';
import { test, expect, harnessConfig, label, notRun, planned, selectedOperations } from './session/test';

const cfg = harnessConfig();
const SEARCHES: Operation[] = selectedOperations(cfg).filter((o) => searchFilters(o).length > 0);

for (const env of cfg.environments) {
  for (const op of SEARCHES) {
    const filters = searchFilters(op);
    test(
      `should answer ${op.id} filtered by ${filters.map((f) => f.query).join(', ')} with matching items only (${env})`,
      // One call per filter; the ids come from the searches the session makes once (request-request-plan.ts).
      planned({ unit: op.id, requests: filters.length }, { tag: ['@operations', '@searches', `@${op.id}`] }),
      async ({ session }) => {
        label(test.info(), op, env, 'search-filter');
        if (!session.idResolver) notRun(test.info(), 'no id resolver: the ids of the target are unknown');
        for (const f of filters) {
          const id = await session.idResolver.resolve(f.id, env);
          if (!IdResolver.isResolved(id)) notRun(test.info(), id.reason);
          const res = await session.call(op, env, { query: { [f.query]: id.value } });
          expect(res, `Broken fact: ${op.id} answers a documented filter (${env})\nReceived: ${evidenceOf(res)}`).toHaveStatusIn(200, 299);
          expect
            .soft(
              itemsNotMatching(f, id.value, res.json),
              `Broken fact: ${op.id} filtered by ${f.query}=${id.value} lists only items whose ${filteredField(f).field} is ${id.value} (${env})\nReceived: ${evidenceOf(res)}`,
            )
            .toEqual([]);
        }
      },
    );
  }
}

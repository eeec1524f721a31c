/**
 * Searches answer what their documented filters ask for: each search is asked with a filter set to a
 * value its own unfiltered answer listed, and every item of the filtered answer that has the field must
 * carry that value (catalogue/answers.ts: the filters and item fields the published document defines).
 */
import type { Operation } from '../catalogue';
import { evidenceOf } from '../clients/http';
import { valueAt } from '../clients/ids';
import { itemsNotMatching, searchFilters } from './support/answer-facts';
import { test, expect, harnessConfig, label, notRun, selectedOperations } from './support/test';

const cfg = harnessConfig();
const SEARCHES: Operation[] = selectedOperations(cfg).filter((o) => searchFilters(o).length > 0);

for (const env of cfg.environments) {
  for (const op of SEARCHES) {
    const filters = searchFilters(op);
    test(
      `should answer ${op.id} filtered by ${filters.map((f) => f.query).join(', ')} with matching items only (${env})`,
      { tag: ['@operations', '@searches', `@${op.id}`] },
      async ({ session }) => {
        label(test.info(), op, env, 'search-filter');
        const listed = await session.call(op, env);
        expect(listed, `Broken fact: ${op.id} is served (${env})\nReceived: ${evidenceOf(listed)}`).toHaveStatusIn(200, 299);
        let asked = 0;
        for (const f of filters) {
          const value = valueAt(listed.json, [f.items, 0, f.field]);
          if (typeof value !== 'string' || value === '') continue;
          asked += 1;
          const res = await session.call(op, env, { query: { [f.query]: value } });
          expect(res, `Broken fact: ${op.id} answers a documented filter (${env})\nReceived: ${evidenceOf(res)}`).toHaveStatusIn(200, 299);
          expect
            .soft(
              itemsNotMatching(f, value, res.json),
              `Broken fact: ${op.id} filtered by ${f.query}=${value} lists only items whose ${f.field} is ${value} (${env})\nReceived: ${evidenceOf(res)}`,
            )
            .toEqual([]);
        }
        if (asked === 0)
          notRun(
            test.info(),
            `${op.id}'s first item carries none of ${filters.map((f) => `${f.items}[].${f.field}`).join(', ')} to filter by`,
          );
      },
    );
  }
}

/** Which operation a check that holds its bucket calls: not a search the other checks find their ids with. */
import { test, expect } from '@playwright/test';
import { idSources, operationsFor } from '../../catalogue';
import { operationToHold } from '../../contracts/exchanges/held-operations';

const searches = new Set<string>(Object.values(idSources).map((s) => s.from));
const resellerGets = operationsFor().filter((o) => o.family === 'reseller' && o.method === 'GET' && !o.pathParams.length);

test('should hold an operation no check finds ids with, and the first candidate when every one is an id search', () => {
  expect(resellerGets[0]?.id, 'the first candidate is an id search: the choice matters').toBe('catalog.search');
  const held = operationToHold(resellerGets);
  expect(held && searches.has(held.id), `held ${held?.id}`).toBe(false);
  const onlySearches = resellerGets.filter((o) => searches.has(o.id));
  expect(operationToHold(onlySearches)?.id).toBe(onlySearches[0]?.id);
  expect(operationToHold([])).toBeUndefined();
});

/** Which operation a check that holds its bucket calls: one needing no ids, that the fewest checks find ids with. */
import { test, expect } from '@playwright/test';
import { operationsFor } from '../../catalogue';
import { operationToHold } from '../../contracts/exchanges/held-operations';

const all = operationsFor();
const gets = (family: 'reseller' | 'vendor') => all.filter((o) => o.family === family && o.method === 'GET' && !o.pathParams.length);

test('should hold an operation that needs no ids and that the fewest checks find their ids with', () => {
  // The first reseller candidate is the product search, where most checks find their ids: holding it stalls them.
  expect(gets('reseller')[0]?.id).toBe('catalog.search');
  const held = operationToHold(gets('reseller'), all);
  expect(held?.needs, `held ${held?.id}`).toEqual([]);
  expect(held?.id).toBe('deals.search');
  expect(operationToHold(gets('vendor'), all)?.id).toBe('vendor.orders.search');
});

test('should fall back to the first candidate when every candidate needs ids, and hold nothing without one', () => {
  const needing = all.filter((o) => o.needs.length > 0);
  expect(operationToHold(needing, all)?.id).toBe(needing[0]?.id);
  expect(operationToHold([], all)).toBeUndefined();
});

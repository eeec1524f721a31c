/**
 * The mock honours every documented exact-match filter of every search (catalogue/answers.ts `filters`), as certify
 * judges it: asked with a value an entry of its unfiltered answer carries, a search lists that entry and only items
 * carrying the value; asked with a value nothing carries, it lists none. A `-in` filter takes comma-separated values.
 */
import { test, expect } from '@playwright/test';
import type { FastifyInstance } from 'fastify';
import {
  ANSWER_FACTS,
  allOperations,
  familyBase,
  filteredField,
  isOperationId,
  matchesFilter,
  valuesAt,
  type Operation,
  type SearchFilter,
} from '../../catalogue';
import { requestFor } from '../../fixtures';
import { app, authed, token } from './helpers';

const searchFilters = (op: Operation): readonly SearchFilter[] => (isOperationId(op.id) ? ANSWER_FACTS[op.id].filters : []);
const SEARCHES = allOperations().filter((o) => searchFilters(o).length > 0);

/** The search's valid request (its body too) with `query` added; the answer's status and JSON. */
async function ask(a: FastifyInstance, t: string, op: Operation, query: Record<string, string> = {}) {
  const r0 = requestFor(op);
  const q = new URLSearchParams({ ...r0.query, ...query }).toString();
  const r = await a.inject({
    method: op.method,
    url: `${familyBase(op.family, 'production')}${op.path}${q ? `?${q}` : ''}`,
    headers: { ...authed(t), ...(r0.body ? { 'content-type': 'application/json' } : {}) },
    ...(r0.body ? { payload: JSON.stringify(r0.body) } : {}),
  });
  return { status: r.statusCode, json: JSON.parse(r.body) as unknown, what: `${op.id}?${q}: ${r.body}` };
}

/** The answer of a search the mock serves. */
async function search(a: FastifyInstance, t: string, op: Operation, query: Record<string, string> = {}): Promise<unknown> {
  const r = await ask(a, t, op, query);
  expect(r.status, r.what).toBe(200);
  return r.json;
}

/** A value no record carries, short enough for every documented maxLength. */
const NOTHING_CARRIES = 'X0';

const listed = (f: SearchFilter, answer: unknown): string[] => {
  const { items, field } = filteredField(f);
  return valuesAt(answer, [items, '*', field]);
};

test('should list only the items carrying the value of each documented filter, and at least the one it was taken from', async () => {
  const a = await app();
  const t = await token(a);
  const judged: string[] = [];
  for (const op of SEARCHES) {
    const unfiltered = await search(a, t, op);
    for (const f of searchFilters(op)) {
      const values = [...new Set(listed(f, unfiltered).filter((v) => v !== ''))];
      expect(values.length, `${op.id} lists no entry carrying ${filteredField(f).field}`).toBeGreaterThan(0);
      for (const value of values) {
        const found = listed(f, await search(a, t, op, { [f.query]: value }));
        expect(found.length, `${op.id}?${f.query}=${value}`).toBeGreaterThan(0);
        expect(
          found.filter((v) => !matchesFilter(f, value, v)),
          `${op.id}?${f.query}=${value}`,
        ).toEqual([]);
      }
      // Refused where the document lists the values it takes (an enum), else answered with nothing listed.
      const none = await ask(a, t, op, { [f.query]: NOTHING_CARRIES });
      expect(none.status === 400 ? [] : listed(f, none.json), none.what).toEqual([]);
      judged.push(`${op.id} ${f.query}`);
    }
  }
  // The filters the published document gives as exact values on a field each listed item carries.
  expect(judged).toEqual(
    expect.arrayContaining([
      'quotes.search status',
      'invoices.search endCustomerOrderNumber',
      'renewals.search customerOrderNumber',
      'returns.search returnClaimId',
      'returns.search referenceNumber',
      'returns.search returnStatus-in',
    ]),
  );
  await a.close();
});

test('should list the items carrying any of the comma-separated values of a -in filter', async () => {
  const a = await app();
  const t = await token(a);
  const op = allOperations().find((o) => o.id === 'returns.search') as Operation;
  const status = (answer: unknown) => valuesAt(answer, ['returnsClaims', '*', 'status']);
  const all = status(await search(a, t, op));
  const [one] = all;
  expect(one).toBeDefined();
  expect(status(await search(a, t, op, { 'returnStatus-in': `VOIDED,${one}` })).sort()).toEqual(all.filter((s) => s === one).sort());
  expect(status(await search(a, t, op, { 'returnStatus-in': 'VOIDED,DENIED' }))).toEqual([]);
  await a.close();
});

test('should list every quote whose number contains the part of one asked, as the document says of quoteNumber', async () => {
  const a = await app();
  const t = await token(a);
  const op = allOperations().find((o) => o.id === 'quotes.search') as Operation;
  const numbers = (answer: unknown) => valuesAt(answer, ['quotes', '*', 'quoteNumber']);
  const all = numbers(await search(a, t, op));
  const part = 'QUO-';
  expect(all.filter((n) => n.includes(part)).length).toBeGreaterThan(1);
  expect(numbers(await search(a, t, op, { quoteNumber: part })).sort()).toEqual(all.filter((n) => n.includes(part)).sort());
  const [one] = all;
  expect(numbers(await search(a, t, op, { quoteNumber: (one as string).slice(2) }))).toEqual([one]);
  await a.close();
});

/** The mock pages its searches as the published document says (catalogue/paging.ts). */
import { test, expect } from '@playwright/test';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, PAGED_SEARCHES, allOperations, type Operation } from '../../catalogue';
import { app, authed, token } from './helpers';

type Answer = { recordsFound: number; pageSize: number; pageNumber: number } & Record<string, unknown>;

for (const [id, { list, id: key }] of Object.entries(PAGED_SEARCHES)) {
  const op = allOperations().find((o) => o.id === id) as Operation;

  test(`should page ${id}: at most pageSize entries, the page asked, recordsFound the whole search, the default and the maximum size`, async () => {
    const a = await app();
    try {
      const t = authed(await token(a));
      const page = async (query: string) => {
        const r = await a.inject({ method: 'GET', url: `${op.path}${query}`, headers: t });
        expect(r.statusCode, r.body).toBe(200);
        return JSON.parse(r.body) as Answer;
      };
      const all = await page('');
      const entries = (p: Answer) => (p[list] as Record<string, string>[]).map((e) => e[key]);
      expect([all.pageSize, all.pageNumber]).toEqual([DEFAULT_PAGE_SIZE, 1]);
      expect(all.recordsFound, 'the seeded world holds enough to page by 2').toBeGreaterThan(2);
      const [one, two] = [await page('?pageSize=2&pageNumber=1'), await page('?pageSize=2&pageNumber=2')];
      expect([one.pageSize, one.pageNumber, two.pageSize, two.pageNumber]).toEqual([2, 1, 2, 2]);
      expect([one.recordsFound, two.recordsFound]).toEqual([all.recordsFound, all.recordsFound]);
      expect([...entries(one), ...entries(two)]).toEqual(entries(all).slice(0, 4));
      const beyond = await page(`?pageSize=${MAX_PAGE_SIZE + 50}`);
      expect(beyond.pageSize).toBe(MAX_PAGE_SIZE);
      const last = await page(`?pageSize=2&pageNumber=${Math.ceil(all.recordsFound / 2) + 1}`);
      expect(entries(last)).toEqual([]);
    } finally {
      await a.close();
    }
  });
}

/** The drift mode headers.sandbox-frozen: the sandbox's headers never count down, production's still do. */
import { test, expect } from '@playwright/test';
import { ManualClock } from '../../../mock';
import { app, token, authed } from '../helpers';

test('should freeze X-RateLimit-Remaining at Limit - 1 in the sandbox only, and leave the limiter and production as they were', async () => {
  const a = await app({ clock: new ManualClock(1_800_000_000_000), limits: { 'catalog.search': 3 } }, ['headers.sandbox-frozen']);
  const t = authed(await token(a));
  const remaining = async (url: string) => {
    const r = await a.inject({ method: 'GET', url, headers: t });
    return `${r.statusCode} ${r.headers['x-ratelimit-remaining']}`;
  };
  const sandbox: string[] = [];
  for (let i = 0; i < 4; i++) sandbox.push(await remaining('/sandbox/resellers/v6/catalog'));
  // The limiter still counts: the fourth call is refused, with the 429's own Remaining 0.
  expect(sandbox).toEqual(['200 2', '200 2', '200 2', '429 0']);
  const production: string[] = [];
  for (let i = 0; i < 3; i++) production.push(await remaining('/resellers/v6/catalog'));
  expect(production).toEqual(['200 2', '200 1', '200 0']);
  await a.close();
});

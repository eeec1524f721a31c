import { test, expect } from '@playwright/test';
import { ManualClock, startMock } from '../../mock';
import { app, token, authed, FORM, RESELLER, RESELLER_B } from './helpers';

test.describe('mock rate limits', () => {
  test('should count per app and per operation, answer 429 with the spec body, and refill at the window end', async () => {
    const clock = new ManualClock(1_800_000_000_000);
    const a = await app({ clock, windowMs: 1000, limits: { 'catalog.search': 3 } });
    const t = authed(await token(a));
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await a.inject({ method: 'GET', url: '/resellers/v6/catalog', headers: t });
      expect(r.statusCode).toBe(200);
      seen.push(r.headers['x-ratelimit-remaining'] as string);
      expect(r.headers['x-ratelimit-reset']).toBe(String(Math.ceil((1_800_000_000_000 + 1000) / 1000)));
    }
    expect(seen).toEqual(['2', '1', '0']);
    const over = await a.inject({ method: 'GET', url: '/resellers/v6/catalog', headers: t });
    expect(over.statusCode).toBe(429);
    expect(JSON.parse(over.body)).toMatchObject({ errors: [{ field: null, message: 'Too many requests' }] });
    expect(over.headers['x-ratelimit-remaining']).toBe('0');
    expect(over.headers['x-ratelimit-limit']).toBe('3');
    // Other operation and other app: own buckets.
    expect((await a.inject({ method: 'GET', url: '/resellers/v6/deals/search', headers: t })).headers['x-ratelimit-remaining']).toBe('59');
    const tb = authed(await token(a, RESELLER_B));
    expect((await a.inject({ method: 'GET', url: '/resellers/v6/catalog', headers: tb })).statusCode).toBe(200);
    clock.advance(999);
    expect((await a.inject({ method: 'GET', url: '/resellers/v6/catalog', headers: t })).statusCode).toBe(429);
    clock.advance(1);
    const after = await a.inject({ method: 'GET', url: '/resellers/v6/catalog', headers: t });
    expect(after.statusCode).toBe(200);
    expect(after.headers['x-ratelimit-remaining']).toBe('2');
    await a.close();
  });

  test('should report Reset as seconds until the window end when asked', async () => {
    const clock = new ManualClock(1_800_000_000_000);
    const a = await app({ clock, windowMs: 5000, resetUnit: 'seconds' });
    const t = authed(await token(a));
    const r = await a.inject({ method: 'GET', url: '/resellers/v6/catalog', headers: t });
    expect(r.headers['x-ratelimit-reset']).toBe('5');
    clock.advance(2500);
    expect((await a.inject({ method: 'GET', url: '/resellers/v6/catalog', headers: t })).headers['x-ratelimit-reset']).toBe('3');
    await a.close();
  });

  test('should give GET operations 60 and writes their profile limits', async () => {
    const a = await app();
    const limits = JSON.parse((await a.inject({ method: 'GET', url: '/__mock/limits' })).body) as Record<string, number>;
    expect(limits['catalog.search']).toBe(60);
    expect(limits['orders.create']).toBe(150);
    expect(limits['catalog.priceAndAvailability']).toBe(500);
    await a.close();
  });

  test('should allow exactly the limit per window and never a negative Remaining under 50 concurrent clients', async () => {
    // The windows move by the mock's clock, not by real time: each window gets the same burst of
    // concurrent requests over real sockets, whatever the speed of the machine.
    const clock = new ManualClock(1_800_000_000_000);
    const windowMs = 1000;
    const limit = 40;
    const clients = 50;
    const mock = await startMock({ clock, windowMs, limits: { 'deals.search': limit } });
    try {
      const tr = await fetch(`${mock.url}/oauth/oauth20/token`, { method: 'POST', headers: FORM, body: RESELLER });
      const t = ((await tr.json()) as { access_token: string }).access_token;
      for (let w = 0; w < 3; w++) {
        const answers = (
          await Promise.all(
            Array.from({ length: clients }, async () => {
              const seen: { status: number; remaining: number; reset: string | null }[] = [];
              for (let i = 0; i < 2; i++) {
                const r = await fetch(`${mock.url}/resellers/v6/deals/search`, { headers: authed(t) });
                await r.arrayBuffer();
                seen.push({
                  status: r.status,
                  remaining: Number(r.headers.get('x-ratelimit-remaining') ?? NaN),
                  reset: r.headers.get('x-ratelimit-reset'),
                });
              }
              return seen;
            }),
          )
        ).flat();
        const ok = answers.filter((a) => a.status === 200);
        expect(ok, `window ${w}: exactly the limit is allowed`).toHaveLength(limit);
        expect(
          answers.filter((a) => a.status === 429),
          `window ${w}: every other call is refused`,
        ).toHaveLength(2 * clients - limit);
        // NaN (an absent header) fails this too.
        expect(
          answers.every((a) => a.remaining >= 0),
          `window ${w}: Remaining is a number and never negative`,
        ).toBe(true);
        expect(new Set(ok.map((a) => a.reset)).size, `window ${w}: one Reset for the whole window`).toBe(1);
        expect(ok.map((a) => a.remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: limit }, (_, i) => i));
        clock.advance(windowMs);
      }
    } finally {
      await mock.close();
    }
  });
});

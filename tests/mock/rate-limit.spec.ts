import { test, expect } from '@playwright/test';
import { ManualClock, startMock } from '../../mock';
import { app, token, authed, IM, RESELLER_B } from './helpers';

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

  test('should never allow more than the limit per window nor a negative Remaining under 50 concurrent clients', async () => {
    test.setTimeout(60_000);
    const windowMs = 1000;
    const limit = 40;
    const mock = await startMock({ windowMs, limits: { 'deals.search': limit } });
    try {
      const tr = await fetch(`${mock.url}/oauth/oauth20/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials&client_id=demo-reseller&client_secret=demo-reseller-secret',
      });
      const t = ((await tr.json()) as { access_token: string }).access_token;
      const perWindow = new Map<string, number>();
      const deadline = Date.now() + windowMs * 3;
      let negative = 0;
      await Promise.all(
        Array.from({ length: 50 }, async () => {
          while (Date.now() < deadline) {
            const r = await fetch(`${mock.url}/resellers/v6/deals/search`, { headers: { ...IM, authorization: `Bearer ${t}` } });
            await r.arrayBuffer();
            const rem = Number(r.headers.get('x-ratelimit-remaining'));
            if (rem < 0) negative += 1;
            if (r.status === 200) {
              const reset = r.headers.get('x-ratelimit-reset') as string;
              perWindow.set(reset, (perWindow.get(reset) ?? 0) + 1);
            }
          }
        }),
      );
      expect(negative).toBe(0);
      expect(perWindow.size).toBeGreaterThanOrEqual(2);
      for (const [, n] of perWindow) expect(n).toBeLessThanOrEqual(limit);
    } finally {
      await mock.close();
    }
  });
});

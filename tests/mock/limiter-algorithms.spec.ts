import { test, expect } from '@playwright/test';
import { ManualClock } from '../../mock/ground/clock';
import { createLimiter, LIMITER_ALGORITHMS, type AlgorithmDecision, type LimiterAlgorithm } from '../../mock/limits/limiter-algorithms';
import { parseHeaderSpec, parseLimiterSpec } from '../../mock/limits/per-operation-specs';
import { decisionHeaders } from '../../mock/limits/decision-headers';
import { app, authed, token } from './helpers';

const W = 1000;
const L = 4;
const T0 = 1_800_000_000_000;

function setup(algorithm: LimiterAlgorithm, countRefused = false) {
  const clock = new ManualClock(T0);
  const limiter = createLimiter(algorithm, clock, W, { countRefused });
  const call = (): AlgorithmDecision => limiter.consume('k', L);
  const calls = (n: number) => Array.from({ length: n }, call).map((d) => (d.allowed ? 1 : 0) as number);
  return { clock, limiter, call, calls };
}

test.describe('limiter algorithms', () => {
  for (const algorithm of LIMITER_ALGORITHMS) {
    test(`${algorithm}: should allow a burst of the limit from a full bucket, then refuse`, () => {
      const { call, calls } = setup(algorithm);
      expect(calls(L)).toEqual([1, 1, 1, 1]);
      const d = call();
      expect(d.allowed).toBe(false);
      expect(d.remaining).toBe(0);
      expect(d.retryAfterMs).toBeGreaterThan(0);
    });

    test(`${algorithm}: should give back the limit per window in the long run`, () => {
      const { clock, calls } = setup(algorithm);
      let allowed = 0;
      // One call every W / (2L): twice the sustained rate, for 20 windows.
      for (let t = 0; t < 20 * W; t += W / (2 * L)) {
        clock.set(T0 + t);
        allowed += calls(1)[0] as number;
      }
      expect(allowed).toBeGreaterThanOrEqual(20 * L - 1);
      expect(allowed).toBeLessThanOrEqual(21 * L);
    });

    test(`${algorithm}: should allow a call at the advertised retry time after a refusal`, () => {
      const { clock, call, calls } = setup(algorithm);
      calls(L);
      const refused = call();
      clock.advance(refused.retryAfterMs as number);
      expect(call().allowed).toBe(true);
    });
  }

  test('fixed: should refill everything at the window end, not before', () => {
    const { clock, calls } = setup('fixed');
    calls(L + 1);
    clock.advance(W - 1);
    expect(calls(1)).toEqual([0]);
    clock.advance(1);
    expect(calls(L + 1)).toEqual([1, 1, 1, 1, 0]);
  });

  test('sliding-log: should free each slot one window after its call (split pattern)', () => {
    const { clock, calls } = setup('sliding-log');
    expect(calls(2)).toEqual([1, 1]);
    clock.advance(W / 2);
    expect(calls(3)).toEqual([1, 1, 0]);
    clock.advance(W / 2);
    // The first two left the window; the two of the second half are still in it.
    expect(calls(3)).toEqual([1, 1, 0]);
  });

  test('sliding-counter: should weight the previous aligned window by its part still in the sliding window', () => {
    const clock = new ManualClock(T0 - (T0 % W));
    const limiter = createLimiter('sliding-counter', clock, W);
    const calls = (n: number) => Array.from({ length: n }, () => (limiter.consume('k', L).allowed ? 1 : 0));
    expect(calls(L + 1)).toEqual([1, 1, 1, 1, 0]);
    clock.advance(W); // previous = 4, weight 1: nothing yet
    expect(calls(1)).toEqual([0]);
    clock.advance(W / 2); // weight 0.5: estimate 2, so 2 calls
    expect(calls(3)).toEqual([1, 1, 0]);
    clock.advance(W / 4); // estimate 4 * 0.25 + 2 = 3: one more
    expect(calls(2)).toEqual([1, 0]);
  });

  test('token-bucket and leaky-bucket: should refill one call every window / limit', () => {
    for (const algorithm of ['token-bucket', 'leaky-bucket'] as const) {
      const { clock, call, calls } = setup(algorithm);
      calls(L + 1);
      clock.advance(W / L - 1);
      expect(call().allowed, algorithm).toBe(false);
      clock.advance(1);
      expect(calls(2), algorithm).toEqual([1, 0]);
      clock.advance((3 * W) / L);
      expect(calls(4), algorithm).toEqual([1, 1, 1, 0]);
    }
  });

  test('countRefused: should keep a client that polls while refused locked out, except with a fixed window', () => {
    for (const algorithm of LIMITER_ALGORITHMS) {
      for (const countRefused of [false, true]) {
        const { clock, calls } = setup(algorithm, countRefused);
        calls(L);
        let allowed = 0;
        // Poll every W / (2L) for 3 windows: twice as often as the refill.
        for (let i = 0; i < 6 * L; i++) {
          clock.advance(W / (2 * L));
          allowed += calls(1)[0] as number;
        }
        if (countRefused && algorithm !== 'fixed') expect(allowed, `${algorithm} counting refused calls`).toBe(0);
        else expect(allowed, `${algorithm} ${countRefused ? 'counting' : 'not counting'} refused calls`).toBeGreaterThanOrEqual(2 * L);
      }
    }
  });

  test('countRefused: a refused call should move the advertised reset of a sliding log later', () => {
    const { clock, calls, call } = setup('sliding-log', true);
    calls(L);
    const first = call();
    clock.advance(100);
    const second = call();
    expect(second.windowEndMs - first.windowEndMs).toBe(100);
    // The next free slot is still the oldest call's: the refusals only push back the full refill.
    expect(first.retryAfterMs).toBe(W);
    expect(second.retryAfterMs).toBe(W - 100);
  });

  test('headers: should write each header style for an allowed call and a refusal', () => {
    const { call, calls, clock } = setup('fixed');
    const ok = call();
    expect(decisionHeaders(ok, 'x-ratelimit', { nowMs: clock.now(), status: 200, windowMs: W })).toEqual({
      'X-RateLimit-Limit': '4',
      'X-RateLimit-Remaining': '3',
      'X-RateLimit-Reset': String((T0 + W) / 1000),
    });
    expect(decisionHeaders(ok, 'x-ratelimit', { nowMs: clock.now(), status: 200, windowMs: W, resetUnit: 'seconds' })).toMatchObject({
      'X-RateLimit-Reset': '1',
    });
    expect(decisionHeaders(ok, 'ietf', { nowMs: clock.now(), status: 200, windowMs: W })).toEqual({
      'RateLimit-Policy': '"default";q=4;w=1',
      RateLimit: '"default";r=3;t=1',
    });
    calls(3);
    clock.advance(300);
    const refused = call();
    expect(decisionHeaders(refused, 'ietf', { nowMs: clock.now(), status: 429, windowMs: W })).toEqual({
      'RateLimit-Policy': '"default";q=4;w=1',
      RateLimit: '"default";r=0;t=1',
      'Retry-After': '1',
    });
    expect(decisionHeaders(refused, 'none', { nowMs: clock.now(), status: 429, windowMs: W })).toEqual({});
  });

  test('should parse a default algorithm and per-operation ones, and name the known ones on a typo', () => {
    expect(parseLimiterSpec('token-bucket')).toEqual({ default: 'token-bucket', byOperation: {} });
    expect(parseLimiterSpec('fixed,orders.create=sliding-log')).toEqual({
      default: 'fixed',
      byOperation: { 'orders.create': 'sliding-log' },
    });
    expect(() => parseLimiterSpec('orders.create=gcra')).toThrow(/unknown algorithm "gcra".*fixed, sliding-log/);
  });

  test('should send each operation its own header style, and name the known styles on a typo', async () => {
    expect(parseHeaderSpec('none,catalog.search=ietf')).toEqual({ default: 'none', byOperation: { 'catalog.search': 'ietf' } });
    expect(() => parseHeaderSpec('catalog.search=draft-7')).toThrow(/--headers: unknown header style "draft-7".*x-ratelimit, ietf, none/);
    const a = await app({ headers: { byOperation: { 'catalog.search': 'ietf', 'deals.search': 'none' } } });
    const t = authed(await token(a));
    const ietf = await a.inject({ method: 'GET', url: '/resellers/v6/catalog', headers: t });
    expect(ietf.headers['ratelimit-policy']).toBeDefined();
    expect(ietf.headers['x-ratelimit-limit']).toBeUndefined();
    const none = await a.inject({ method: 'GET', url: '/resellers/v6/deals/search', headers: t });
    expect(Object.keys(none.headers).filter((h) => /ratelimit/i.test(h))).toEqual([]);
    // Any other operation keeps the default header style.
    const other = await a.inject({ method: 'GET', url: '/resellers/v6/orders/search', headers: t });
    expect(other.headers['x-ratelimit-limit']).toBeDefined();
    await a.close();
  });
});

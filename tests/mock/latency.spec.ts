/**
 * The mock's added latency per operation (--latency): parsed once into typed options, refused when malformed or
 * naming an unknown operation, and held on the named operation only.
 */
import { test, expect } from '@playwright/test';
import { drawDelay, parseLatencySpec } from '../../mock/latency/latency';
import { app, bearer, IM, token } from './helpers';

const KNOWN = ['orders.search', 'catalog.details'];

test.describe('the mock latency option', () => {
  test('should read a fixed delay, a uniform jitter and an exponential tail per operation', () => {
    expect(parseLatencySpec('orders.search=20ms, catalog.details=5ms±2ms', KNOWN)).toEqual({
      'orders.search': { fixedMs: 20 },
      'catalog.details': { fixedMs: 5, jitter: { kind: 'uniform', spreadMs: 2 } },
    });
    expect(parseLatencySpec('catalog.details=5ms+-2ms', KNOWN)['catalog.details']?.jitter).toEqual({ kind: 'uniform', spreadMs: 2 });
    expect(parseLatencySpec('orders.search=1.5ms+exp(3ms)', KNOWN)['orders.search']).toEqual({
      fixedMs: 1.5,
      jitter: { kind: 'exponential', meanMs: 3 },
    });
  });

  test('should refuse an unknown operation, a malformed entry and an operation given twice', () => {
    expect(() => parseLatencySpec('orders.serch=20ms', KNOWN)).toThrow(
      /unknown operation "orders.serch"; expected one of orders.search, catalog.details/,
    );
    expect(() => parseLatencySpec('orders.search=20', KNOWN)).toThrow(/entries look like orders.search=20ms.*received "orders.search=20"/);
    expect(() => parseLatencySpec('orders.search=20ms,orders.search=1ms', KNOWN)).toThrow(/given twice/);
  });

  test('should draw jitter within its bounds and never a negative delay', () => {
    let i = 0;
    const draws = [0, 0.5, 0.999];
    const next = () => draws[i++ % draws.length] as number;
    const uniform = { fixedMs: 5, jitter: { kind: 'uniform', spreadMs: 2 } } as const;
    expect([drawDelay(uniform, next), drawDelay(uniform, next), drawDelay(uniform, next)].map((v) => Math.round(v * 10) / 10)).toEqual([
      3, 5, 7,
    ]);
    expect(drawDelay({ fixedMs: 1, jitter: { kind: 'uniform', spreadMs: 5 } }, () => 0)).toBe(0);
  });

  test('should hold the named operation for its delay and leave the others alone', async () => {
    const a = await app({ latency: { 'orders.search': { fixedMs: 60 } } });
    const t = { ...bearer(await token(a)), ...IM };
    const timed = async (url: string) => {
      const started = performance.now();
      const r = await a.inject({ method: 'GET', url, headers: t });
      return { status: r.statusCode, ms: performance.now() - started };
    };
    const slow = await timed('/resellers/v6/orders/search');
    const other = await timed('/resellers/v6/catalog/details/ABC');
    expect(slow.status).toBe(200);
    expect(slow.ms).toBeGreaterThanOrEqual(60);
    // The other operation is not held (a busy machine may still take a while to answer it, never 60 ms of ours).
    expect(other.ms).toBeLessThan(slow.ms);
    await a.close();
  });
});

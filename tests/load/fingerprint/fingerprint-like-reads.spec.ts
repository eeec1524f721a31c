/**
 * A write probed after the read operations all named a token bucket: named so from its exhaustion and refill sampling
 * alone when they agree (the burst and the refill watch), measured whole when they do not (a manual clock).
 */
import { test, expect } from '@playwright/test';
import { HEADER_STYLES } from '../../../mock/limits/decision-headers';
import { readsNamedOf } from '../../../load/plan/probe-plan';
import type { RateLimitFingerprint, ReadsNamed } from '../../../load/lib/fingerprint';
import { simulateWrite, type SimOptions } from './fingerprint-sim';

const TOKEN_BUCKET_READS: ReadsNamed = { algorithm: 'token-bucket', refusedCallsCount: false, operations: ['catalog.details'] };

test.describe('a write named like the read operations', () => {
  test('should name a bucket like the reads from its exhaustion and refill sampling, within the burst and the refill watch', () => {
    for (const algorithm of ['token-bucket', 'leaky-bucket'] as const)
      for (const family of HEADER_STYLES)
        for (const [limit, windowMs] of [
          [30, 2000],
          [150, 5000],
        ] as const) {
          const { fp } = simulateWrite(algorithm, family, { limit, windowMs }, TOKEN_BUCKET_READS);
          const label = `${algorithm}/${family} L=${limit}\n${fp.evidence.join('\n')}`;
          expect(fp.algorithm, label).toBe('token-bucket');
          expect(fp.burst, label).toBe(limit);
          expect(
            Math.abs((fp.sustainedPerSecond as number) - (limit / windowMs) * 1000) / ((limit / windowMs) * 1000),
            label,
          ).toBeLessThanOrEqual(0.1);
          expect(fp.refusedCallsCount, label).toBe(false);
          expect(fp.evidence.join('\n'), label).toMatch(/named as the read operations' limiter \(token-bucket: catalog\.details\)/);
          // The exhaustion and the refill sampling (at least 15 calls back, and a refusal after each drain).
          expect(fp.requestsSpent, label).toBeLessThanOrEqual(1.5 * limit + 30);
        }
  });

  test('should wait, sending nothing, for the reads where their names spare experiments, and go on when told', () => {
    // A write probed beside the reads: it exhausts its bucket and samples its refill with them, then waits.
    const o: SimOptions = { limit: 30, windowMs: 2000 };
    for (const named of [TOKEN_BUCKET_READS, null]) {
      const { fp: r, waits } = simulateWrite('token-bucket', 'x-ratelimit', o, named);
      const label = `${named ? 'told a token bucket' : 'told no one limiter'}\n${r.evidence.join('\n')}`;
      expect(waits, label).toBe(1);
      expect(r.algorithm, label).toBe('token-bucket');
      expect(r.burst, label).toBe(30);
      // Told a token bucket: named like the reads; told none: measured whole (its volley and refused-call test).
      const likeReads = /named as the read operations' limiter/;
      if (named) expect(r.evidence.join('\n'), label).toMatch(likeReads);
      else expect(r.evidence.join('\n'), label).not.toMatch(likeReads);
      expect(
        r.evidence.some((e) => e.startsWith('burst volley')),
        label,
      ).toBe(named === null);
    }
  });

  test('should measure a write whole when its own refill is not a bucket the reads named', () => {
    for (const [algorithm, named] of [
      ['fixed', 'fixed-window'],
      ['sliding-log', 'sliding-window'],
      ['sliding-counter', 'sliding-window'],
    ] as const) {
      const { fp, waits } = simulateWrite(algorithm, 'x-ratelimit', { limit: 30, windowMs: 2000 }, TOKEN_BUCKET_READS);
      const label = `${algorithm}\n${fp.evidence.join('\n')}`;
      expect(fp.algorithm, label).toBe(named);
      expect(fp.evidence.join('\n'), label).not.toMatch(/named as the read operations' limiter/);
      // A window never waits for the reads: their names spare it nothing.
      if (algorithm !== 'sliding-counter') expect(waits, label).toBe(0);
    }
  });

  test('should take the reads as named only when every one was named the same, without doubt', () => {
    const result = (algorithm: RateLimitFingerprint['algorithm'], more: Partial<RateLimitFingerprint> = {}) =>
      ({ algorithm, verdict: null, uncertain: null, refusedCallsCount: false, ...more }) as RateLimitFingerprint;
    const bucket = { id: 'catalog.details', result: result('token-bucket') };
    expect(readsNamedOf([bucket, { id: 'catalog.search', result: result('token-bucket') }])).toEqual({
      algorithm: 'token-bucket',
      refusedCallsCount: false,
      operations: ['catalog.details', 'catalog.search'],
    });
    expect(readsNamedOf([bucket, { id: 'catalog.search', result: result('fixed-window') }])).toBeNull();
    expect(readsNamedOf([bucket, { id: 'catalog.search', result: result('token-bucket', { uncertain: ['split stalled'] }) }])).toBeNull();
    expect(readsNamedOf([bucket, { id: 'catalog.search', result: result('unknown', { verdict: 'did not reopen' }) }])).toBeNull();
    expect(
      readsNamedOf([bucket, { id: 'catalog.search', result: result('token-bucket', { refusedCallsCount: null }) }])?.refusedCallsCount,
    ).toBeNull();
    expect(readsNamedOf([])).toBeNull();
  });
});

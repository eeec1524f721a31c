/**
 * A weighted sliding counter without rate-limit headers, its probe started at each position of its aligned
 * window: read right, or uncertain with a pacing no faster than the truth; never a confident token bucket.
 * A manual clock: deterministic timelines, no sockets, no real waits.
 */
import { test, expect } from '@playwright/test';
import { simulate } from './fingerprint-sim';

const W = 60_000;

/** A weighted counter of `limit` per 60 s without headers, probed from `phase` into its aligned window. */
const probeAt = (limit: number, phase: number) =>
  simulate('sliding-counter', 'none', {
    limit,
    windowMs: W,
    startMs: 1_800_000_000_000 + Math.round(phase * W),
    config: { maxRequests: 20 * limit, maxDurationMs: 25 * W, maxWaitMs: 3 * W },
  });

test.describe('rate-limit fingerprint across the phase of aligned windows', () => {
  test('should never read a weighted counter of 150 per 60 s without headers as a token bucket, wherever the probe starts', () => {
    // Started between 0.28 and 0.57 of the window, the reopening drain straddles two aligned windows: the drains
    // read the refill at 0.65–0.93/s (truth 2.5/s), as a token bucket of that rate would give. What contradicts
    // such a bucket (a faster rest or later drains, the calls after an empty bucket) leaves it right or uncertain.
    const limit = 150;
    const truth = (limit / W) * 1000;
    const rows: string[] = [];
    let right = 0;
    for (let k = 56; k <= 114; k++) {
      const phase = k / 200;
      const fp = probeAt(limit, phase);
      const label = `phase ${phase}: ${fp.algorithm} b=${fp.burst} r=${fp.sustainedPerSecond} uncertain=${!!fp.uncertain}\n${fp.evidence.join('\n')}`;
      rows.push(label.split('\n')[0] as string);
      expect(fp.verdict, label).toBeNull();
      // Never faster than the truth, sure or not.
      expect(fp.sustainedPerSecond as number, label).toBeLessThanOrEqual(truth * 1.1);
      expect(fp.pacing, label).not.toBeNull();
      expect(fp.pacing?.burst ?? Infinity, label).toBeLessThanOrEqual(limit);
      if (fp.uncertain) {
        expect(fp.uncertain.length, label).toBeGreaterThan(0);
        continue;
      }
      right += 1;
      expect(fp.algorithm, label).toBe('sliding-window');
      expect(fp.burst, label).toBe(limit);
      expect(Math.abs((fp.sustainedPerSecond as number) - truth) / truth, label).toBeLessThanOrEqual(0.1);
    }
    // Most positions are read right at once; the uncertain ones are the exception.
    expect(right, rows.join('\n')).toBeGreaterThan(rows.length / 2);
  });

  test('should read a weighted counter without headers right within 5 bursts and 6 windows, started 0.29–0.565 into its window', () => {
    // There the rest after the partial reopening, or the sampling's later drains, refill well faster than the
    // drains before them (a token bucket refills at one rate): the later drains, kept on, time the window after
    // a full one, with no rest and no second measurement. Measured again, these positions cost 17–36 windows
    // and a fifth of them ended uncertain.
    for (const limit of [60, 150]) {
      const truth = (limit / W) * 1000;
      for (let k = 58; k <= 113; k++) {
        const phase = k / 200;
        const fp = probeAt(limit, phase);
        const label = `L=${limit} phase ${phase}: ${fp.algorithm} b=${fp.burst} r=${fp.sustainedPerSecond} ${fp.requestsSpent} calls ${(fp.durationMs / W).toFixed(1)} windows uncertain=${!!fp.uncertain}\n${fp.evidence.join('\n')}`;
        expect(fp.verdict, label).toBeNull();
        expect(fp.uncertain, label).toBeFalsy();
        expect(fp.algorithm, label).toBe('sliding-window');
        expect(fp.burst, label).toBe(limit);
        // Never faster than the truth, and within 10 % of it.
        expect(fp.sustainedPerSecond as number, label).toBeLessThanOrEqual(truth);
        expect(fp.sustainedPerSecond as number, label).toBeGreaterThanOrEqual(truth * 0.9);
        expect(fp.requestsSpent, label).toBeLessThanOrEqual(5 * limit);
        expect(fp.durationMs, label).toBeLessThanOrEqual(6 * W);
      }
    }
  });
});

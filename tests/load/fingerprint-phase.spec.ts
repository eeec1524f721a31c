/**
 * A weighted sliding counter without rate-limit headers, its probe started at each position of its aligned
 * window: read right, or uncertain with a pacing no faster than the truth; never a confident token bucket.
 * A manual clock: deterministic timelines, no sockets, no real waits.
 */
import { test, expect } from '@playwright/test';
import { simulate } from './fingerprint-sim';

test.describe('rate-limit fingerprint across the phase of aligned windows', () => {
  test('should never read a weighted counter of 150 per 60 s without headers as a token bucket, wherever the probe starts', () => {
    // Started between 0.28 and 0.57 of the window, the reopening drain straddles two aligned windows: the drains
    // read the refill at 0.65–0.93/s (truth 2.5/s) and a split got a full bucket back, as a token bucket gives.
    // The calls after an empty bucket contradict such a bucket: measured again, the probe ends right or uncertain.
    const W = 60_000;
    const limit = 150;
    const truth = (limit / W) * 1000;
    const rows: string[] = [];
    let right = 0;
    for (let k = 56; k <= 114; k++) {
      const phase = k / 200;
      const fp = simulate('sliding-counter', 'none', {
        limit,
        windowMs: W,
        startMs: 1_800_000_000_000 + Math.round(phase * W),
        config: { maxRequests: 20 * limit, maxDurationMs: 25 * W, maxWaitMs: 3 * W },
      });
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
});

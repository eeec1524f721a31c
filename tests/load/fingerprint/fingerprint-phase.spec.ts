/**
 * The probe started at each position of the limiter's aligned window. A weighted sliding counter without
 * rate-limit headers: read right, or uncertain with a pacing no faster than the truth; never a confident token
 * bucket. Every algorithm and header style: the cost at a 60 s window wherever the probe starts.
 * A manual clock: deterministic timelines, no sockets, no real waits.
 */
import { test, expect } from '@playwright/test';
import { LIMITER_ALGORITHMS } from '../../../mock/limits/limiter-algorithms';
import { HEADER_STYLES } from '../../../mock/limits/decision-headers';
import { EXPECTED, simulate } from './fingerprint-sim';

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

test.describe('rate-limit fingerprint cost wherever the probe starts', () => {
  test('should spend at most 5 bursts and 6 windows from 20 start positions (a weighted counter without headers from 16)', () => {
    // 20 start positions across a 60 s aligned window, bursts of 60 and 150, every header style. A weighted
    // sliding counter without headers started late in its window pauses too briefly to be told from a bucket whose
    // refused calls count: it is measured the long way, up to 6.0 bursts and 6.8 windows (BENCHMARKS.md, "Cost by
    // start position").
    const W = 60_000;
    const rows: string[] = [];
    for (const family of HEADER_STYLES)
      for (const algorithm of LIMITER_ALGORITHMS)
        for (const limit of [60, 150]) {
          let worst = { bursts: 0, windows: 0, at: 0 };
          let uncertain = 0;
          const over: string[] = [];
          for (let i = 0; i < 20; i++) {
            const fp = simulate(algorithm, family, {
              limit,
              windowMs: W,
              startMs: 1_800_000_000_000 - (1_800_000_000_000 % W) + (i / 20) * W + 123,
              config: { maxRequests: 20 * limit, maxDurationMs: 25 * W, maxWaitMs: 3 * W },
            });
            const bursts = fp.requestsSpent / limit;
            const windows = fp.durationMs / W;
            if (bursts + windows > worst.bursts + worst.windows) worst = { bursts, windows, at: i / 20 };
            const label = `${algorithm}/${family} L=${limit} from ${i / 20} of the window: ${bursts.toFixed(1)} bursts, ${windows.toFixed(1)} windows\n${fp.evidence.join('\n')}`;
            expect(fp.verdict, label).toBeNull();
            expect(fp.sustainedPerSecond as number, label).toBeLessThanOrEqual((limit / W) * 1000 * 1.1);
            if (fp.uncertain?.length) {
              uncertain += 1;
              expect(algorithm, `only a weighted counter may end uncertain on a steady clock\n${label}`).toBe('sliding-counter');
            } else {
              expect(fp.algorithm, label).toBe(EXPECTED[algorithm]);
              expect(fp.burst, label).toBe(limit);
              expect(Math.abs((fp.sustainedPerSecond as number) - (limit / W) * 1000) / ((limit / W) * 1000), label).toBeLessThanOrEqual(
                0.1,
              );
            }
            // A weighted counter without headers: within the budget from 16 positions of 20 at least, and never
            // past 6.5 bursts and 7 windows (BENCHMARKS.md, "Cost by start position").
            if (algorithm === 'sliding-counter' && family === 'none') {
              if (bursts > 5 || windows > 6) over.push(label);
              expect(bursts, label).toBeLessThanOrEqual(6.5);
              expect(windows, label).toBeLessThanOrEqual(7);
              continue;
            }
            expect(bursts, label).toBeLessThanOrEqual(5);
            expect(windows, label).toBeLessThanOrEqual(6);
          }
          expect(over.length, over.join('\n\n')).toBeLessThanOrEqual(4);
          rows.push(
            `${algorithm}/${family} L=${limit}: worst ${worst.bursts.toFixed(1)} bursts, ${worst.windows.toFixed(1)} windows (from ${worst.at}); ${uncertain} uncertain; ${over.length} of 20 over the budget`,
          );
        }
    test.info().annotations.push({ type: 'cost by start position', description: rows.join('; ') });
    console.log(`[cost by start position, 60 s window] ${rows.join('\n  ')}`);
  });
});

/**
 * What a fingerprint costs, in requests per burst and windows of wall time, at a 5 s window and the bursts of
 * catalog.details (60) and orders.create (150), behind limiters whose Remaining and Reset headers say their state:
 * three bursts and four windows at most, on a steady clock from ten start positions (every result right) and, in
 * the median, under the simulator's stalls (no pacing faster than the limiter). A manual clock: deterministic
 * timelines, no sockets, no real waits.
 */
import { test, expect } from '@playwright/test';
import { LIMITER_ALGORITHMS, type LimiterAlgorithm } from '../../../mock/limits/limiter-algorithms';
import { EXPECTED, simulate, type SimOptions } from './fingerprint-sim';

const W = 5000;
const BURSTS = [60, 150] as const;
const config = (limit: number): SimOptions['config'] => ({ maxRequests: 20 * limit, maxDurationMs: 25 * W, maxWaitMs: 3 * W });
/** A seeded generator: the same stalls on every run. */
const seeded = (seed: number) => () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;

/** Right: the algorithm, the burst and the rate within 10 % (the window too, but for a bucket). */
function right(algorithm: LimiterAlgorithm, limit: number, fp: ReturnType<typeof simulate>): boolean {
  const rate = (limit / W) * 1000;
  return (
    fp.verdict === null &&
    !fp.uncertain &&
    fp.algorithm === EXPECTED[algorithm] &&
    fp.burst === limit &&
    Math.abs((fp.sustainedPerSecond as number) - rate) / rate <= 0.1 &&
    (fp.algorithm === 'token-bucket' || Math.abs((fp.windowMs as number) - W) <= W / 10)
  );
}

/**
 * The most bursts from any of ten start positions: a window's polls toward its reset a fortieth of the wait apart
 * leave room on a busy machine, where its reopening takes more of them; a counter's hidden pause costs a volley.
 */
const MOST_BURSTS: Record<LimiterAlgorithm, number> = {
  fixed: 2.75,
  'sliding-log': 2.75,
  'sliding-counter': 3.2,
  'token-bucket': 3,
  'leaky-bucket': 3,
};

test.describe('rate-limit fingerprint cost behind Remaining and Reset headers', () => {
  test('should spend at most three bursts and four windows on each limiter from ten start positions', () => {
    // A weighted counter whose exhaustion ends just before an aligned boundary hides the pause of its refill: it
    // looks like a bucket until its volley, after which its first window is timed (up to 3.1 bursts, one position of ten).
    const rows: string[] = [];
    for (const algorithm of LIMITER_ALGORITHMS)
      for (const limit of BURSTS) {
        const costs: number[] = [];
        for (let i = 0; i < 10; i++) {
          const fp = simulate(algorithm, 'x-ratelimit', {
            limit,
            windowMs: W,
            startMs: 1_800_000_000_000 - (1_800_000_000_000 % W) + (i / 10) * W + 123,
            config: config(limit),
          });
          const bursts = fp.requestsSpent / limit;
          const label = `${algorithm} L=${limit} from ${i / 10} of the window: ${bursts.toFixed(2)} bursts, ${(fp.durationMs / W).toFixed(2)} windows\n${fp.evidence.join('\n')}`;
          expect(right(algorithm, limit, fp), label).toBe(true);
          expect(fp.durationMs / W, label).toBeLessThanOrEqual(4);
          expect(bursts, label).toBeLessThanOrEqual(MOST_BURSTS[algorithm]);
          costs.push(bursts);
        }
        const over = costs.filter((c) => c > 3).length;
        expect(over, `${algorithm} L=${limit}: ${costs.map((c) => c.toFixed(2)).join(', ')}`).toBeLessThanOrEqual(1);
        rows.push(`${algorithm} L=${limit}: worst ${Math.max(...costs).toFixed(2)} bursts, ${over} of 10 over 3`);
      }
    console.log(`[cost at a 5 s window, x-ratelimit] ${rows.join('; ')}`);
  });

  test('should read a weighted counter right from any start, its exhaustion straddling an aligned boundary or not', () => {
    // From 100 start positions: an exhaustion that straddles a boundary leaves the drains reading the counter low
    // (the window before held few calls), and one that ends just before a boundary hides the pause until the volley:
    // from one call or two before it on, the reopening shows it, the rest pays the volley (a few positions in 100).
    const rows: string[] = [];
    for (const limit of BURSTS) {
      const costs: number[] = [];
      for (let i = 0; i < 100; i++) {
        const fp = simulate('sliding-counter', 'x-ratelimit', {
          limit,
          windowMs: W,
          startMs: 1_800_000_000_000 - (1_800_000_000_000 % W) + (i / 100) * W + 123,
          config: config(limit),
        });
        const bursts = fp.requestsSpent / limit;
        const label = `L=${limit} from ${i / 100} of the window: ${bursts.toFixed(2)} bursts\n${fp.evidence.join('\n')}`;
        expect(right('sliding-counter', limit, fp), label).toBe(true);
        expect(bursts, label).toBeLessThanOrEqual(3.15);
        costs.push(bursts);
      }
      expect(costs.filter((c) => c > 3).length, `L=${limit}: ${costs.map((c) => c.toFixed(2)).join(' ')}`).toBeLessThanOrEqual(6);
      rows.push(`L=${limit}: worst ${Math.max(...costs).toFixed(2)}, ${costs.filter((c) => c > 3).length} of 100 over 3`);
    }
    console.log(`[weighted counter from 100 start positions] ${rows.join('; ')}`);
  });

  test('should time a weighted counter at once after a pause its reopening hid, or where its refill sped up', () => {
    // A boundary some calls after the exhaustion ends: the reopening gets fewer calls than the samples' rate gives.
    // An exhaustion straddling a boundary: its drains read the window before's few calls, then speed up at the next.
    for (const [limit, position, shown] of [
      [60, 0.83, /the reopening got \d+ calls back where the refill that followed gives \d+/],
      [150, 0.8, /the reopening got \d+ calls back where the refill that followed gives \d+/],
      [60, 0.97, /the refill sped up from [\d.]+\/s at most to [\d.]+\/s at least[^]*sped up at an aligned boundary/],
    ] as const) {
      const fp = simulate('sliding-counter', 'x-ratelimit', {
        limit,
        windowMs: W,
        startMs: 1_800_000_000_000 - (1_800_000_000_000 % W) + position * W + 123,
        config: config(limit),
      });
      const bursts = fp.requestsSpent / limit;
      const label = `L=${limit} from ${position} of the window: ${bursts.toFixed(2)} bursts\n${fp.evidence.join('\n')}`;
      expect(right('sliding-counter', limit, fp), label).toBe(true);
      expect(fp.evidence.join('\n'), label).toMatch(shown);
      expect(fp.evidence.join('\n'), label).not.toMatch(/burst volley: /);
      expect(bursts, label).toBeLessThanOrEqual(2.2);
    }
  });

  test("should time a weighted counter's window from the refill check after its volley when its boundary came during it", () => {
    // Some calls back, fewer than a bucket gives: the boundary passed, the window after it is timed with no polls.
    const fp = simulate('sliding-counter', 'x-ratelimit', {
      limit: 60,
      windowMs: W,
      startMs: 1_800_000_000_000 - (1_800_000_000_000 % W) + 0.96 * W + 123,
      config: config(60),
    });
    const bursts = fp.requestsSpent / 60;
    const label = `${bursts.toFixed(2)} bursts\n${fp.evidence.join('\n')}`;
    expect(right('sliding-counter', 60, fp), label).toBe(true);
    expect(fp.evidence.join('\n'), label).toMatch(/refill after a full bucket: [1-9]\d* calls back where a token bucket gives/);
    expect(fp.evidence.join('\n'), label).not.toMatch(/first window: no call back for/);
    expect(bursts, label).toBeLessThanOrEqual(3.1);
  });

  test('should time a weighted counter after its volley where the calls back looked like a bucket, but its exhaustion or its refill said not', () => {
    // Its boundary came during the check after the volley: the calls back are what a bucket at the drains' rate gives.
    // Either its exhaustion had passed more than a bucket of its burst holds at that rate (it straddled an aligned
    // boundary), or the refused-call test's second cycle got back more than its first allows (the refill sped up).
    // Each was measured again before, at 5.57, 4.60 and 5.70 bursts.
    const runs: [number, number, 'x-ratelimit' | 'ietf', number, RegExp][] = [
      [60, 2, 'x-ratelimit', 0.965, /not a bucket's, whatever came back: 61 calls passed within/],
      [150, 4, 'x-ratelimit', 0.895, /the refill sped up between the cycles/],
      [60, 4, 'ietf', 0.95, /the refill sped up between the cycles/],
    ];
    for (const [limit, latencyMs, family, position, why] of runs) {
      const fp = simulate('sliding-counter', family, {
        limit,
        windowMs: W,
        latencyMs,
        startMs: 1_800_000_000_000 - (1_800_000_000_000 % W) + position * W + 123,
        config: config(limit),
      });
      const bursts = fp.requestsSpent / limit;
      const label = `L=${limit} ${family} at ${position}: ${bursts.toFixed(2)} bursts\n${fp.evidence.join('\n')}`;
      expect(right('sliding-counter', limit, fp), label).toBe(true);
      expect(fp.evidence.join('\n'), label).toMatch(why);
      expect(fp.evidence.join('\n'), label).not.toMatch(/measured again/);
      expect(bursts, label).toBeLessThanOrEqual(3.4);
    }
  });

  test('should time a weighted counter after its pause though a stall held up a poll there', () => {
    // A busy client (345 ms) and a stopped target (388 ms) each leave one poll late in the window after the full
    // bucket: the time with no call back is the poll's lateness, not a refill that stopped.
    const runs: [Partial<SimOptions>, number, number][] = [
      [
        {
          clientStalls: [
            { atMs: 5645, ms: 345 },
            { atMs: 6639, ms: 245 },
          ],
        },
        2,
        1_800_000_002_550,
      ],
      [
        {
          stalls: [
            { atMs: 10_612, ms: 107 },
            { atMs: 4399, ms: 388 },
          ],
        },
        3,
        1_800_000_003_610,
      ],
    ];
    for (const [where, latencyMs, startMs] of runs) {
      const fp = simulate('sliding-counter', 'x-ratelimit', { limit: 60, windowMs: W, latencyMs, startMs, ...where, config: config(60) });
      const bursts = fp.requestsSpent / 60;
      const label = `${JSON.stringify(where)}: ${bursts.toFixed(2)} bursts\n${fp.evidence.join('\n')}`;
      expect(right('sliding-counter', 60, fp), label).toBe(true);
      expect(fp.evidence.join('\n'), label).toMatch(/first window after the pause: \d+ calls came back/);
      expect(bursts, label).toBeLessThanOrEqual(3);
    }
  });

  test('should stay within three bursts in the median, and never pace too fast, when the target or the client stall', () => {
    // One or two stalls of 100-400 ms in the first four windows, the target stopped or the client busy, calls of
    // 2-5 ms: a stalled reading is measured again (up to twice the cost), the median holds.
    const rnd = seeded(5);
    const rows: string[] = [];
    const wrong: string[] = [];
    for (const algorithm of LIMITER_ALGORITHMS)
      for (const limit of BURSTS) {
        const costs: number[] = [];
        for (let i = 0; i < 30; i++) {
          const stalls = Array.from({ length: 1 + Math.floor(rnd() * 2) }, () => ({
            atMs: Math.floor(rnd() * 4 * W),
            ms: 100 + Math.floor(rnd() * 300),
          }));
          const where = [{ stalls }, { clientStalls: stalls }, {}][i % 3] as Partial<SimOptions>;
          const fp = simulate(algorithm, 'x-ratelimit', {
            limit,
            windowMs: W,
            latencyMs: 2 + Math.floor(rnd() * 4),
            startMs: 1_800_000_000_000 + Math.floor(rnd() * W),
            ...where,
            config: config(limit),
          });
          const label = `${algorithm} L=${limit} ${JSON.stringify(where)}: ${fp.algorithm} burst ${fp.burst} ${fp.sustainedPerSecond}/s\n${fp.evidence.join('\n')}`;
          // Never a pacing faster than the limiter, sure or not.
          if (fp.pacing) {
            expect(fp.sustainedPerSecond as number, label).toBeLessThanOrEqual((limit / W) * 1000 * 1.1);
            expect(fp.pacing.burst, label).toBeLessThanOrEqual(limit);
            if (fp.pacing.kind === 'burst-per-window') expect(fp.pacing.periodMs as number, label).toBeGreaterThanOrEqual(W * 0.95);
          }
          if (fp.verdict === null && !fp.uncertain && !right(algorithm, limit, fp)) wrong.push(label.split('\n')[0] as string);
          costs.push(fp.requestsSpent / limit);
        }
        costs.sort((a, b) => a - b);
        const median = costs[costs.length / 2] as number;
        expect(median, `${algorithm} L=${limit}: ${costs.map((c) => c.toFixed(2)).join(', ')}`).toBeLessThanOrEqual(3);
        rows.push(`${algorithm} L=${limit}: median ${median.toFixed(2)}, worst ${(costs[costs.length - 1] as number).toFixed(2)} bursts`);
      }
    console.log(`[cost under stalls, 5 s window, x-ratelimit] ${rows.join('; ')}\n  ${wrong.join('\n  ')}`);
    // Named without doubt, its numbers off: a weighted counter whose first window was timed on a period read
    // long from drains a stall left low (slower than the truth, see the pacing checks above).
    expect(wrong.length, wrong.join('\n')).toBeLessThanOrEqual(3);
  });
});

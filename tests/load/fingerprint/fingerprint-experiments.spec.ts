/**
 * Each fingerprint experiment alone against the mock's limiter algorithms on a manual clock: the plan it
 * sends and the reading it returns, with only the experiments it needs before it.
 */
import { test, expect } from '@playwright/test';
import { drain, margin, type Lab } from '../../../load/lib/fingerprint/lab';
import { burstVolley } from '../../../load/lib/fingerprint/experiments/burst-volley';
import { exhaustion } from '../../../load/lib/fingerprint/experiments/exhaustion';
import { firstWindowAfterPause } from '../../../load/lib/fingerprint/experiments/first-window-after-pause';
import { firstWindowRate } from '../../../load/lib/fingerprint/experiments/first-window-rate';
import { refillRate } from '../../../load/lib/fingerprint/experiments/refill-rate';
import { sampleRefill } from '../../../load/lib/fingerprint/experiments/refill-sampling';
import { settleReopening } from '../../../load/lib/fingerprint/experiments/reopening-settle';
import { refusedCalls } from '../../../load/lib/fingerprint/experiments/refused-call';
import { reopening } from '../../../load/lib/fingerprint/experiments/reopening';
import { split } from '../../../load/lib/fingerprint/experiments/split';
import { refineWindow } from '../../../load/lib/fingerprint/experiments/window-refine';
import type { Drain } from '../../../load/lib/fingerprint/types';
import { runAlone } from './fingerprint-sim';

/** Exhaustion, reopening and sampling: what the later experiments start from (`pause`: the sampling told of the reopening's pause). */
function* sampled(lab: Lab, o: { pause?: boolean } = {}) {
  const ex = yield* exhaustion(lab);
  const ro = yield* reopening(lab, ex.refusal, ex.burst, false);
  const settled = yield* settleReopening(lab, ro.drain as Drain, ex.drain, ex.burst);
  const s = yield* sampleRefill(lab, {
    from: settled.drain,
    burst: ex.burst,
    gapMs: settled.gapMs,
    maxGapMs: settled.maxGapMs,
    windowAllowed: true,
    ...(o.pause ? { pause: settled.pause } : {}),
  });
  return { ex, s };
}

test.describe('fingerprint experiments, each alone', () => {
  test('exhaustion: the burst of a full bucket, or no limit within three times the cap', () => {
    for (const algorithm of ['fixed', 'sliding-log', 'sliding-counter'] as const) {
      const { reading } = runAlone(exhaustion, algorithm, 'none', { limit: 17, windowMs: 2000 });
      expect(reading?.burst, algorithm).toBe(17);
      expect(reading?.drain.refusedMs, algorithm).not.toBeNull();
    }
    const none = runAlone(exhaustion, 'fixed', 'none', { limit: 50, windowMs: 1000, config: { burstCap: 10 } });
    expect(none.verdict).toBe('no 429 after 30 calls: the limit is above 30 or there is none');
    expect(none.lab.requests).toBe(30);
  });

  test('reopening: one poll at the advertised reset, a doubling back-off without headers, a verdict at the wait cap', () => {
    const run = (family: 'x-ratelimit' | 'none', countRefused = false) =>
      runAlone(
        function* (lab) {
          const ex = yield* exhaustion(lab);
          const r = yield* reopening(lab, ex.refusal, ex.burst, false);
          return { r, evidence: lab.evidence.join('\n') };
        },
        'fixed',
        family,
        { limit: 10, windowMs: 1000, countRefused },
      );
    expect(run('x-ratelimit').reading?.evidence).toMatch(/reopened \d+ ms after the 429 \(1 polls\)/);
    const bare = run('none').reading;
    expect(bare?.r.drain?.allowed).toBe(10);
    expect(bare?.evidence).toMatch(/reopened \d+ ms after the 429 \([2-9] polls\)/);
    const counted = runAlone(
      function* (lab) {
        const ex = yield* exhaustion(lab);
        return yield* reopening(lab, ex.refusal, ex.burst, false);
      },
      'sliding-log',
      'none',
      { limit: 5, windowMs: 4000, countRefused: true, config: { maxWaitMs: 2000 } },
    );
    expect(counted.reading?.verdict).toMatch(
      /^did not reopen within 2 s \(\d+ polls, spaced up to \d+ ms\); refused calls appear to count/,
    );
    expect(counted.reading?.drain).toBeNull();
  });

  test('refill sampling: empty drains then a full bucket for a window, steady counts and the rate for a bucket', () => {
    const fixed = runAlone(sampled, 'fixed', 'none', { limit: 12, windowMs: 2000 });
    expect(fixed.reading?.s.windowRef, fixed.lab.evidence.join('\n')).not.toBeNull();
    for (const algorithm of ['token-bucket', 'leaky-bucket'] as const) {
      const bucket = runAlone(
        function* (lab) {
          const { ex, s } = yield* sampled(lab);
          return { s, rate: refillRate(lab, s, null, ex.burst) };
        },
        algorithm,
        'ietf',
        { limit: 12, windowMs: 2000 },
      );
      const label = `${algorithm}\n${bucket.lab.evidence.join('\n')}`;
      expect(bucket.reading?.s.windowRef, label).toBeNull();
      expect(Math.abs((bucket.reading?.rate?.rate as number) * 1000 - 6) / 6, label).toBeLessThanOrEqual(0.1);
      expect(bucket.reading?.rate?.pausedMs, label).toBeNull();
    }
  });

  test("first window after a pause: a weighted counter's window after a full bucket timed at once, never faster than the truth", () => {
    // With headers the reopening waits for the whole reset and drains a full bucket: the sampling's empty drains
    // are the pause. Without, the back-off reopens inside the window after the exhaustion: its polls are the pause.
    const timed: string[] = [];
    for (const family of ['x-ratelimit', 'none'] as const)
      for (const [limit, windowMs] of [
        [12, 2000],
        [60, 2000],
        [60, 60_000],
        [150, 60_000],
      ] as const)
        for (const offsetMs of [0, 700, 1400]) {
          const { reading, lab } = runAlone(
            function* (lab) {
              const { ex, s } = yield* sampled(lab, { pause: true });
              return { s, rate: refillRate(lab, s, null, ex.burst) };
            },
            'sliding-counter',
            family,
            { limit, windowMs, startMs: 1_800_000_000_000 + offsetMs },
          );
          const label = `${family} L=${limit} W=${windowMs} phase ${offsetMs} ms\n${lab.evidence.join('\n')}`;
          const fw = reading?.s.firstWindow;
          timed.push(`${fw ? 'timed' : 'not timed'}: ${label.split('\n')[0]}`);
          // The aligned windows' phase decides whether the sampling's drains provably fell in the window after the
          // full bucket (else the rested measurement): at the API's window these phases all do.
          if (windowMs === 60_000) expect(fw, label).toBeTruthy();
          if (!fw) continue;
          const truth = limit / windowMs;
          expect((fw?.rate as number) / truth, label).toBeLessThanOrEqual(1);
          expect((fw?.rate as number) / truth, label).toBeGreaterThanOrEqual(0.93);
          expect(fw?.restedBurst, label).toBe(limit);
          expect(reading?.rate?.pausedMs, label).toBeGreaterThan(0);
          // Its polls: under a bucket and 40 refusals (a small bucket: a poll every fine gap for a window), where a
          // rest of two windows and a rested burst came before.
          const polls = reading?.s.samples.slice(fw.index) ?? [];
          const spent = polls.reduce((n, x) => n + x.drain.allowed + 1, 0);
          expect(spent, label).toBeLessThanOrEqual(limit + (limit >= 40 ? 40 : windowMs / lab.fineMs));
        }
    console.log(`[first window after a pause]\n  ${timed.join('\n  ')}`);
    expect(timed.filter((t) => t.startsWith('timed')).length, timed.join('\n')).toBeGreaterThanOrEqual(18);
    for (const algorithm of ['token-bucket', 'leaky-bucket', 'fixed', 'sliding-log'] as const)
      for (const family of ['x-ratelimit', 'none'] as const) {
        const { reading, lab } = runAlone(sampled, algorithm, family, { limit: 12, windowMs: 2000 });
        expect(reading?.s.firstWindow, `${algorithm}/${family}\n${lab.evidence.join('\n')}`).toBeNull();
      }
  });

  test('first window after a pause: a sliding log caught while its full bucket leaves is not timed as a refill', () => {
    // Its exhaustion's calls (4 ms apart) leave it one window later at that pace: a drain among them gets part of
    // the bucket back after empty ones, as a weighted counter's first window would, and the rest come at once.
    const { reading, lab } = runAlone(
      function* (lab) {
        const ex = yield* exhaustion(lab);
        const lastEmpty = yield* drain(lab, ex.drain.firstMs + 1500, 'pause', lab.drainCap());
        const back = yield* drain(lab, ex.drain.firstMs + 2000 + 50, 'back', lab.drainCap());
        return { back, fw: yield* firstWindowAfterPause(lab, { full: ex.drain, lastEmpty, back, burst: ex.burst }) };
      },
      'sliding-log',
      'none',
      { limit: 60, windowMs: 2000, latencyMs: (i) => (i <= 60 ? 4 : 1) },
    );
    const label = lab.evidence.join('\n');
    expect(reading?.back.allowed, label).toBeGreaterThan(1);
    expect(reading?.back.allowed, label).toBeLessThan(60);
    expect(reading?.fw.rate, label).toBeNull();
    expect(label).toMatch(/not a linear refill/);
  });

  test('window refine: a fixed window within a fine gap or two', () => {
    for (const windowMs of [1000, 1500, 2500]) {
      const { reading, lab } = runAlone(
        function* (lab) {
          const { ex, s } = yield* sampled(lab);
          return yield* refineWindow(lab, s.windowRef as NonNullable<typeof s.windowRef>, ex.burst);
        },
        'fixed',
        'x-ratelimit',
        { limit: 10, windowMs },
      );
      const label = `W=${windowMs}\n${lab.evidence.join('\n')}`;
      expect(reading?.precise, label).toBe(true);
      expect(Math.abs((reading?.windowMs as number) - windowMs), label).toBeLessThanOrEqual(2 * lab.fineMs);
    }
  });

  test('burst volley: the bucket counted by calls sent at once, though the exhaustion ran slowly', () => {
    const { reading, lab } = runAlone(
      function* (lab) {
        const { ex, s } = yield* sampled(lab);
        const rate = refillRate(lab, s, null, ex.burst)?.rate as number;
        const last = s.samples[s.samples.length - 1]?.drain.refusedMs as number;
        return (yield* burstVolley(lab, last, rate, ex.burst, ex.burst, (fullMs) => fullMs * 1.2)).burst;
      },
      'token-bucket',
      'none',
      { limit: 12, windowMs: 1000, latencyMs: 15, volleyCallMs: 0.05 },
    );
    expect(reading, lab.evidence.join('\n')).toBe(12);
  });

  test('split: a fixed window full again, a sliding log only the first half back', () => {
    const run = (algorithm: 'fixed' | 'sliding-log') =>
      runAlone(
        function* (lab) {
          const ex = yield* exhaustion(lab);
          return yield* split(lab, {
            start: { restAt: lab.lastMs + 2100 },
            periodMs: 2000,
            burst: ex.burst,
            marginMs: margin(lab, 2000, true, ex.burst),
            window: false,
          });
        },
        algorithm,
        'none',
        { limit: 10, windowMs: 2000 },
      ).reading;
    expect(run('fixed')).toMatchObject({ drained: 10, firstHalf: 5, secondHalf: 5, burst: 10 });
    expect(run('sliding-log')).toMatchObject({ drained: 5, firstHalf: 5, secondHalf: 5, burst: 10 });
  });

  test('refused calls: fewer calls back after a cycle with refused calls only where they count', () => {
    for (const countRefused of [false, true]) {
      const { reading, lab } = runAlone(
        function* (lab) {
          const ex = yield* exhaustion(lab);
          return yield* refusedCalls(lab, { emptyAtMs: lab.lastMs, rate: 10 / 1000, burst: ex.burst });
        },
        'token-bucket',
        'none',
        { limit: 10, windowMs: 1000, countRefused },
      );
      const label = `count refused ${countRefused}\n${lab.evidence.join('\n')}`;
      expect(reading?.extraRefused, label).toBe(5);
      if (countRefused) expect(reading?.test as number, label).toBeLessThanOrEqual((reading?.control as number) - 3);
      else expect(Math.abs((reading?.test as number) - (reading?.control as number)), label).toBeLessThanOrEqual(1);
    }
  });

  test("first-window rate: a weighted sliding counter's true rate and the pause before its next aligned window", () => {
    for (const [limit, windowMs] of [
      [12, 2000],
      [30, 2000],
      [60, 1500],
    ] as const) {
      const { reading, lab } = runAlone(
        function* (lab) {
          const ex = yield* exhaustion(lab);
          return yield* firstWindowRate(lab, {
            emptyAtMs: lab.lastMs,
            periodMs: windowMs,
            burstObserved: ex.burst,
            advertisedLimit: null,
            drainsRate: (0.7 * limit) / windowMs,
            pauseKnown: false,
          });
        },
        'sliding-counter',
        'none',
        { limit, windowMs, startMs: 1_800_000_000_000 },
      );
      const label = `L=${limit} W=${windowMs}\n${lab.evidence.join('\n')}`;
      const rate = (limit / windowMs) * 1000;
      expect(Math.abs((reading?.rate as number) * 1000 - rate) / rate, label).toBeLessThanOrEqual(0.1);
      expect(reading?.restedBurst, label).toBe(limit);
    }
  });
});

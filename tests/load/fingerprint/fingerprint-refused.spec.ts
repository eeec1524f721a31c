/**
 * A sliding log in which refused calls count, on a manual clock: its polls while refused keep its log full, so its
 * drains come back in clusters that a token bucket's steady refill cannot give. The fingerprint must stop with the
 * refused-calls verdict or say it is uncertain (an even pacing no faster than the lowest rate observed), never
 * name an algorithm without doubt (a token bucket's burst then rate draws 429s from it).
 */
import { test, expect } from '@playwright/test';
import { LIMITER_ALGORITHMS } from '../../../mock/limits/limiter-algorithms';
import { HEADER_STYLES } from '../../../mock/limits/decision-headers';
import { bucketContradictions, burstExceeded, countedLogFit } from '../../../load/lib/fingerprint/consistency';
import type { Claim } from '../../../load/lib/fingerprint/types';
import { readRateLimitHeaders } from '../../../load/lib/rate-limit-hints';
import type { LabObservation } from '../../../load/lib/fingerprint/types';
import { noReadings, rateOf } from '../../../load/lib/fingerprint/readings';
import { simulate, type SimOptions } from './fingerprint-sim';

/** As `npm run load -- probe-reset --window-ms 2000 --probe-wait-ms 6000 --probe-max-ms 40000` configures one operation. */
const CLI = { maxRequests: 5000, maxWaitMs: 6000, maxDurationMs: 40_000 };

/** The refused-calls verdict (a cap that ends a slow probe of a small log names it too). */
const REFUSED_VERDICT = /refused calls (appear to )?count/;

/** The timeline of a run as observations (each call sent 2 ms before its answer, as the simulation's latency). */
const observationsOf = (timeline: { tMs: number; status: number }[]): LabObservation[] =>
  timeline.map((p) => ({ sentMs: p.tMs - 2, tMs: p.tMs, status: p.status, hints: readRateLimitHeaders({}, p.tMs) }));

test.describe('rate-limit fingerprint of a sliding log whose refused calls count', () => {
  test('should stop with the refused-calls verdict or be uncertain at limits 3 to 12, with each header style', () => {
    const rows: string[] = [];
    // Three phases of the epoch second (the Reset header's rounding moves the polls).
    for (const offsetMs of [0, 123, 777])
      for (let limit = 3; limit <= 12; limit++)
        for (const family of HEADER_STYLES) {
          const o: SimOptions = { limit, windowMs: 2000, countRefused: true, startMs: 1_800_000_000_000 + offsetMs, config: CLI };
          const fp = simulate('sliding-log', family, o);
          const read = fp.uncertain ? 'uncertain' : fp.verdict !== null ? 'verdict' : `${fp.algorithm} without doubt`;
          const row = `L=${limit} ${family} +${offsetMs} ms: ${read}, burst ${fp.burst} ${fp.sustainedPerSecond}/s, ${fp.requestsSpent} requests, ${Math.round(fp.durationMs)} ms`;
          rows.push(row);
          const label = `${row}\n${fp.evidence.join('\n')}`;
          if (fp.uncertain) {
            expect(fp.verdict, label).toBeNull();
            expect(fp.pacing?.kind, label).toBe('even');
            // One call at a time no faster than a window's worth per window: a sliding log never refuses it.
            expect(fp.pacing?.intervalMs as number, label).toBeGreaterThanOrEqual(2000 / limit);
          } else {
            expect(fp.verdict, label).toMatch(REFUSED_VERDICT);
            expect(fp.algorithm, label).toBe('unknown');
            expect(fp.pacing, label).toBeNull();
          }
          expect(fp.burst, label).toBe(limit);
        }
    console.log(`[sliding log, refused calls count] ${rows.join('\n  ')}`);
  });

  test('should name a log counting refused calls in the verdict of a probe its time cap ended', () => {
    // 3 per 2 s with X-RateLimit headers: its refill sampling alternates 2 and 0 calls for 18 drains, and the 40 s
    // cap comes before the refused-call test.
    const fp = simulate('sliding-log', 'x-ratelimit', { limit: 3, windowMs: 2000, countRefused: true, config: CLI });
    const label = fp.evidence.join('\n');
    expect(fp.verdict, label).toMatch(
      /^refused calls appear to count: a sliding log of 3 calls per \d+\.\.\d+ ms .*\(time cap of 40000 ms/,
    );
    expect(fp.refusedCallsCount, label).toBe(true);
  });

  test('should stop with the refused-calls verdict on a log whose readings hold together as a bucket whose refused calls count', () => {
    // 4 per 1 s, calls of 5 ms: read as a bucket of 4 at 4.24/s whose refused calls count, every reading agreeing,
    // and paced at a call every 249 ms (more than 4 per second: the log refuses some). The log explains every call.
    const fp = simulate('sliding-log', 'none', { limit: 4, windowMs: 1000, countRefused: true, latencyMs: 5, config: CLI });
    const label = fp.evidence.join('\n');
    expect(fp.verdict, label).toMatch(/^refused calls appear to count: a sliding log of 4 calls per \d+\.\.\d+ ms/);
    expect(fp.refusedCallsCount, label).toBe(true);
    expect(fp.pacing, label).toBeNull();
  });

  test("should find calls a token bucket cannot decide so on a sliding log's timeline, and none on a bucket's", () => {
    // A sliding log of 6 per 2 s whose refused calls count, read as a bucket of 6 at 1.65/s (its drains' rate): after
    // an empty bucket it passes 4 calls in one second, and refuses a call 1.3 s after its last refusal.
    const log = simulate('sliding-log', 'ietf', { limit: 4, windowMs: 2000, countRefused: true, config: CLI });
    const asBucket = (burst: number, perSecond: number): Claim => ({
      algorithm: 'token-bucket',
      burst,
      rate: perSecond / 1000,
      windowMs: null,
      refusedCallsCount: false,
    });
    const found = bucketContradictions(observationsOf(log.timeline), asBucket(4, 1.49));
    expect(found.refused.length + found.allowed.length).toBeGreaterThan(0);
    // A log of 3 per 2 s: whatever rate a bucket of 3 is read at, the calls it passed after a refusal need more than
    // the most its refusals allow.
    const three = simulate('sliding-log', 'ietf', { limit: 3, windowMs: 2000, countRefused: true, config: CLI });
    const gap = bucketContradictions(observationsOf(three.timeline), asBucket(3, 0.99));
    expect((gap.least?.rate as number) / (gap.most?.rate as number)).toBeGreaterThan(1.1);
    const six = simulate('sliding-log', 'none', { limit: 6, windowMs: 2000, countRefused: true, config: CLI });
    expect(bucketContradictions(observationsOf(six.timeline), asBucket(6, 1.65)).allowed.length).toBeGreaterThan(1);
    // A token bucket of 6 at 3/s, read right: every call explained, and some rate explains them all (its own);
    // read at half its rate, its drains pass too many; at twice, it refuses calls it would have refilled.
    const bucket = simulate('token-bucket', 'none', { limit: 6, windowMs: 2000 });
    const obs = observationsOf(bucket.timeline);
    const right = bucketContradictions(obs, asBucket(6, 3));
    expect([right.allowed, right.refused]).toEqual([[], []]);
    expect((right.least?.rate as number) * 1000).toBeLessThanOrEqual(3);
    expect((right.most?.rate as number) * 1000).toBeGreaterThanOrEqual(3);
    expect(bucketContradictions(obs, asBucket(6, 1.5)).allowed.length).toBeGreaterThan(0);
    expect(bucketContradictions(obs, asBucket(6, 6)).refused.length).toBeGreaterThan(0);
  });

  test('should find a bucket whose burst was read a call short, from the calls a rested bucket passed at once', () => {
    // A leaky bucket of 12 at 6/s: a stalled exhaustion and volley can both count a call of refill and read 11; its
    // exhaustion passed 12 calls within a few ms, one more than a bucket of 11 holds and refills in that time.
    const bucket = simulate('leaky-bucket', 'none', { limit: 12, windowMs: 2000 });
    const obs = observationsOf(bucket.timeline);
    expect(burstExceeded(obs, 12, 6 / 1000)).toBeNull();
    expect(burstExceeded(obs, 11, 6 / 1000)?.spanMs).toBeLessThan(1000 / 6);
  });

  test('should find a sliding log whose refused calls count explains every call of its own timeline, and of no other', () => {
    for (const family of HEADER_STYLES)
      for (const windowMs of [1000, 2000])
        for (const limit of [3, 6, 12]) {
          const at = `${family} L=${limit} W=${windowMs}`;
          const log = simulate('sliding-log', family, { limit, windowMs, countRefused: true, config: CLI });
          const fit = countedLogFit(observationsOf(log.timeline), limit);
          expect(fit, at).not.toBeNull();
          // The window lies in the bracket, and the bracket within a quarter of it.
          expect(fit?.lo as number, at).toBeLessThan(windowMs);
          expect(fit?.hi as number, at).toBeGreaterThanOrEqual(windowMs);
          expect(fit?.lo as number, at).toBeGreaterThan(0.75 * windowMs);
          expect(fit?.hi as number, at).toBeLessThan(1.25 * windowMs);
          // Every other limiter, refused calls counting or not, has calls no such log decides so.
          for (const algorithm of LIMITER_ALGORITHMS)
            for (const countRefused of [false, true]) {
              if (algorithm === 'sliding-log' && countRefused) continue;
              const fp = simulate(algorithm, family, { limit, windowMs, countRefused, config: CLI });
              // A limiter stopped after a few polls (it never reopened) leaves too little to tell.
              if (fp.verdict !== null && fp.requestsSpent < 4 * limit) continue;
              expect(countedLogFit(observationsOf(fp.timeline), limit), `${at}: ${algorithm} counting refused ${countRefused}`).toBeNull();
            }
        }
  });
});

test.describe('rate-limit fingerprint of a bucket or a weighted counter whose refused calls count', () => {
  /** As `npm run load -- probe-reset --window-ms 5000` configures one operation of `limit` calls. */
  const at5s = (limit: number) => ({ maxRequests: 20 * limit, maxDurationMs: 125_000, maxWaitMs: 15_000 });

  test('should name it a token bucket whose refused calls count, not a weighted counter, from any start', () => {
    // Its volley and the drain after it owe the bucket a call each: the cycle after the volley gets that many fewer
    // back than a bucket whose refused calls do not count, as a counter whose aligned boundary came during it would.
    const rows: string[] = [];
    for (const algorithm of ['token-bucket', 'leaky-bucket'] as const)
      for (const limit of [60, 150, 200])
        for (let i = 0; i < 12; i++) {
          const fp = simulate(algorithm, i % 3 === 0 ? 'ietf' : 'x-ratelimit', {
            limit,
            windowMs: 5000,
            countRefused: true,
            latencyMs: 2 + (i % 4),
            startMs: 1_800_000_000_000 + (i / 12) * 5000 + 123,
            config: at5s(limit),
          });
          const truth = limit / 5;
          const row = `${algorithm} L=${limit} at ${(i / 12) * 5000} ms: ${fp.uncertain ? 'uncertain' : fp.algorithm}, ${fp.sustainedPerSecond}/s, refused calls count ${fp.refusedCallsCount}`;
          rows.push(row);
          const label = `${row}\n${fp.evidence.join('\n')}`;
          expect(fp.verdict, label).toBeNull();
          expect(fp.sustainedPerSecond as number, label).toBeLessThanOrEqual(1.1 * truth);
          if (fp.uncertain) continue;
          expect(fp.algorithm, label).toBe('token-bucket');
          expect(fp.refusedCallsCount, label).toBe(true);
          expect(fp.sustainedPerSecond as number, label).toBeGreaterThanOrEqual(0.9 * truth);
        }
    console.log(`[buckets, refused calls count] ${rows.join('\n  ')}`);
  });

  test('should not name a counter whose Reset moved after refused calls, where the refused-call test found them free', () => {
    // A weighted counter of 60 whose refused calls count: its Reset moved after them, its volley's cycle came back
    // as a bucket's (its aligned boundary came during the wait), and the refused-call test read them as free.
    const fp = simulate('sliding-counter', 'x-ratelimit', {
      limit: 60,
      windowMs: 5000,
      countRefused: true,
      startMs: 1_800_000_000_000 + (33 / 40) * 5000 + 123,
      config: at5s(60),
    });
    const label = fp.evidence.join('\n');
    expect(label).toMatch(/advertised reopening moved .* they count/);
    expect(fp.algorithm === 'token-bucket' && !fp.uncertain, label).toBe(false);
    if (fp.uncertain) expect(fp.pacing?.intervalMs as number, label).toBeGreaterThanOrEqual(5000 / 60);
  });

  test("should rate a counter whose refused calls count by its first window, not by its drains' calls and refusals", () => {
    // A weighted counter of 12/s whose refused calls count: its drains got back the window before's calls, refused
    // ones too (14.5/s; 17.4/s with their closing refusals, as a bucket's rate is read), its first window 10.9/s.
    const r = { ...noReadings(), refillShape: 'continuous' as const, rate: 14.49 / 1000, firstWindowRate: 10.9 / 1000 };
    r.rateSpan = { allowed: 15, elapsedMs: 1035, refusals: 3 };
    expect(rateOf(r, true, 'sliding-window')).toBe(10.9 / 1000);
    expect(rateOf(r, false, 'sliding-window')).toBe(14.49 / 1000);
    expect(rateOf(r, true, 'token-bucket')).toBe(18 / 1035);
  });
});

/** The pace of an exhaustion against in-memory limiters: how many at once, where it stops, what it sent past the 429. */
import { test, expect } from '@playwright/test';
import type { ApiResponse } from '../../clients/http';
import { MAX_CONCURRENCY, concurrencyFor, spendBucket } from '../../contracts/exchanges/exhaustion-pacing';

const T0 = 1_800_000_000_000;

/**
 * A fixed-window limiter answering after `latencyMs`: `limit` calls per window, Remaining as counted
 * plus `lies` (a limiter whose headers run ahead of it), Reset the window's end in epoch seconds.
 */
function limiter(limit: number, latencyMs: number, opts: { lies?: number; windowCalls?: number } = {}) {
  let window = 0;
  let used = 0;
  let seen = 0;
  let inFlight = 0;
  let mostInFlight = 0;
  const answer = (status: number, remaining: number, sentAtMs: number): ApiResponse => ({
    method: 'GET',
    url: 'http://127.0.0.1:1/resellers/v6/catalog',
    status,
    headers: {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-reset': String(T0 / 1000 + 60 * (window + 1)),
    },
    text: '{}',
    json: {},
    durationMs: latencyMs,
    sentAtMs,
    receivedAtMs: Date.now(),
    correlationId: `c${seen}`,
  });
  const send = async (): Promise<ApiResponse[]> => {
    const sentAtMs = Date.now();
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    seen += 1;
    // The window rolls over after `windowCalls` calls of the target (compressed time).
    if (opts.windowCalls && seen % opts.windowCalls === 0) [window, used] = [window + 1, 0];
    const allowed = used < limit;
    if (allowed) used += 1;
    const res = answer(allowed ? 200 : 429, allowed ? limit - used + (opts.lies ?? 0) : 0, sentAtMs);
    await new Promise((r) => setTimeout(r, latencyMs));
    inFlight -= 1;
    return [{ ...res, receivedAtMs: Date.now() }];
  };
  return { send, first: () => send().then((a) => a[0] as ApiResponse), mostInFlight: () => mostInFlight };
}

test('should send as many at once as the latency, the calls left and the time left ask for, within the cap', () => {
  // 500 calls at 150 ms in what is left of a minute: the cap; spent in about 2.4 s.
  expect(concurrencyFor(500, 150, 60_000)).toBe(MAX_CONCURRENCY);
  expect(concurrencyFor(60, 1, Infinity)).toBe(1);
  expect(concurrencyFor(60, 20, Infinity)).toBe(3);
  // Little time left: more at once, never past the cap.
  expect(concurrencyFor(60, 20, 200)).toBe(12);
  expect(concurrencyFor(60, 20, 0)).toBe(MAX_CONCURRENCY);
});

test('should spend a bucket several at a time with nothing sent past the first 429 when Remaining counts as the limiter does', async () => {
  const target = limiter(200, 5);
  const first = await target.first();
  const spent = await spendBucket(target.send, { first, maxCalls: 201, timeLeftMs: () => 500, deadlineMs: Date.now() + 30_000 });
  expect(spent.stop).toBe('refused');
  expect(spent.answers.filter((a) => a.status === 200)).toHaveLength(199);
  expect(spent.answers.filter((a) => a.status === 429)).toHaveLength(1);
  expect(spent.pastFirst429).toBe(0);
  expect(spent.concurrency).toBeGreaterThan(1);
  expect(target.mostInFlight()).toBeLessThanOrEqual(MAX_CONCURRENCY);
});

test('should bound and count the calls sent past the first 429 when Remaining runs ahead of the limiter', async () => {
  const target = limiter(100, 5, { lies: 40 });
  const first = await target.first();
  const spent = await spendBucket(target.send, { first, maxCalls: 141, timeLeftMs: () => 50, deadlineMs: Date.now() + 30_000 });
  expect(spent.stop).toBe('refused');
  expect(spent.pastFirst429).toBeLessThanOrEqual(MAX_CONCURRENCY - 1);
  expect(spent.answers.filter((a) => a.status === 429).length).toBe(spent.pastFirst429 + 1);
  expect(spent.calls).toBeLessThanOrEqual(141);
});

test('should stop at the first answer counted in a new window, and at the deadline', async () => {
  const rolling = limiter(100, 2, { windowCalls: 30 });
  const first = await rolling.first();
  const spent = await spendBucket(rolling.send, { first, maxCalls: 101, timeLeftMs: () => 1_000, deadlineMs: Date.now() + 30_000 });
  expect(spent.stop).toBe('new-window');
  expect(spent.calls).toBeLessThan(60);
  const slow = limiter(100, 20);
  const late = await spendBucket(slow.send, {
    first: await slow.first(),
    maxCalls: 101,
    timeLeftMs: () => Infinity,
    deadlineMs: Date.now() + 100,
  });
  expect(late.stop).toBe('deadline');
  expect(late.calls).toBeLessThan(100);
});

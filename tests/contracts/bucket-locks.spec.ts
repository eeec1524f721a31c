/**
 * Checks at once on one target (contracts/session/bucket-locks.ts, call-pace.ts): a bucket held exclusively sees
 * no other holder's calls while it is held, and its holder starts only once the calls in flight have landed; the
 * calls sent at once follow the measured round trip and never exceed a bucket's Remaining less its margin.
 */
import { test, expect } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { BucketLocks } from '../../contracts/session/bucket-locks';
import { CallPace } from '../../contracts/session/call-pace';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const stuck = (message: string): never => {
  throw new Error(message);
};

test('should keep every other call of a bucket out while a check holds it, and start the holder after the calls in flight', async () => {
  const dir = mkdtempSync(test.info().outputPath('run-'));
  // Two holders of the run's folder, as two workers are.
  const [a, b] = [new BucketLocks(dir, 5_000, stuck), new BucketLocks(dir, 5_000, stuck)];
  const events: string[] = [];
  const inFlight = b.call('orders.search', async () => {
    events.push('call starts');
    await sleep(150);
    events.push('call ends');
  });
  await sleep(20);
  const held = a.exclusively(['orders.search'], async () => {
    events.push('hold starts');
    await sleep(150);
    events.push('hold ends');
  });
  await sleep(20);
  const later = b.call('orders.search', async () => void events.push('later call'));
  const other = b.call('deals.search', async () => void events.push('other bucket'));
  await Promise.all([inFlight, held, later, other]);
  expect(events.indexOf('hold starts'), 'the holder waits for the call in flight').toBeGreaterThan(events.indexOf('call ends'));
  expect(events.indexOf('later call'), 'a call of the held bucket waits for the hold').toBeGreaterThan(events.indexOf('hold ends'));
  expect(events.indexOf('other bucket'), 'another bucket is not held').toBeLessThan(events.indexOf('hold ends'));
});

test('should end a wait that outlasts its limit with the reason', async () => {
  const dir = mkdtempSync(test.info().outputPath('run-'));
  const [a, b] = [new BucketLocks(dir, 5_000, stuck), new BucketLocks(dir, 100, stuck)];
  const held = a.exclusively(['quotes.search'], () => sleep(400));
  await sleep(20);
  await expect(b.call('quotes.search', async () => 'sent')).rejects.toThrow(
    /waited 100 ms for another check's exclusive use of quotes.search/,
  );
  await held;
});

const answer = (durationMs: number, remaining?: number) => ({
  durationMs,
  headers: remaining === undefined ? {} : { 'x-ratelimit-remaining': String(remaining) },
});

test('should send one call at a time near the target and several at once far from it, within the cap', async () => {
  const near = new CallPace(8);
  await near.call('b', async () => answer(4));
  expect(near.concurrency()).toBe(1);
  const far = new CallPace(8);
  for (let i = 0; i < 3; i++) await far.call('b', async () => answer(150));
  expect(far.concurrency(), '150 ms is worth about 8 calls in flight').toBe(8);
  expect(far.medianRttMs()).toBe(150);
  const capped = new CallPace(3);
  await capped.call('b', async () => answer(150));
  expect(capped.concurrency()).toBe(3);
  const one = new CallPace(1);
  await one.call('b', async () => answer(150));
  expect(one.concurrency(), 'CERTIFY_CONCURRENCY=1: one call at a time').toBe(1);
});

test('should keep the calls in flight on a bucket below its Remaining less the margin', async () => {
  const pace = new CallPace(8);
  // The bucket answered Remaining 3: with a margin of 2, one call at a time.
  await pace.call('orders.search', async () => answer(10, 3));
  let inFlight = 0;
  let most = 0;
  const call = () =>
    pace.call('orders.search', async () => {
      most = Math.max(most, (inFlight += 1));
      await sleep(20);
      inFlight -= 1;
      return answer(10, 3);
    });
  await Promise.all([call(), call(), call(), call()]);
  expect(most).toBe(1);
});

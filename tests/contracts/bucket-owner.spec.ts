/**
 * Whose bucket a call counts in, judged from Remaining (contracts/exchanges/bucket-owner.ts): together or apart
 * on a fixed window, a window that rolled over told apart, and a limiter that refills between calls or a drop
 * neither reading explains left unclear, never judged.
 */
import { test, expect } from '@playwright/test';
import type { ApiResponse } from '../../clients/http';
import { judgeCounting } from '../../contracts/exchanges/bucket-owner';

const RESET = 1_800_000_060;
let n = 0;
/** An accepted answer with these rate-limit headers. */
function answer(remaining: number, reset = RESET): ApiResponse {
  n += 1;
  return {
    method: 'GET',
    url: 'http://127.0.0.1/resellers/v6/invoices/',
    status: 200,
    headers: { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(reset) },
    text: '{}',
    json: {},
    durationMs: 5,
    sentAtMs: 1_800_000_000_000 + n * 10,
    receivedAtMs: 1_800_000_000_000 + n * 10 + 5,
    correlationId: `c${n}`,
  };
}
const firsts = (...remaining: number[]) => remaining.map((r) => answer(r));

test('should read calls counted in one bucket as together and calls in two buckets as apart', () => {
  expect(judgeCounting(answer(59), firsts(58, 57, 56), answer(55))).toMatchObject({ counting: 'together' });
  expect(judgeCounting(answer(59), firsts(50, 49, 48), answer(58))).toMatchObject({ counting: 'apart' });
});

test('should allow one call refilled in a bucket counted together', () => {
  expect(judgeCounting(answer(59), firsts(58, 57, 56), answer(56))).toMatchObject({ counting: 'together' });
});

test('should tell a window that rolled over between the readings from a reading', () => {
  expect(judgeCounting(answer(3), firsts(2, 1, 0), answer(59, RESET + 60))).toEqual({ newWindow: true });
});

test('should leave unclear a limiter that refills between calls and a drop neither reading explains', () => {
  expect(judgeCounting(answer(59), firsts(58, 58, 57), answer(55))).toHaveProperty(
    'unclear',
    expect.stringMatching(/did not step down by one/),
  );
  expect(judgeCounting(answer(59), firsts(50, 49, 48), answer(57))).toHaveProperty('unclear', expect.stringMatching(/dropped by 2/));
});

test('should fail a reading without an integer Remaining, naming the header', () => {
  const noHeader = { ...answer(59), headers: {} };
  expect(() => judgeCounting(noHeader, firsts(58, 57, 56), answer(55))).toThrow(/X-RateLimit-Remaining absent/);
});

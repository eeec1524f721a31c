/** Where a sequence of answers crosses into a new rate-limit window: a Reset later and a Remaining not lower. */
import { test, expect } from '@playwright/test';
import type { ApiResponse } from '../../clients/http';
import { startsNewWindow } from '../../contracts/judge/rate-limit-sequence';

const T0 = 1_800_000_000_000;

/** An answer with the given Remaining and Reset (epoch seconds), received at T0. */
function answer(remaining: number, resetEpochS: number): ApiResponse {
  return {
    method: 'GET',
    url: 'http://127.0.0.1:1/resellers/v6/catalog',
    status: 200,
    headers: { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(resetEpochS) },
    text: '{}',
    json: {},
    durationMs: 1,
    sentAtMs: T0,
    receivedAtMs: T0,
    correlationId: 'c',
  };
}

const RESET = T0 / 1000 + 2;

test('should see a new window when the first call of the next window reads the Remaining of the first call of the last', () => {
  expect(startsNewWindow(answer(59, RESET), answer(59, RESET + 2))).toBe(true);
});

test('should see a new window when Remaining rises with a later Reset', () => {
  expect(startsNewWindow(answer(30, RESET), answer(59, RESET + 2))).toBe(true);
});

test('should see the same window when Reset stays, whatever Remaining reads', () => {
  expect(startsNewWindow(answer(59, RESET), answer(58, RESET))).toBe(false);
  expect(startsNewWindow(answer(30, RESET), answer(59, RESET))).toBe(false);
});

test('should see no new window when Reset moves on but a counted call lowered Remaining (a sliding limiter)', () => {
  expect(startsNewWindow(answer(59, RESET), answer(58, RESET + 2))).toBe(false);
});

/**
 * A gateway that refuses a token long before its expires_in, in the middle of an exhaustion: the refused call is
 * counted by the limiter, and the checks read that from its Remaining. Certify runs against a loopback proxy in
 * front of the mock (a URL target: a live clock, no control API). The paging checks run beside them, so the refusal
 * may land on a page: a renewed token answers it (contracts/session/token-renewal.ts).
 */
import { test, expect } from '@playwright/test';
import { certifyBehind } from './support/certify-behind';

test('should count an exhaustion right and page each search when the target refuses a token before its expires_in and counts the refused call', async () => {
  test.setTimeout(180_000);
  const r = await certifyBehind('refuse-tokens-early', 60_000, [
    '--workers',
    '1',
    '-g',
    'advertised number|lower X-RateLimit-Remaining by exactly one|60 calls per window|page each search',
  ]);
  const tests = r.summary().tests;
  expect(
    tests.map((t) => t.status),
    r.stdout.slice(-3000),
  ).toEqual(Array.from({ length: 7 }, () => 'passed'));
  expect(r.findings().find((f) => f.id.startsWith('token.refused-early'))?.observed, 'the refusal is a finding').toBe('refused-early');
});

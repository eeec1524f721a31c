/** The contract suite's rate-limit header matcher: when is X-RateLimit-Reset judged, and against what time. */
import { test, expect as base } from '@playwright/test';
import type { ApiResponse } from '../../clients/http';
import { expect } from '../../contracts/support/matchers';

const SENT = 1_800_000_000_400;

function answer(reset: number, sentAtMs = SENT, receivedAtMs = SENT + 80): ApiResponse {
  return {
    method: 'GET',
    url: 'http://127.0.0.1:1/resellers/v6/catalog',
    status: 200,
    headers: { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': String(reset) },
    text: '{}',
    json: {},
    durationMs: receivedAtMs - sentAtMs,
    sentAtMs,
    receivedAtMs,
    correlationId: '00000000-0000-4000-8000-000000000001',
  };
}

test.describe('toHaveRateLimitHeaders', () => {
  test('should judge an epoch Reset against the time of its own exchange, not the time it is read', () => {
    // The window ended the second the call was sent; the check reads it seconds later (a slow batch).
    const atSend = Math.floor(SENT / 1000);
    expect(answer(atSend)).toHaveRateLimitHeaders({ windowMs: 60_000 });
    base(() => expect(answer(atSend - 3)).toHaveRateLimitHeaders({ windowMs: 60_000 })).toThrow(
      `X-RateLimit-Reset ${atSend - 3} is in the past (the call was sent at ${atSend})`,
    );
    base(() => expect(answer(atSend + 63)).toHaveRateLimitHeaders({ windowMs: 60_000 })).toThrow(
      `X-RateLimit-Reset ${atSend + 63} is more than one window (62 s) ahead (the call was answered at ${atSend})`,
    );
  });

  test("should judge Reset against the target's clock when one is given", () => {
    const frozen = SENT + 30_000;
    const atSend = Math.floor(SENT / 1000);
    base(() => expect(answer(atSend)).toHaveRateLimitHeaders({ nowMs: frozen, windowMs: 60_000 })).toThrow(
      `X-RateLimit-Reset ${atSend} is in the past (now ${Math.floor(frozen / 1000)})`,
    );
    expect(answer(atSend + 30)).toHaveRateLimitHeaders({ nowMs: frozen, windowMs: 60_000 });
  });
});

test.describe('toHaveStatusIn', () => {
  test('should say which status came, and not repeat the evidence the caller gives', () => {
    const res = { ...answer(0), status: 500 };
    let message = '';
    try {
      expect(res, 'Broken fact: a fact\nExpected: 2xx\nReceived: the evidence').toHaveStatusIn(200, 299);
    } catch (e) {
      message = (e as Error).message;
    }
    base(message).toContain('Expected: a status within 200–299\nReceived: 500 (GET http://127.0.0.1:1/resellers/v6/catalog)');
    base(message.match(/x-ratelimit-limit/g)).toBeNull();
    expect(answer(0)).toHaveStatusIn(200, 299);
  });
});

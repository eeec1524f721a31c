/** The contract suite's rate-limit header matcher: when is X-RateLimit-Reset judged, and against what time. */
import { test, expect as base } from '@playwright/test';
import type { ApiResponse } from '../../clients/http';
import { expect } from '../../contracts/judge/matchers';
import { countingOrder } from '../../contracts/judge/rate-limit-sequence';

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

test.describe('toCountDownRemaining', () => {
  const RESET = String(Math.floor(SENT / 1000) + 30);
  /** An exhaustion sent one call after another: one answer per entry, `429` for a refusal, else the Remaining it advertises. */
  const bucket = (...steps: (number | '429' | 'absent')[]): ApiResponse[] =>
    steps.map((s, i) => {
      const a = answer(Number(RESET), SENT + i * 100, SENT + i * 100 + 80);
      const headers: Record<string, string> = { ...a.headers, 'x-ratelimit-reset': RESET };
      if (s === 'absent') delete headers['x-ratelimit-remaining'];
      else headers['x-ratelimit-remaining'] = s === '429' ? '0' : String(s);
      return { ...a, status: s === '429' ? 429 : 200, headers, correlationId: `c${i}` };
    });

  test('should pass one less per accepted call until the refusal, and across a window boundary', () => {
    expect(bucket(4, 3, 2, 1, 0, '429', '429')).toCountDownRemaining();
    const rolled = bucket(2, 1, 0);
    rolled.push({
      ...bucket(59)[0]!,
      headers: { ...bucket(59)[0]!.headers, 'x-ratelimit-reset': String(Number(RESET) + 60) },
      correlationId: 'c3',
    });
    expect(rolled).toCountDownRemaining();
  });

  test('should fail a step of two and name the two calls by their correlation ids', () => {
    base(() => expect(bucket(4, 2, 1, 0, '429')).toCountDownRemaining()).toThrow(
      /one less per accepted call[\s\S]*Remaining 4 then 2: lowered by 2 between IM-CorrelationID c0 and IM-CorrelationID c1/,
    );
    base(() => expect(bucket(3, 3, 2)).toCountDownRemaining()).toThrow(
      /Remaining 3 then 3: unchanged between IM-CorrelationID c0 and IM-CorrelationID c1/,
    );
    base(() => expect(bucket(2, 3)).toCountDownRemaining()).toThrow(/raised by 1 between IM-CorrelationID c0 and IM-CorrelationID c1/);
  });

  test('should fail a 2xx after Remaining 0 and name both calls', () => {
    // The held-out shape: 2, then 0, then another 2xx.
    base(() => expect(bucket(2, 0, 0, '429')).toCountDownRemaining()).toThrow(
      /lowered by 2 between IM-CorrelationID c0 and IM-CorrelationID c1/,
    );
    base(() => expect(bucket(1, 0, 0, '429')).toCountDownRemaining()).toThrow(
      /no call is accepted after Remaining 0[\s\S]*IM-CorrelationID c1 answered Remaining 0, then IM-CorrelationID c2 answered 200/,
    );
  });

  test('should fail an absent Remaining and a sequence too short to judge', () => {
    base(() => expect(bucket(3, 'absent', 1)).toCountDownRemaining()).toThrow(
      /IM-CorrelationID c1 answered 200 without an integer X-RateLimit-Remaining/,
    );
    base(() => expect(bucket(3)).toCountDownRemaining()).toThrow(/only 1 answer\(s\): nothing to compare/);
  });
});

test.describe('toCountDownRemaining over calls sent at once', () => {
  const RESET = String(Math.floor(SENT / 1000) + 30);
  /** A call sent at `sentAt` and answered at `receivedAt` (ms after SENT), with its Remaining. */
  const call = (remaining: number, sentAt: number, receivedAt: number, id: string, status = 200): ApiResponse => {
    const a = answer(Number(RESET), SENT + sentAt, SENT + receivedAt);
    return { ...a, status, headers: { ...a.headers, 'x-ratelimit-remaining': String(remaining) }, correlationId: id };
  };

  test('should read answers of calls in flight together in the order the target counted them, not the order they came', () => {
    // First alone, then three at once answered out of order, then the refusal.
    const seq = [call(3, 0, 10, 'c0'), call(1, 20, 30, 'c1'), call(0, 20, 31, 'c2'), call(2, 20, 32, 'c3'), call(0, 40, 50, 'c4', 429)];
    expect(seq).toCountDownRemaining();
  });

  test('should still catch a skip, a freeze and a rise among calls sent at once', () => {
    base(() => expect([call(4, 0, 10, 'c0'), call(1, 20, 30, 'c1'), call(3, 20, 31, 'c2')]).toCountDownRemaining()).toThrow(
      /Remaining 3 then 1: lowered by 2 between IM-CorrelationID c2 and IM-CorrelationID c1/,
    );
    base(() => expect([call(4, 0, 10, 'c0'), call(3, 20, 30, 'c1'), call(3, 20, 31, 'c2')]).toCountDownRemaining()).toThrow(
      /Remaining 3 then 3: unchanged between IM-CorrelationID c1 and IM-CorrelationID c2/,
    );
    // c2 was sent after c1 was answered: it was counted after it, whatever their Remaining.
    base(() => expect([call(2, 0, 10, 'c0'), call(1, 20, 30, 'c1'), call(3, 40, 50, 'c2')]).toCountDownRemaining()).toThrow(
      /Remaining 1 then 3: raised by 2 between IM-CorrelationID c1 and IM-CorrelationID c2/,
    );
  });

  test('should count a call refused for its token when its Remaining says the target counted it, and not otherwise', () => {
    // Counted: the 401 says 2, its repetition 1.
    const counted = [call(3, 0, 10, 'c0'), call(2, 20, 30, 'r1', 401), call(1, 40, 50, 'c1'), call(0, 60, 70, 'c2')];
    expect(counted).toCountDownRemaining();
    expect(countingOrder(counted)).toMatchObject({ countedRefusals: 1, unknownRefusals: 0 });
    // Not counted: the 401 repeats the Remaining of an accepted call.
    const notCounted = [call(3, 0, 10, 'c0'), call(2, 20, 30, 'r1', 401), call(2, 40, 50, 'c1'), call(1, 60, 70, 'c2')];
    expect(notCounted).toCountDownRemaining();
    expect(countingOrder(notCounted)).toMatchObject({ countedRefusals: 0, unknownRefusals: 0 });
  });
});

test.describe('toKeepRateLimitHeaderInvariants', () => {
  const RESET = Math.floor(SENT / 1000) + 30;
  const calls = (...steps: [remaining: number, reset?: number, limit?: number][]): ApiResponse[] =>
    steps.map(([remaining, reset = RESET, limit = 60], i) => {
      const a = answer(reset, SENT + i * 100, SENT + i * 100 + 80);
      const headers = {
        'x-ratelimit-limit': String(limit),
        'x-ratelimit-remaining': String(remaining),
        'x-ratelimit-reset': String(reset),
      };
      return { ...a, headers, correlationId: `c${i}` };
    });

  test('should pass a count-down with one Reset and one Limit, and across a new window', () => {
    expect(calls([59], [58], [57], [56])).toKeepRateLimitHeaderInvariants();
    expect(calls([2], [1], [59, RESET + 60], [58, RESET + 60])).toKeepRateLimitHeaderInvariants();
  });

  test('should fail a Reset that moves within a window, a Limit that changes and a Remaining that freezes', () => {
    base(() => expect(calls([59], [58, RESET + 1])).toKeepRateLimitHeaderInvariants()).toThrow(
      /Reset is when the counter resets[\s\S]*X-RateLimit-Reset \d+ then \d+ \(1000 ms apart\)/,
    );
    base(() => expect(calls([59], [58, RESET, 61])).toKeepRateLimitHeaderInvariants()).toThrow(
      /X-RateLimit-Limit 60 \(IM-CorrelationID c0\) then 61/,
    );
    base(() => expect(calls([59], [59], [59])).toKeepRateLimitHeaderInvariants()).toThrow(/Remaining 59 then 59: unchanged/);
  });
});

test.describe('toNameTheAdvertisedLimitOn429', () => {
  const call = (status: number, limit: string | undefined, id: string): ApiResponse => {
    const headers: Record<string, string> = { ...answer(0).headers };
    if (limit === undefined) delete headers['x-ratelimit-limit'];
    else headers['x-ratelimit-limit'] = limit;
    return { ...answer(0), status, headers, correlationId: id };
  };

  test("should name both answers when the 429's Limit is not the one the accepted calls advertised", () => {
    const seq = [call(200, '60', 'a1'), call(200, '60', 'a2'), call(429, '61', 'r1')];
    base(() => expect(seq).toNameTheAdvertisedLimitOn429()).toThrow(
      'X-RateLimit-Limit 61 on the 429 (IM-CorrelationID r1), X-RateLimit-Limit 60 on the last accepted call (IM-CorrelationID a2); 2 call(s) accepted before the 429',
    );
    expect([call(200, '60', 'a1'), call(429, '60', 'r1')]).toNameTheAdvertisedLimitOn429();
  });

  test('should leave an absent or non-integer Limit to the header checks', () => {
    expect([call(200, '60', 'a1'), call(429, undefined, 'r1')]).toNameTheAdvertisedLimitOn429();
    expect([call(200, undefined, 'a1'), call(429, '61', 'r1')]).toNameTheAdvertisedLimitOn429();
    expect([call(200, '60', 'a1'), call(429, 'sixty', 'r1')]).toNameTheAdvertisedLimitOn429();
  });
});

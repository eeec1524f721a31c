/**
 * A refused token is renewed with one obtained after the refusal, and taken as the call leaves: a target refusing
 * each token a few seconds after its first use (as the drift token.refused-early does) never shows a check a 401,
 * even when the call waited for its bucket, or the token the client held at the refusal is refused as well.
 */
import { test, expect } from '@playwright/test';
import { TokenClient } from '../../clients/token-client';
import type { ApiResponse } from '../../clients/http';
import type { EarlyRefusal } from '../../clients/token-core';
import { MAX_RENEWALS, sendRenewing, type TokenSource } from '../../contracts/session/token-renewal';

/** How long after its first use the target refuses a token. */
const REFUSED_AFTER_MS = 3_000;

/** A target on a test clock: issues numbered tokens, and answers 401 to a token first used over 3 s ago. */
function refusingTarget() {
  const clock = { now: 1_000_000 };
  const firstUse = new Map<string, number>();
  let issued = 0;
  const tokens = new TokenClient({
    baseUrl: 'https://target.invalid',
    credentials: { reseller: { clientId: 'app', clientSecret: 'token-renewal-spec-secret' } },
    now: () => clock.now,
    transport: async () => ({
      status: 200,
      text: JSON.stringify({ access_token: `token-${(issued += 1)}`, token_type: 'Bearer', expires_in: 86_399 }),
    }),
  });
  const sent: string[] = [];
  const send = async (token: string): Promise<ApiResponse> => {
    sent.push(token);
    const first = firstUse.get(token) ?? clock.now;
    firstUse.set(token, first);
    const status = clock.now - first > REFUSED_AFTER_MS ? 401 : 200;
    return { status, method: 'GET', url: 'https://target.invalid/x', correlationId: `c${sent.length}`, headers: {} } as ApiResponse;
  };
  const source: TokenSource = { tokens, family: 'reseller', environment: 'production' };
  return { clock, tokens, send, sent, source };
}

/** A call that waits `waitMs` for its bucket before it leaves, then takes its token. */
const leavingAfter =
  (t: ReturnType<typeof refusingTarget>, waitMs: number) =>
  async (pick: () => Promise<string>): Promise<ApiResponse> => {
    t.clock.now += waitMs;
    return t.send(await pick());
  };

test('should take the token as the call leaves, after its wait for the bucket', async () => {
  const t = refusingTarget();
  const renewal = { now: () => t.clock.now, onEarly: () => {} };
  await t.send(await t.tokens.token('reseller', 'production'));
  // Taken before a 4 s wait, token-1 would be refused; taken as the call leaves, it is renewed to token-2 once.
  const res = await sendRenewing(t.source, leavingAfter(t, 4_000), renewal);
  expect(res.status).toBe(200);
  expect(t.sent, 'token-1 refused as the call left, then token-2').toEqual(['token-1', 'token-1', 'token-2']);
});

test('should renew a refused token with one obtained after the refusal when the held one is refused too', async () => {
  const t = refusingTarget();
  const early: EarlyRefusal[] = [];
  const renewal = { now: () => t.clock.now, onEarly: (e: EarlyRefusal) => early.push(e) };
  const t1 = await t.tokens.token('reseller', 'production');
  await t.send(t1);
  // Call A meets the refusal of token-1 and renews to token-2, which is then used for 4 s.
  t.clock.now += 4_000;
  expect((await sendRenewing(t.source, leavingAfter(t, 0), renewal)).status).toBe(200);
  t.clock.now += 4_000;
  // Call B: token-2 (held) is refused; the renewal after it, token-3, is taken after the refusal and answers.
  const b = await sendRenewing(t.source, leavingAfter(t, 0), renewal);
  expect(b.status, `sent: ${t.sent.join(', ')}`).toBe(200);
  expect(t.sent.slice(-2)).toEqual(['token-2', 'token-3']);
  expect(early.length, 'each early refusal is told').toBe(2);
});

test('should take a 401 that a token obtained after the refusal gets as the answer', async () => {
  const t = refusingTarget();
  const refusedAlways = async (pick: () => Promise<string>): Promise<ApiResponse> => ({ ...(await t.send(await pick())), status: 401 });
  await t.tokens.token('reseller', 'production');
  const res = await sendRenewing(t.source, refusedAlways, { now: () => t.clock.now, onEarly: () => {} });
  expect(res.status).toBe(401);
  expect(t.sent, 'the first send and one with a token fetched after the refusal').toEqual(['token-1', 'token-2']);
  expect(t.sent.length).toBeLessThanOrEqual(1 + MAX_RENEWALS);
});

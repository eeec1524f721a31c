/**
 * "Further requests fail until the refresh period ends": a spent bucket refuses the call right after its 429 and
 * serves the first call after the Reset that 429 advertised.
 */
import { test } from '@playwright/test';
import { advertisedResetMs, type EnvironmentName, type Operation } from '../../catalogue';
import { evidenceOf } from '../../clients/http';
import { expect } from '../judge/matchers';
import { resetAtMs } from '../judge/rate-limit-sequence';
import type { Session } from '../session/session';
import { exhaust, mustInt, refusedOf, targetNow } from './bucket-exhaustion';

/** Spends the bucket of `op`, then calls it right after the 429 (refused) and after the advertised reset (served). */
export async function refusedUntilReset(session: Session, op: Operation, env: EnvironmentName): Promise<void> {
  const fact = 'further requests fail until the refresh period ends';
  const r = refusedOf(await exhaust(session, op, env), `after the limit is exceeded, ${fact}`);
  const again = await session.call(op, env, { allow429: true });
  expect(again.status, `Broken fact: ${fact}\nExpected: 429 right after the first 429\nReceived: ${evidenceOf(again)}`).toBe(429);
  const reset = mustInt(r, 'reset', 'X-RateLimit-Reset is when the counter resets');
  const control = session.target.control;
  // The mock's frozen clock is the reference there; a live target's is ours, and a Reset in seconds counts from its 429.
  const nowMs = await targetNow(session);
  const resetAt = control ? advertisedResetMs(reset, nowMs) : resetAtMs(r);
  const waitMs = Math.max(0, (resetAt ?? nowMs) - nowMs);
  const cap = session.target.windowMs * 2 + 2000;
  expect(waitMs, `X-RateLimit-Reset must name a time within ${cap} ms; ${evidenceOf(r)}`).toBeLessThanOrEqual(cap);
  if (control) await control('POST', '/clock', { advanceMs: waitMs + 300 });
  else {
    test.setTimeout(waitMs + 60_000);
    await new Promise((res) => setTimeout(res, waitMs + 300));
  }
  const after = await session.call(op, env, { allow429: true });
  expect(
    after.status,
    `Broken fact: requests fail only until the refresh period ends\nExpected: 2xx 300 ms after the advertised reset\nReceived: ${evidenceOf(after)}`,
  ).toBeLessThan(300);
}

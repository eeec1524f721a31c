/**
 * Every bucket spent once under PROBE_LIMITS: each read-only operation in every selected environment and family is
 * called until its first 429 (contracts/exchanges/bucket-exhaustion.ts), independent buckets several at once, and
 * judged for exactly the advertised count allowed, then the 429's status, JSON error body, rate-limit headers and
 * Remaining 0 ("When any rate limit is hit, the response status is 429 … with a JSON error body"). The request plan
 * counts each bucket's limit before the first request. A write operation's bucket (as many orders, quotes or returns
 * as its limit) is spent by no check here: the ledger lists its places as not judged.
 */
import type { EnvironmentName, Operation } from '../catalogue';
import { evidenceOf } from '../clients/http';
import { test, expect, harnessConfig, label, selectedOperations, type Session } from './session/test';
import { CheckGroup } from './outcomes/check-groups';
import { judges } from './outcomes/fact-ledger';
import { probeLimitsScope } from './plan/scope';
import { findIdsFirst } from './exchanges/ids-first';
import * as bucket from './exchanges/bucket-exhaustion';

const cfg = harnessConfig();
const SPENDABLE = selectedOperations(cfg).filter((o) => o.readOnly);
const REFUSED = 'when any rate limit is hit, the response status is 429';

/** Spends the operation's bucket, its bucket to itself, and judges the count allowed and the 429. */
async function judgeBucket(session: Session, op: Operation, env: EnvironmentName): Promise<void> {
  label(test.info(), op, env, 'bucket-spent');
  const ex = await session.exclusively([op], () => bucket.exhaust(session, op, env));
  const refused = bucket.refusedOf(ex, `${REFUSED} (${op.id}, ${env})`);
  bucket.expectAllowedAsAdvertised(ex, `X-RateLimit-Limit is the limit enforced (${op.id}, ${env})`);
  expect.soft(refused).toBeJsonResponse();
  expect.soft(refused).toBeErrorBody(`the 429 body is JSON with errors[] of {field: string or null, message: string} (${op.id}, ${env})`);
  expect.soft(refused).toHaveRateLimitHeaders({ nowMs: await bucket.targetNow(session), windowMs: session.target.windowMs });
  const fact = `X-RateLimit-Remaining is 0 on a 429 (${op.id}, ${env})`;
  expect.soft(bucket.mustInt(refused, 'remaining', fact), `Broken fact: ${fact}\nReceived: ${evidenceOf(refused)}`).toBe(0);
}

test.describe('every bucket spent once', { tag: ['@bucket-spend'] }, () => {
  bucket.spendingBuckets(test);
  for (const env of cfg.environments) {
    // One test per environment, one check per operation: independent buckets spent several at once (outcomes/check-groups.ts).
    const buckets = new CheckGroup<{ session: Session }>();
    for (const op of SPENDABLE)
      buckets.check(
        `should allow exactly the advertised calls of ${op.id}, then answer 429 with the JSON error body, the rate-limit headers and Remaining 0 (${env})`,
        {
          unit: op.id,
          requests: bucket.exhaustionRequests(op),
          outOfScope: probeLimitsScope(cfg),
          facts: judges(env, op.id, 'limit.honoured', '429.error-body', '429.headers'),
        },
        async ({ session }) => judgeBucket(session, op, env),
        ['@bucket-spend', `@${op.id}`],
      );
    test(
      `should spend every bucket once: the advertised calls allowed, then the documented 429 (${env})`,
      buckets.details(),
      async ({ session }) => {
        await findIdsFirst(session, env, SPENDABLE);
        await buckets.run({ session }, session.pace);
      },
    );
  }
});

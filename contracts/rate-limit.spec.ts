/**
 * Rate limits: each documented fact is its own check (the count, the 429 body, the 429 headers,
 * Remaining stepping by one, the block until the reset), so one broken fact does not hide the
 * others. An absent or non-integer header never satisfies a comparison. On the embedded mock the
 * clock is frozen for each check and moved instead of waiting for a reset.
 */
import { GET_LIMIT_PER_MINUTE, detectResetUnit, type EnvironmentName, type Operation } from '../catalogue';
import { evidenceOf, type ApiResponse } from '../clients/http';
import { test, expect, harnessConfig, label, notRun, planned, selectedOperations, type Session } from './session/test';
import { familyScope, firstScope, probeLimitsScope, secondAppScope, selectedScope, writesScope } from './plan/scope';
import { rateLimitValue, startsNewWindow } from './judge/rate-limit-sequence';
import {
  exhaust,
  exhaustionRequests,
  expectAllowedAsAdvertised,
  judgeRefusal,
  mustInt,
  refusedOf,
  spendingBuckets,
  shown,
  targetNow,
  type Exhaustion,
} from './exchanges/bucket-exhaustion';
import { recordFinding } from './record/finding-recorder';
import { operationToHold } from './exchanges/held-operations';
import { writeObserved } from './record/annotations';
import { SPENDS_BUCKET } from './plan/phases';
import { refusedUntilReset } from './exchanges/refused-until-reset';
import { judges, withFacts } from './record/fact-declarations';

const cfg = harnessConfig();
const env = cfg.environments[0] as EnvironmentName;
const ops = selectedOperations(cfg).filter((o) => o.family === 'reseller' && o.method === 'GET' && o.pathParams.length === 0);
const opNamed = (id: string): Operation => {
  const op = selectedOperations(cfg).find((o) => o.id === id) ?? ops[0];
  if (!op) throw new Error(`rate-limit tests need a reseller GET operation; ${id} is not selected`);
  return op;
};

const intOf = rateLimitValue;

/** A rate-limit check's plan: its operation and requests; out of scope without PROBE_LIMITS or the reseller family. */
const limits = (id: string, requests: number, ...more: Parameters<typeof firstScope>) =>
  planned({
    unit: id,
    requests,
    outOfScope: firstScope(
      probeLimitsScope(cfg),
      familyScope(cfg, 'reseller', 'the rate-limit checks use reseller GET operations'),
      ...more,
    ),
  });
/** A check that spends the operation's bucket, and `after` calls more: it runs in the run's second phase (plan/phases.ts). */
function spends(id: string, after = 0, ...more: Parameters<typeof firstScope>) {
  const op = selectedOperations(cfg).find((o) => o.id === id) ?? ops[0];
  return { ...limits(id, (op ? exhaustionRequests(op) : 0) + after, ...more), tag: [SPENDS_BUCKET] };
}

/**
 * The rate-limit checks hold the buckets of the operations they call to themselves while each runs (bucket-locks.ts),
 * once the plan guard has let them run: a check out of scope holds nothing.
 */
const alone = test.extend<{ exclusiveBuckets: void }>({
  exclusiveBuckets: [
    async ({ session, planGuard }, use) => {
      void planGuard;
      const called = [...ops, ...selectedOperations(cfg).filter((o) => o.listedIn === 'document')];
      await session.exclusively(called, () => use());
    },
    { auto: true },
  ],
});

/** What a bucket spent past its limit shows. */
const REFUSED = 'after the limit is exceeded, further requests fail';

/** The facts of the ledger each exhaustion check judges at its operation (catalogue/facts.ts). */
const EXHAUSTION_FACTS: Record<string, string[]> = {
  'limit-enforced': ['limit.honoured'],
  'get-limit': ['limit.honoured'],
  'remaining-sequence': ['headers.remaining-steps'],
  '429-body': ['429.error-body'],
  '429-headers': ['429.headers'],
};

/** A check that spends the bucket of `id` to its 429 (bucket-exhaustion.ts), then judges what the exhaustion showed. */
function exhaustion(title: string, id: string, check: string, judge: (ex: Exhaustion, session: Session) => void | Promise<void>): void {
  alone(title, withFacts(spends(id), judges(env, id, ...(EXHAUSTION_FACTS[check] ?? []))), async ({ session }) => {
    const op = opNamed(id);
    label(test.info(), op, env, check);
    await judge(await exhaust(session, op, env), session);
  });
}

alone.describe('rate limits', { tag: ['@rate-limit'] }, () => {
  // Independent checks: a broken fact fails its own check and the others still run.
  alone.describe.configure({ mode: 'default' });

  spendingBuckets(alone);

  // First: a finding that rarely fails, so that a run whose rate-limit checks fail restarts no worker for it
  // (Playwright starts a new worker after each failed test that has tests after it).
  alone(
    'should record whether X-RateLimit-Reset is an epoch time or a count of seconds',
    limits('returns.search', 1),
    async ({ session }) => {
      const op = opNamed('returns.search');
      label(test.info(), op, env, 'finding');
      // Any answer will do, a 429 included: the finding needs a Reset header, not a successful call.
      const res = await session.call(op, env, { allow429: true });
      const reset = intOf(res, 'reset');
      if (reset === null && res.status !== 429)
        notRun(test.info(), `no integer X-RateLimit-Reset to read and no 429 (${shown(res, 'reset')}; status ${res.status})`);
      recordFinding(
        'ratelimit.reset-unit',
        reset === null ? 'absent' : detectResetUnit(reset),
        `${shown(res, 'reset')} at ${Math.floor(Date.now() / 1000)} (epoch s); ${evidenceOf(res)}`,
        { environment: env, policyFile: cfg.policyFile },
      );
    },
  );

  // One call of the second operation, three of the first, the second again.
  alone('should keep rate-limit buckets independent across operations', limits('deals.search', 5), async ({ session }) => {
    const a = opNamed('deals.search');
    const b = opNamed('returns.search');
    label(test.info(), a, env, 'bucket-per-operation');
    const fact = 'limits are per endpoint';
    const before = await session.call(b, env);
    const r0 = mustInt(before, 'remaining', fact);
    for (let i = 0; i < 3; i++) await session.call(a, env);
    const after = await session.call(b, env);
    const r1 = mustInt(after, 'remaining', fact);
    if (startsNewWindow(before, after)) return;
    expect(
      r1,
      `Broken fact: ${fact}\nExpected: ${b.id} Remaining ${r0 - 1} (3 calls to ${a.id} in between must not count)\nReceived: ${r1}; ${evidenceOf(after)}`,
    ).toBe(r0 - 1);
  });

  // The second app's token and call, three calls of the first app, the second app's call again.
  alone('should keep rate-limit buckets independent across apps', limits('orders.search', 6, secondAppScope(cfg)), async ({ session }) => {
    const op = opNamed('orders.search');
    label(test.info(), op, env, 'bucket-per-app');
    const second = cfg.secondReseller;
    if (!second) throw new Error('no second reseller app');
    const fact = 'rate limits are allocated per API app';
    const tokenFrom = session.tokenClient({ reseller: second });
    const before = await session.call(op, env, { tokenFrom });
    const r0 = mustInt(before, 'remaining', fact);
    for (let i = 0; i < 3; i++) await session.call(op, env);
    const after = await session.call(op, env, { tokenFrom });
    const r1 = mustInt(after, 'remaining', fact);
    if (startsNewWindow(before, after)) return;
    expect(
      r1,
      `Broken fact: ${fact}\nExpected: the second app's Remaining ${r0 - 1} (3 calls of the first app must not count)\nReceived: ${r1}; ${evidenceOf(after)}`,
    ).toBe(r0 - 1);
  });

  exhaustion(
    'should allow exactly the advertised number of calls per window, then answer 429',
    'catalog.search',
    'limit-enforced',
    (ex) => {
      refusedOf(ex, REFUSED);
      expectAllowedAsAdvertised(ex, 'X-RateLimit-Limit is the limit enforced');
      writeObserved(test.info(), { limit: intOf(ex.first, 'limit') ?? null, allowed: ex.allowedAfterFirst + 1, requests: ex.sent });
    },
  );

  exhaustion(
    'should lower X-RateLimit-Remaining by exactly one per accepted call across the exhaustion of a bucket',
    'returns.search',
    'remaining-sequence',
    (ex) => {
      refusedOf(ex, REFUSED);
      expect(ex.seq).toCountDownRemaining();
    },
  );

  exhaustion('should advertise and enforce 60 calls per window on a GET endpoint', 'invoices.search', 'get-limit', (ex) => {
    const fact = `all GET calls: ${GET_LIMIT_PER_MINUTE} calls per minute per endpoint`;
    const limit = mustInt(ex.first, 'limit', fact);
    expect(limit, `Broken fact: ${fact}\nExpected: X-RateLimit-Limit ${GET_LIMIT_PER_MINUTE}\nReceived: ${evidenceOf(ex.first)}`).toBe(
      GET_LIMIT_PER_MINUTE,
    );
    refusedOf(ex, fact);
    expectAllowedAsAdvertised(ex, fact);
  });

  exhaustion("should answer 429 with the spec's error body", 'quotes.search', '429-body', (ex) => {
    const r = refusedOf(ex, REFUSED);
    expect(r).toBeErrorBody('the 429 body is JSON with errors[] of {field: string or null, message: string}');
  });

  exhaustion(
    'should answer 429 with Remaining 0 and all three rate-limit headers, Limit as advertised',
    'orders.search',
    '429-headers',
    async (ex, session) => {
      const r = refusedOf(ex, REFUSED);
      expect(r).toHaveRateLimitHeaders({ nowMs: await targetNow(session), windowMs: session.target.windowMs });
      expect(
        intOf(r, 'remaining'),
        `Broken fact: X-RateLimit-Remaining is 0 on a 429\nReceived: ${shown(r, 'remaining')}; ${evidenceOf(r)}`,
      ).toBe(0);
      expect(ex.seq).toNameTheAdvertisedLimitOn429();
    },
  );

  // The operations the published document adds: their limits are assumed by class (finding ratelimit.document-operation-limits).
  for (const op of selectedOperations(cfg).filter((o) => o.listedIn === 'document')) {
    const writes = op.readOnly ? undefined : writesScope(cfg, `exhausting ${op.id} (every call)`);
    alone(
      `should answer 429 with the spec's error body and Remaining 0 once ${op.id} has spent its advertised limit`,
      withFacts(spends(op.id, 0, writes), judges(env, op.id, '429.error-body', '429.headers')),
      async ({ session }) => {
        label(test.info(), op, env, '429-document-operation');
        const r = refusedOf(await exhaust(session, op, env), `after the limit of ${op.id} is exceeded, further requests fail`);
        await judgeRefusal(session, r, `${op.id}, ${env}`);
      },
    );
  }

  // The exhaustion, a call right after the 429 and one after the reset; its one bucket held while it waits for the reset.
  test('should refuse calls until the reset and accept the first call after it', spends('deals.search', 2), async ({ session }) => {
    const op = opNamed('deals.search');
    label(test.info(), op, env, 'reset');
    await session.exclusively([op], () => refusedUntilReset(session, op, env));
  });

  alone('should send the rate-limit headers on 4xx answers', limits('catalog.search', 1), async ({ session }) => {
    const op = opNamed('catalog.search');
    label(test.info(), op, env, 'headers-4xx');
    const notFound = await session.send({
      method: 'GET',
      path: `${session.pathOf(op, env)}/no-such-resource-for-certification`,
      token: await session.token('reseller', env),
    });
    expect(notFound.status).toBeGreaterThanOrEqual(400);
    expect(notFound).toHaveRateLimitHeaders({ nowMs: await targetNow(session), windowMs: session.target.windowMs });
  });
});

/**
 * The header invariants over a few calls in a row, in every environment and family: they cost no
 * exhaustion, so they run without PROBE_LIMITS (four calls of a read-only operation each).
 */
test.describe('rate-limit headers per environment and family', { tag: ['@rate-limit-headers'] }, () => {
  for (const family of cfg.families) {
    for (const environment of cfg.environments) {
      const gets = selectedOperations(cfg).filter((o) => o.family === family && o.method === 'GET' && !o.pathParams.length);
      const op = operationToHold(gets, selectedOperations(cfg));
      const plan = planned({
        unit: op?.id ?? `ratelimit.${family}`,
        requests: 4,
        outOfScope: selectedScope(op ? [] : [`a ${family} GET operation without path parameters`]),
        facts: op ? judges(environment, op.id, 'headers.remaining-steps') : [],
      });
      test(
        `should decrease X-RateLimit-Remaining by exactly 1 per call and keep Reset and Limit stable within a window (${family}, ${environment})`,
        plan,
        async ({ session }) => {
          if (!op) throw new Error(`no ${family} GET operation without path parameters`);
          label(test.info(), op, environment, 'remaining-step');
          // Four calls in a row with the bucket to themselves: no other check's call lands between them.
          const seq: ApiResponse[] = await session.exclusively([op], async () => {
            const calls: ApiResponse[] = [];
            for (let i = 0; i < 4; i++) calls.push(await session.call(op, environment));
            return calls;
          });
          expect(seq).toKeepRateLimitHeaderInvariants();
        },
      );
    }
  }
});

/**
 * The rate-limit header invariants at every place they apply, by default: each operation a valid call can repeat
 * (read-only) is called three times in a row, its bucket to itself, in every selected environment and family;
 * Remaining falls by one per call, Limit and Reset stay as they were within the window ("one rate-limit scheme"
 * for both families), Reset read in one unit on every operation. Three calls per operation, no bucket spent: no PROBE_LIMITS needed.
 */
import type { EnvironmentName, Operation } from '../catalogue';
import type { ApiResponse } from '../clients/http';
import { factApplies } from '../catalogue/facts';
import { test, expect, harnessConfig, label, selectedOperations, type Session } from './session/test';
import { CheckGroup } from './outcomes/check-groups';
import { judges } from './record/fact-declarations';
import { judging } from './record/fact-verdicts';
import { findIdsFirst } from './exchanges/ids-first';
import { ONE_SCHEME, otherResetUnit } from './exchanges/reset-units';

const cfg = harnessConfig();
/** Calls in a row per operation: two steps of Remaining to compare. */
const CALLS = 3;
const REPEATABLE = selectedOperations(cfg).filter((o) => factApplies('headers.remaining-steps', o));

/** Three calls of the operation with its bucket to themselves: no other check's call lands between them. */
async function judgeSteps(session: Session, op: Operation, env: EnvironmentName): Promise<void> {
  label(test.info(), op, env, 'remaining-step');
  const seq = await session.exclusively([op], async () => {
    const calls: ApiResponse[] = [];
    for (let i = 0; i < CALLS; i++) calls.push(await session.call(op, env));
    return calls;
  });
  await judging('headers.remaining-steps', () => expect.soft(seq).toKeepRateLimitHeaderInvariants());
  await judging('headers.reset-unit', () => expect.soft(otherResetUnit(session.target.baseUrl, op.id, env, seq), ONE_SCHEME).toBeNull());
}

for (const env of cfg.environments) {
  // One test per environment, one check per operation, several at once against a distant target (outcomes/check-groups.ts).
  const steps = new CheckGroup<{ session: Session }>();
  for (const op of REPEATABLE)
    steps.check(
      `should lower X-RateLimit-Remaining by one per call of ${op.id} and keep Limit and Reset (${env})`,
      {
        unit: op.id,
        requests: CALLS,
        facts: judges(env, op.id, 'headers.remaining-steps', 'headers.reset-unit'),
      },
      async ({ session }) => judgeSteps(session, op, env),
      ['@rate-limit-headers', `@${op.id}`],
    );
  test(
    `should lower X-RateLimit-Remaining by one per call of each operation and keep Limit and Reset (${env})`,
    steps.details(),
    async ({ session }) => {
      await findIdsFirst(session, env, REPEATABLE);
      await steps.run({ session }, session.pace);
    },
  );
}

import type { EnvironmentName, Family, Operation } from '../catalogue';
import type { ApiResponse } from '../clients/http';
import type { CallOptions } from './session/call-options';
import { evidenceOf } from '../clients/http';
import { test, expect, harnessConfig, label, selectedOperations, type Session } from './session/test';
import { credentialsScope, firstScope, selectedScope } from './plan/scope';
import { CheckGroup } from './outcomes/check-groups';
import { recordFinding } from './record/finding-recorder';
import { judges } from './record/fact-declarations';

const cfg = harnessConfig();

/** Calls that do not depend on each other: together when the run sends several at once (call-pace.ts), else in turn. */
async function independentCalls(session: Session, op: Operation, env: EnvironmentName, calls: CallOptions[]): Promise<ApiResponse[]> {
  if (session.pace.concurrency() > 1) return Promise.all(calls.map((o) => session.call(op, env, o)));
  const answers: ApiResponse[] = [];
  for (const o of calls) answers.push(await session.call(op, env, o));
  return answers;
}
const ops = selectedOperations(cfg);

for (const env of cfg.environments) {
  // One test per environment, one check per operation and family (see outcomes/check-groups.ts).
  const refusals = new CheckGroup<{ session: Session }>();
  for (const op of ops) {
    refusals.check(
      `should refuse ${op.id} without a token and with a garbage token (${env})`,
      { unit: op.id, requests: 2, facts: judges(env, op.id, 'auth.token-required') },
      async ({ session }) => {
        label(test.info(), op, env, 'auth');
        const [none, garbage] = (await independentCalls(session, op, env, [
          { token: null },
          { token: 'garbage-token-for-certification' },
        ])) as [ApiResponse, ApiResponse];
        expect(
          none,
          `Broken fact: every call carries a valid access token\nExpected: 401 or 403 without Authorization\nReceived: ${evidenceOf(none)}`,
        ).toHaveStatusIn(401, 403);
        expect(
          garbage,
          `Broken fact: every call carries a valid access token\nExpected: 401 or 403 for a garbage token\nReceived: ${evidenceOf(garbage)}`,
        ).toHaveStatusIn(401, 403);
        expect(none).toHaveRateLimitHeaders({ windowMs: session.target.windowMs });
        if (op === ops.find((o) => o.family === op.family)) {
          recordFinding(
            'auth.missing-token-status',
            String(none.status === 401 || none.status === 403 ? none.status : 'other'),
            evidenceOf(none),
            { family: op.family, environment: env, policyFile: cfg.policyFile },
          );
        }
      },
      ['@auth', `@${op.id}`],
    );
  }
  for (const family of cfg.families) {
    const other: Family = family === 'reseller' ? 'vendor' : 'reseller';
    const op = ops.find((o) => o.family === family && o.method === 'GET');
    const outOfScope = firstScope(
      credentialsScope(cfg, other, `a ${other} token on a ${family} call`),
      selectedScope(op ? [] : [`a GET operation of the ${family} family`]),
    );
    // A token of the other family (unless this worker has one) and the call.
    const plan = { unit: `auth.${family}`, requests: 2, outOfScope };
    refusals.check(
      `should record whether a ${other} token is refused on a ${family} call (${env})`,
      plan,
      async ({ session }) => {
        label(test.info(), `auth.${family}`, env, 'other-family');
        if (!op) throw new Error(`no ${family} GET operation`);
        const token = await session.token(other, env);
        const res = await session.call(op, env, { token });
        const accepted = res.status >= 200 && res.status < 300;
        recordFinding('auth.other-family-token', accepted ? 'accepted' : 'rejected', `${other} token on ${op.id} → ${evidenceOf(res)}`, {
          family,
          environment: env,
          operationId: op.id,
          policyFile: cfg.policyFile,
        });
      },
      ['@auth'],
    );
  }

  test(
    `should refuse every operation without a valid token and record other-family tokens (${env})`,
    refusals.details({ tag: '@auth' }),
    async ({ session }) => refusals.run({ session }, session.pace),
  );
}

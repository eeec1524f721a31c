/**
 * Input handling, judged with the values a property-based API tester draws ("positive data acceptance", "negative
 * data rejection"): per operation the published document gives constraints, a few values of its query parameters
 * and body fields that both published forms allow, and a few that both refuse, drawn with the run's seed
 * (contracts/judge/input-cases.ts; each value in the evidence).
 *
 * - A value both forms allow refused with 400 (or 422) fails: the target refuses what the document allows.
 * - A value both forms refuse served is the finding input.lenient (the document does not say the service refuses
 *   it); a policy makes it a failure. Refused, it carries the error body.
 * - A token answer, an unknown id (404) or the rate limit says nothing of the value: noted, not judged. A 5xx fails,
 *   as it does anywhere (the session classifies it).
 */
import type { EnvironmentName, Family } from '../catalogue';
import { evidenceOf, type ApiResponse } from '../clients/http';
import { DEFAULT_SEED } from '../fixtures/build-world';
import { test, expect, harnessConfig, label, selectedOperations, type Session } from './session/test';
import { callChangeOf, describeCase, inputCasesOf, readingOf, type InputCase } from './judge/input-cases';
import { CheckGroup } from './outcomes/check-groups';
import { firstScope, webhookSecretScope, writesScope } from './plan/scope';
import { recordFinding } from './record/finding-recorder';

const cfg = harnessConfig();
const seed = cfg.mock.seed || DEFAULT_SEED;
const tried = selectedOperations(cfg)
  .map((op) => ({ op, cases: inputCasesOf(op, seed) }))
  .filter(({ cases }) => cases.allowed.length + cases.refused.length > 0);

/** A line of evidence: the value, what the target answered, and the request's correlation id (to find it in a log). */
const lineOf = (c: InputCase, res: ApiResponse) =>
  `${c.kind} ${describeCase(c)} → ${res.status} (${readingOf(res.status)}), IM-CorrelationID ${res.correlationId}`;

for (const env of cfg.environments) {
  // One test per environment, one check per operation (see outcomes/check-groups.ts).
  const inputs = new CheckGroup<{ session: Session }>();
  for (const { op, cases } of tried) {
    const all = [...cases.allowed, ...cases.refused];
    const plan = {
      unit: op.id,
      requests: all.length,
      outOfScope: firstScope(
        op.readOnly ? undefined : writesScope(cfg, `${op.id} with values of its input`),
        op.webhook ? webhookSecretScope(cfg) : undefined,
      ),
    };
    inputs.check(
      `should take in ${op.id} the values the document allows and record those it refuses (${env})`,
      plan,
      async ({ session }) => {
        label(test.info(), op, env, 'input');
        const answers: { c: InputCase; res: ApiResponse }[] = [];
        for (const c of all) {
          const change = callChangeOf(c, op.id);
          // A value both forms refuse is sent on purpose: past the OPENAPI check at its location only (the rest of the request stays held to it).
          const broken = c.kind === 'refused' ? { deliberatelyInvalid: { at: c.location } } : {};
          answers.push({ c, res: await session.call(op, env, { ...change, ...broken }) });
        }
        test.info().annotations.push({
          type: 'input-values',
          description: `${op.id} (seed ${seed}): ${answers.map((a) => lineOf(a.c, a.res)).join('; ')}`,
        });
        recordLeniency(
          op.id,
          op.family,
          env,
          answers.filter((a) => a.c.kind === 'refused'),
        );
        const refusedAllowed = answers.filter((a) => a.c.kind === 'allowed' && readingOf(a.res.status) === 'refused');
        expect(
          refusedAllowed.map((a) => `${describeCase(a.c)} → ${evidenceOf(a.res)}`),
          `Broken fact: ${op.id} takes the values both published forms allow\nExpected: each served (2xx)`,
        ).toEqual([]);
        for (const a of answers.filter((x) => x.c.kind === 'refused' && readingOf(x.res.status) === 'refused'))
          expect(a.res).toBeErrorBody();
      },
      ['@operations', '@input', `@${op.id}`],
    );
  }

  test(
    `should take the input the published document allows and record what it refuses, operation by operation (${env})`,
    inputs.details(),
    async ({ session }) => inputs.run({ session }, session.pace),
  );
}

/** input.lenient: served when the target served a value both forms refuse; refused when it refused each it judged. */
function recordLeniency(
  operationId: string,
  family: Family,
  env: EnvironmentName,
  refused: readonly { c: InputCase; res: ApiResponse }[],
): void {
  const judged = refused.filter((a) => ['served', 'refused'].includes(readingOf(a.res.status)));
  if (!judged.length) return;
  const served = judged.filter((a) => readingOf(a.res.status) === 'served');
  recordFinding(
    'input.lenient',
    served.length ? 'served' : 'refused',
    refused.map((a) => `${lineOf(a.c, a.res)}: ${evidenceOf(a.res)}`).join('\n'),
    {
      environment: env,
      operationId,
      family,
      policyFile: cfg.policyFile,
    },
  );
}

import { vendorSandboxBaseStatements, type Operation } from '../catalogue';
import { evidenceOf } from '../clients/http';
import { test, expect, harnessConfig, label, planned, selectedOperations } from './session/test';
import { credentialsScope, environmentScope, familyScope, firstScope, selectedScope } from './plan/scope';
import { recordFinding } from './record/finding-recorder';

const cfg = harnessConfig();
const ops = selectedOperations(cfg);
const v61 = ops.filter((o) => o.version === 'v6.1');
// An operation without path parameters: the answer depends on the route only, not on the target's data.
const routeOnly =
  ops.find((o) => o.family === 'reseller' && o.method === 'GET' && o.pathParams.length === 0) ??
  ops.find((o) => o.method === 'GET' && o.pathParams.length === 0);
const vendorGet: Operation | undefined = ops.find((o) => o.family === 'vendor' && o.method === 'GET' && o.pathParams.length === 0);
const needs = (what: string, op: unknown) => selectedScope(op ? [] : [what]);

test.describe('versions and environments', { tag: ['@versions'] }, () => {
  for (const env of cfg.environments) {
    const plan = planned({ unit: v61[0]?.id ?? 'versions.v6.1', requests: v61.length, outOfScope: needs('a v6.1 operation', v61[0]) });
    test(`should serve the v6.1 details operations (${env})`, plan, async ({ session }) => {
      label(test.info(), 'versions.v6.1', env, 'v6.1');
      for (const op of v61) {
        const res = await session.call(op, env);
        // The id comes from the target (clients/ids.ts): a 404 here is the target's, not a fixture's.
        expect(res.status, `Broken fact: ${op.id} is served at ${op.path} (version 6.1)\nExpected: 200\nReceived: ${evidenceOf(res)}`).toBe(
          200,
        );
      }
    });
  }

  const sameVersions = planned({
    unit: routeOnly?.id ?? 'versions.sandbox',
    requests: 1,
    outOfScope: firstScope(
      environmentScope(cfg, 'sandbox', 'the sandbox is compared'),
      needs('a GET operation without path parameters', routeOnly),
    ),
  });
  test('should use the same version segments in the sandbox as in production', sameVersions, async ({ session }) => {
    label(test.info(), 'versions.sandbox', 'sandbox', 'same-versions');
    const op = routeOnly;
    if (!op) throw new Error('no GET operation without path parameters');
    const res = await session.call(op, 'sandbox');
    expect(
      res.status,
      `Broken fact: the sandbox adds the prefix /sandbox to the same version segments\nExpected: 2xx at /sandbox${op.path}\nReceived: ${evidenceOf(res)}`,
    ).toBeLessThan(300);
  });

  const why = 'the vendor sandbox base is probed';
  const vendorBase = planned({
    unit: vendorGet?.id ?? 'vendor.sandbox-base',
    // The operation at each of the two bases.
    requests: 2,
    outOfScope: firstScope(
      environmentScope(cfg, 'sandbox', why),
      familyScope(cfg, 'vendor', why),
      credentialsScope(cfg, 'vendor', why),
      needs('a vendor GET operation without path parameters (VENDOR_OPERATIONS)', vendorGet),
    ),
  });
  test('should record which vendor sandbox base the target serves', vendorBase, async ({ session }) => {
    label(test.info(), 'vendor.sandbox-base', 'sandbox', 'finding');
    const op = vendorGet;
    if (!op) throw new Error('no vendor GET operation without path parameters');
    const prefix = await session.sendAuthed('vendor', 'sandbox', {
      method: 'GET',
      path: `${vendorSandboxBaseStatements.prefixRule.base}${op.path}`,
    });
    const literal = await session.sendAuthed('vendor', 'sandbox', {
      method: 'GET',
      path: `${vendorSandboxBaseStatements.tableLiteral.base}${op.path}`,
    });
    const ok = (s: number) => s >= 200 && s < 300;
    const observed =
      ok(prefix.status) && ok(literal.status)
        ? 'both'
        : ok(prefix.status)
          ? 'prefix-rule'
          : ok(literal.status)
            ? 'table-literal'
            : 'neither';
    recordFinding(
      'environments.vendor-sandbox-base',
      observed,
      `prefix rule: ${evidenceOf(prefix)} | table literal: ${evidenceOf(literal)}`,
      { family: 'vendor', environment: 'sandbox', policyFile: cfg.policyFile },
    );
  });
});

import { vendorSandboxBaseStatements, type Operation } from '../catalogue';
import { evidenceOf } from '../clients/http';
import { test, expect, harnessConfig, label, notRun, selectedOperations } from './support/test';
import { recordFinding } from './support/finding-recorder';

const cfg = harnessConfig();
const ops = selectedOperations(cfg);

test.describe('versions and environments', { tag: ['@versions'] }, () => {
  for (const env of cfg.environments) {
    test(`should serve the v6.1 details operations (${env})`, async ({ session }) => {
      const v61 = ops.filter((o) => o.version === 'v6.1');
      label(test.info(), 'versions.v6.1', env, 'v6.1');
      if (!v61.length) notRun(test.info(), 'no v6.1 operation is selected (FAMILIES excludes reseller)');
      for (const op of v61) {
        const res = await session.call(op, env);
        // The id comes from the target (clients/ids.ts): a 404 here is the target's, not a fixture's.
        expect(res.status, `Broken fact: ${op.id} is served at ${op.path} (version 6.1)\nExpected: 200\nReceived: ${evidenceOf(res)}`).toBe(
          200,
        );
      }
    });
  }

  test('should use the same version segments in the sandbox as in production', async ({ session }) => {
    label(test.info(), 'versions.sandbox', 'sandbox', 'same-versions');
    if (!cfg.environments.includes('sandbox')) notRun(test.info(), 'ENVIRONMENTS excludes sandbox');
    // An operation without path parameters: the answer depends on the route only, not on the target's data.
    const op =
      ops.find((o) => o.family === 'reseller' && o.method === 'GET' && o.pathParams.length === 0) ??
      ops.find((o) => o.method === 'GET' && o.pathParams.length === 0);
    if (!op) notRun(test.info(), 'no GET operation without path parameters is selected');
    const res = await session.call(op, 'sandbox');
    expect(
      res.status,
      `Broken fact: the sandbox adds the prefix /sandbox to the same version segments\nExpected: 2xx at /sandbox${op.path}\nReceived: ${evidenceOf(res)}`,
    ).toBeLessThan(300);
  });

  test('should record which vendor sandbox base the target serves', async ({ session }) => {
    label(test.info(), 'vendor.sandbox-base', 'sandbox', 'finding');
    if (!cfg.environments.includes('sandbox') || !cfg.families.includes('vendor'))
      notRun(test.info(), 'needs the sandbox environment and the vendor family');
    const op: Operation | undefined = ops.find((o) => o.family === 'vendor' && o.method === 'GET' && o.pathParams.length === 0);
    if (!op) notRun(test.info(), 'no vendor GET operation without path parameters is configured (VENDOR_OPERATIONS)');
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

/**
 * The stages of a k6 command of `npm run load` on their own: the preflight (every input checked before
 * anything starts) and the mapping of how k6 ended to the command's exit code.
 */
import { test, expect } from '@playwright/test';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exitCodeOf, FACT_BROKEN, NO_RESULT, type K6Outcome } from '../../runner/outcome';
import { NOT_JUDGED } from '../../clients/exit-codes';
import { defaultLoadOptions, type LoadOptions } from '../../runner/load-options';
import { preflight } from '../../runner/run';
import { COMMANDS } from '../../runner/steps';

const probe = COMMANDS['probe-limits'];
const smoke = COMMANDS.smoke;
if (probe?.kind !== 'k6' || smoke?.kind !== 'k6') throw new Error('probe-limits and smoke are k6 commands');

const options = (o: Partial<LoadOptions> = {}): LoadOptions => ({ ...defaultLoadOptions(), ...o });

/** An executable stand-in for k6 (preflight only checks that it is one). */
function fakeK6(): NodeJS.ProcessEnv {
  const dir = test.info().outputPath();
  mkdirSync(dir, { recursive: true });
  const bin = join(dir, 'k6');
  writeFileSync(bin, '#!/bin/sh\nexit 0\n');
  chmodSync(bin, 0o755);
  return { K6_BIN: bin, PATH: '' };
}

test.describe('npm run load preflight', () => {
  test('should plan the embedded mock with the bundle to run', async () => {
    const env = fakeK6();
    const p = await preflight('smoke', smoke, options({ bundleDir: '/tmp/bundles' }), env);
    expect(p).toEqual({
      isMock: true,
      k6: env.K6_BIN,
      remoteBaseUrl: undefined,
      bundleDir: '/tmp/bundles',
      bundle: '/tmp/bundles/smoke.js',
    });
  });

  test('should refuse, with exit 2 or 3 and what to do, what must be confirmed or given first', async () => {
    const env = fakeK6();
    const remote = { target: 'http://127.0.0.1:9' };
    expect(await preflight('probe-limits', probe, options(remote), env)).toEqual({
      exitCode: 2,
      message: 'probe-limits spends the app quota of every probed operation for a window; pass --allow-quota-spend to confirm',
    });
    expect(await preflight('smoke', smoke, options(remote), env)).toEqual({
      exitCode: 2,
      message: 'a production target needs --allow-production',
    });
    expect(await preflight('smoke', smoke, options({ target: 'sandbox', environment: 'sandbox' }), env)).toMatchObject({
      exitCode: 2,
      message: '--target sandbox needs BASE_URL (the base URL of the deployment)',
    });
    expect(await preflight('smoke', smoke, options(), { K6_BIN: '/nonexistent/k6', PATH: '' })).toMatchObject({
      exitCode: 3,
      message: expect.stringContaining('K6_BIN is "/nonexistent/k6", which is not an executable file.'),
    });
    expect(await preflight('smoke', smoke, options({ skipBuild: true, bundleDir: '/nonexistent' }), env)).toMatchObject({
      exitCode: 2,
      message: expect.stringContaining('--skip-build, but /nonexistent/smoke.js does not exist'),
    });
    expect(
      await preflight('smoke', smoke, options({ openapi: '/nonexistent.yaml' }), { ...env, OPENAPI: '/nonexistent.yaml' }),
    ).toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/^OPENAPI=\/nonexistent\.yaml cannot be read \(ENOENT\)/),
    });
    expect(await preflight('smoke', smoke, options({ openapi: '/nonexistent.yaml' }), env)).toMatchObject({
      message: expect.stringMatching(/^--openapi=\/nonexistent\.yaml cannot be read/),
    });
  });

  test('should pass a remote target that is confirmed, with its base URL', async () => {
    const env = fakeK6();
    const sandbox = options({ target: 'sandbox', environment: 'sandbox', allowQuotaSpend: true });
    const deployment = { ...sandbox.deployment, baseUrl: 'http://127.0.0.1:9' };
    const p = await preflight('probe-limits', probe, { ...sandbox, deployment }, env);
    expect(p).toMatchObject({ isMock: false, remoteBaseUrl: 'http://127.0.0.1:9' });
  });
});

test.describe('npm run load exit codes', () => {
  const outcome = (o: Partial<K6Outcome>): K6Outcome => ({
    exitCode: 0,
    wrote: true,
    broken: [],
    notJudged: [],
    notRun: [],
    summaryExport: 's.json',
    ...o,
  });
  const mapped = (o: Partial<K6Outcome>) => {
    const said: string[] = [];
    return { code: exitCodeOf('probe-limits', outcome(o), (l) => said.push(l)), said };
  };

  test("should keep k6's own exit code and say why it was not 0", () => {
    expect(mapped({})).toEqual({ code: 0, said: [] });
    expect(mapped({ exitCode: 99 })).toEqual({
      code: 99,
      said: ['load: probe-limits: k6 exit 99, thresholds crossed (see the table above and s.json)'],
    });
    expect(mapped({ exitCode: 105, wrote: false })).toEqual({ code: 105, said: ['load: probe-limits: k6 exited with 105'] });
  });

  test('should end with NO_RESULT when k6 ended with 0 without the result file', () => {
    expect(mapped({ wrote: false })).toEqual({ code: NO_RESULT, said: [] });
  });

  test('should end with NOT_JUDGED when operations were left out, unless k6 failed itself', () => {
    const noId = { reason: 'no order on the target' };
    const left = mapped({
      notRun: [
        { id: 'orders.details', ...noId },
        { id: 'quotes.details', ...noId },
      ],
    });
    expect(left.code).toBe(NOT_JUDGED);
    expect(left.said).toEqual([
      "load: probe-limits: 2 selected operation(s) not run, no id of the target's data for them: orders.details, quotes.details (reasons above and in the result's notRun); exit 99",
    ]);
    const budget = mapped({ notRun: [{ id: 'orders.details', reason: 'budget: its probe needs 52 requests' }] });
    expect(budget.code).toBe(NOT_JUDGED);
    expect(budget.said[0]).toMatch(/not run, beyond the budget: orders\.details/);
    const failed = mapped({ exitCode: 107, notRun: [{ id: 'orders.details', ...noId }] });
    expect(failed.code).toBe(107);
    expect(failed.said[1]).toMatch(/not run.*exit 107$/);
  });

  test('should end with FACT_BROKEN when the probe found a documented fact broken, whatever was not judged', () => {
    const broken = ['freight.estimate: refused before its advertised limit: advertised 500, observed 100; evidence: …'];
    expect(mapped({ broken })).toEqual({
      code: FACT_BROKEN,
      said: ["load: probe-limits: 1 documented fact(s) broken (lines above and in the manifest's limitVerdict); exit 1"],
    });
    expect(mapped({ broken, exitCode: 99 }).code).toBe(FACT_BROKEN);
    expect(mapped({ broken, notRun: [{ id: 'orders.details', reason: 'no order on the target' }] }).code).toBe(FACT_BROKEN);
    expect(mapped({ broken, exitCode: 107 }).code).toBe(107);
  });

  test('should end with NOT_JUDGED when the probe could not judge a fact, unless k6 failed itself', () => {
    const notJudged = ['orders.create: advertised limit not judged: a bucket could have refilled 1'];
    expect(mapped({ notJudged })).toEqual({
      code: NOT_JUDGED,
      said: [`load: probe-limits: 1 fact(s) not judged: ${notJudged[0]}; exit 99`],
    });
    expect(mapped({ notJudged, exitCode: 107 }).code).toBe(107);
  });
});

/**
 * Robustness: every faulty target yields a classified failure with a clear message within the
 * configured timeout; a certification run against one ends (no hang, no crash) and still reports.
 */
import { test, expect, request } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFaultyTarget, type FaultKind } from './support/faulty-targets';
import { cliArgs } from '../cli-bundles';
import { ApiClient, RequestBudget, TargetFailure, assertUsable, type FailureKind } from '../../clients/http';

const TIMEOUT_MS = 1500;
const EXPECTED: Record<FaultKind, { kind: FailureKind; message: RegExp }> = {
  'never-answers': { kind: 'timeout', message: /no complete answer within 1500 ms \(REQUEST_TIMEOUT_MS\)/ },
  'resets-connections': { kind: 'network', message: /failed before a response: (ECONNRESET|socket hang up)/ },
  'server-errors': { kind: 'server-error', message: /answered 50[023]/ },
  'malformed-json': { kind: 'malformed-body', message: /body that is not JSON/ },
  'html-error': { kind: 'malformed-body', message: /answered an HTML page/ },
  'huge-body': { kind: 'oversized', message: /the limit is 1048576 \(MAX_BODY_BYTES\)/ },
  'slow-drip': { kind: 'timeout', message: /no complete answer within 1500 ms/ },
};

test.describe('faulty targets', () => {
  for (const [fault, want] of Object.entries(EXPECTED) as [FaultKind, (typeof EXPECTED)[FaultKind]][]) {
    test(`should classify a target that ${fault.replace('-', ' ')} as ${want.kind} within the timeout`, async () => {
      const target = await startFaultyTarget(fault);
      const ctx = await request.newContext();
      try {
        const api = new ApiClient(ctx, {
          baseUrl: target.url,
          budget: new RequestBudget(10),
          timeoutMs: TIMEOUT_MS,
          maxBodyBytes: 1024 * 1024,
          extraHeaders: {},
        });
        const started = Date.now();
        let failure: unknown;
        try {
          const res = await api.send({
            method: 'POST',
            path: '/oauth/oauth20/token',
            form: { grant_type: 'client_credentials', client_id: 'a', client_secret: 'b' },
          });
          assertUsable(res);
        } catch (e) {
          failure = e;
        }
        const elapsed = Date.now() - started;
        expect(failure, `${fault} must fail`).toBeInstanceOf(TargetFailure);
        expect((failure as TargetFailure).kind).toBe(want.kind);
        expect((failure as TargetFailure).message).toMatch(want.message);
        expect(elapsed, 'the failure comes within the timeout (plus slack)').toBeLessThan(TIMEOUT_MS + 3000);
      } finally {
        await ctx.dispose();
        await target.close();
      }
    });
  }

  test('should end a certification run against a dead target with failures and a summary, not a hang', async () => {
    test.setTimeout(120_000);
    const target = await startFaultyTarget('never-answers');
    const out = mkdtempSync(test.info().outputPath('certify-faulty-'));
    try {
      const started = Date.now();
      // The token checks of one family and environment, one Playwright test: one worker, no restart.
      const r = spawnSync(process.execPath, [...cliArgs('certify'), '-g', 'token requests as documented'], {
        env: {
          ...process.env,
          REPORTS_DIR: out,
          CI: '',
          TARGET: target.url,
          FAMILIES: 'reseller',
          ENVIRONMENTS: 'production',
          RESELLER_CLIENT_ID: 'x',
          RESELLER_CLIENT_SECRET: 'canary-faulty-secret',
          REQUEST_TIMEOUT_MS: '300',
        },
        encoding: 'utf8',
        timeout: 110_000,
      });
      expect(r.status, 'contract failures give exit 1').toBe(1);
      expect(Date.now() - started).toBeLessThan(100_000);
      const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
        totals: { failed: number };
        tests: { error?: string }[];
      };
      expect(summary.totals.failed).toBeGreaterThan(5);
      expect(summary.tests.every((t) => !t.error || /\[timeout\]/.test(t.error))).toBe(true);
      expect(r.stdout + r.stderr).not.toContain('canary-faulty-secret');
    } finally {
      await target.close();
    }
  });
});

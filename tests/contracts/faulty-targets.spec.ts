/**
 * Robustness: every faulty target yields a classified failure with a clear message within the
 * configured timeout; a certification run against one ends (no hang, no crash) and still reports.
 */
import { test, expect, request } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFaultyTarget, startSilentTarget, type FaultKind } from './support/faulty-targets';
import { MOCK_APPS_ENV } from './support/run-certify';
import type { RunSummary } from '../../reporting/report-shapes';
import { run } from '../load/run';
import { cliArgs } from '../cli-bundles';
import { NodeFetcher } from '../../clients/fetcher';
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
  // The certification's transport (node:http) and Playwright's request context (the load command's id search).
  for (const [fault, want] of Object.entries(EXPECTED) as [FaultKind, (typeof EXPECTED)[FaultKind]][])
    for (const transport of ['node:http', 'Playwright'] as const)
      test(`should classify a target that ${fault.replace('-', ' ')} as ${want.kind} within the timeout (${transport})`, async () => {
        const target = await startFaultyTarget(fault);
        const node = new NodeFetcher();
        const playwright = transport === 'Playwright' ? await request.newContext() : undefined;
        const ctx = playwright ?? node;
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
          await playwright?.dispose();
          node.close();
          await target.close();
        }
      });

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
        totals: { failed: number; blocked: number };
        tests: { error?: string }[];
      };
      // The first request waited for fails its check; the target is then silent, and the others are blocked.
      expect(summary.totals.failed).toBe(1);
      expect(summary.totals.blocked).toBeGreaterThan(0);
      expect(summary.tests.every((t) => !t.error || /\[timeout\]/.test(t.error))).toBe(true);
      expect(r.stdout + r.stderr).not.toContain('canary-faulty-secret');
    } finally {
      await target.close();
    }
  });

  test('should judge a silent target (connections accepted, never answered) after one request timeout, the other checks blocked', async () => {
    test.setTimeout(120_000);
    const target = await startSilentTarget();
    try {
      const r = await certifyUrl(target.url);
      expect(r.code, 'a contract check failed on the timeout: exit 1').toBe(1);
      test.info().annotations.push({ type: 'figures', description: `silent target judged in ${r.seconds} s` });
      // Before, each check waited out its own request timeouts, and each failure restarted a worker.
      expect(r.seconds, 'as fast as a failing target').toBeLessThan(40);
      const { totals, tests, requests } = r.summary;
      // Each worker sends its first request before any of them has heard nothing back: one timeout per worker, at once.
      const workers = requests?.pace?.workers ?? 1;
      expect(totals.failed).toBeGreaterThanOrEqual(1);
      expect(totals.failed).toBeLessThanOrEqual(workers);
      expect(tests.find((t) => t.status === 'failed')?.error).toMatch(
        /\[timeout\] .* got no complete answer within 1000 ms \(REQUEST_TIMEOUT_MS\)/,
      );
      expect(totals.blocked).toBeGreaterThan(40);
      expect(r.stdout).toMatch(/got no complete answer within 1000 ms/);
      // The reason of each blocked check, in the run's reports.
      expect(readFileSync(join(r.out, 'junit.xml'), 'utf8')).toMatch(
        /blocked: the target has not answered any request within REQUEST_TIMEOUT_MS: \[timeout\] /,
      );
      expect(requests?.sent, 'one request waited for per worker, none sent after it').toBeLessThanOrEqual(workers);
      expect(target.connections()).toBe(requests?.sent);
    } finally {
      await target.close();
    }
  });
});

/**
 * certify of one family and environment against a URL target with a 1 s request timeout, at normal priority
 * (the figures are about the run), on two workers: each sends its first request before either hears back.
 */
async function certifyUrl(
  url: string,
): Promise<{ code: number | null; seconds: number; stdout: string; out: string; summary: RunSummary }> {
  const out = test.info().outputPath('reports');
  const started = Date.now();
  const env = { ...MOCK_APPS_ENV, TARGET: url, FAMILIES: 'reseller', ENVIRONMENTS: 'production', REQUEST_TIMEOUT_MS: '1000' };
  // Asynchronous: the target is served by this process.
  const r = await run(process.execPath, [...cliArgs('certify'), '--workers', '2'], { ...env, REPORTS_DIR: out, CI: '' }, 100_000);
  const seconds = (Date.now() - started) / 1000;
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as RunSummary;
  return { code: r.code, seconds, stdout: r.stdout + r.stderr, out, summary };
}

/**
 * The rate-limit checks behind gateways that differ from the mock: no rate-limit headers at all, and
 * a 429 with a plain-text body; and a configured id the target does not know. Certify runs against a
 * loopback proxy in front of the mock (a URL target, so nothing of the mock's control API is used).
 */
import { test, expect } from '@playwright/test';
import { startMock, type RunningMock } from '../../mock';
import { startProxy, type CountingTarget } from './support/targets';
import type { Finding, RunSummary } from '../../reporting/report-shapes';
import { MOCK_APPS_ENV, ONE_WORKER, certify } from './support/run-certify';
import { validCallsOf } from './support/greps';

const URL_TARGET = { ...MOCK_APPS_ENV, PROBE_LIMITS: '1', FAMILIES: 'reseller', ENVIRONMENTS: 'production' };

/** Runs `run` against a proxy of that kind in front of a fresh mock. */
async function behind<T>(mode: 'strip-rate-limit-headers' | 'plain-text-429', run: (t: CountingTarget) => Promise<T>): Promise<T> {
  const mock: RunningMock = await startMock({ windowMs: 60_000 });
  const proxy = await startProxy(mode, mock.url);
  try {
    return await run(proxy);
  } finally {
    await proxy.close();
    await mock.close();
  }
}

/**
 * A check that reads the rate-limit headers of 2xx answers and one that reads those of 4xx answers. Each
 * failing check costs the child run a worker restart, so two: the detection matrix fails every other
 * rate-limit check against a mock that drops one header at a time.
 */
const HEADER_CHECKS = [/decrease X-RateLimit-Remaining/, /rate-limit headers on 4xx/];

test('should fail the rate-limit header checks of 2xx and 4xx answers with "absent" against a target that sends no rate-limit headers, and leave the reset-unit finding unread', async () => {
  test.setTimeout(180_000);
  await behind('strip-rate-limit-headers', async (proxy) => {
    // Without a Reset header a 429 outside the limit checks would wait a whole window: block it instead.
    const grep = [...HEADER_CHECKS, /epoch time or a count of seconds/].map((r) => r.source).join('|');
    const r = await certify({ ...URL_TARGET, TARGET: proxy.url, MAX_429_WAIT_MS: '1000' }, [...ONE_WORKER, '-g', grep]);
    const tests = r.summary().tests;
    const failed = tests.filter((t) => t.status === 'failed');
    // In any order: the per-environment header checks run after the exhaustion checks.
    expect(
      failed.map((t) => t.title),
      r.stdout.slice(-2000),
    ).toEqual(expect.arrayContaining(HEADER_CHECKS.map((re) => expect.stringMatching(re))));
    expect(failed).toHaveLength(HEADER_CHECKS.length);
    for (const t of failed) expect(t.error, t.title).toMatch(/X-RateLimit-\w+ absent|x-ratelimit-\w+ is absent/);
    const finding = tests.find((t) => /epoch time or a count of seconds/.test(t.title));
    expect(finding?.status, 'the reset-unit finding has nothing to read: not run, never passed').toBe('skipped');
    expect(tests).toHaveLength(HEADER_CHECKS.length + 1);
  });
});

/*
 * One certify run serves two scenarios of a URL target: a gateway that answers 429 in plain text, and a
 * configured id (KNOWN_IDS) that the target does not know. Each certify run costs a Playwright runner and
 * its worker; the checks they select do not meet (rate limits; orders.details).
 */
test.describe('behind a gateway whose 429 body is plain text, with an unknown configured id', () => {
  // In order on one worker: a failure restarts the worker, whose hook runs certify again for the other test.
  test.describe.configure({ mode: 'default', timeout: 180_000 });
  // Read in the hook: the run's folder lies under the first test's output, removed once that test passes.
  let run: { stdout: string; summary: RunSummary; findings: Finding[] };
  test.beforeAll(async () => {
    // The hook runs a whole certify selection (every operation's 429 checks): it gets the tests' time.
    test.setTimeout(180_000);
    await behind('plain-text-429', async (proxy) => {
      const r = await certify({ ...URL_TARGET, TARGET: proxy.url, KNOWN_IDS: '{"orderNumber":"20-00000"}' }, [
        ...ONE_WORKER,
        '-g',
        `advertised number|spec's error body|epoch time|${validCallsOf(['orders.details'])}`,
      ]);
      run = { stdout: r.stdout, summary: r.summary(), findings: r.findings() };
    });
  });
  const byTitle = (re: RegExp) => run.summary.tests.find((t) => re.test(t.title));

  test('should fail only the 429-body check against a target whose 429 body is plain text, and still count and record the reset unit', () => {
    expect(byTitle(/spec's error body/)?.status, run.stdout.slice(-2000)).toBe('failed');
    expect(byTitle(/spec's error body/)?.error).toMatch(/the body is not JSON/);
    expect(byTitle(/allow exactly the advertised number/)?.status).toBe('passed');
    // Every operation's 429-body check fails, and nothing else.
    const failed = run.summary.tests.filter((t) => t.status === 'failed');
    expect(failed.length).toBeGreaterThanOrEqual(1);
    for (const t of failed) expect(t.error, t.title).toMatch(/the 429 body is JSON[\s\S]*the body is not JSON/);
    expect(run.findings.find((f) => f.id.startsWith('ratelimit.reset-unit'))?.observed).toBe('epoch');
  });

  test('should record an unknown configured id as a configuration finding, not a failure', () => {
    expect(byTitle(/valid orders\.details call/)?.status, 'not run: the configured id is unknown').toBe('skipped');
    const f = run.findings.find((x) => x.id.startsWith('errors.fixture-unknown'));
    expect(f?.observed).toBe('not-found');
    expect(f?.evidence).toMatch(/orderNumber 20-00000 \(configured in KNOWN_IDS, production\)/);
  });
});

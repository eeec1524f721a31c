/**
 * The rate-limit checks behind gateways that differ from the mock: no rate-limit headers at all, and
 * a 429 with a plain-text body. Certify runs against a loopback proxy in front of the mock (a URL
 * target, so nothing of the mock's control API is used).
 */
import { test, expect } from '@playwright/test';
import { startMock, type RunningMock } from '../../mock';
import { startProxy, type CountingTarget } from './support/targets';
import { MOCK_APPS_ENV, certify } from './support/run-certify';

const URL_TARGET = { ...MOCK_APPS_ENV, PROBE_LIMITS: '1', FAMILIES: 'reseller', ENVIRONMENTS: 'production' };

let mock: RunningMock;
test.beforeEach(async () => {
  mock = await startMock({ windowMs: 60_000 });
});
test.afterEach(async () => {
  await mock.close();
});

async function behind<T>(mode: 'strip-rate-limit-headers' | 'plain-text-429', run: (t: CountingTarget) => Promise<T>): Promise<T> {
  const proxy = await startProxy(mode, mock.url);
  try {
    return await run(proxy);
  } finally {
    await proxy.close();
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
    const r = await certify({ ...URL_TARGET, TARGET: proxy.url, MAX_429_WAIT_MS: '1000' }, ['-g', grep]);
    const tests = r.summary().tests;
    const failed = tests.filter((t) => t.status === 'failed');
    expect(
      failed.map((t) => t.title),
      r.stdout.slice(-2000),
    ).toEqual(HEADER_CHECKS.map((re) => expect.stringMatching(re)));
    for (const t of failed) expect(t.error, t.title).toMatch(/X-RateLimit-\w+ absent|x-ratelimit-\w+ is absent/);
    const finding = tests.find((t) => /epoch time or a count of seconds/.test(t.title));
    expect(finding?.status, 'the reset-unit finding has nothing to read: not run, never passed').toBe('skipped');
    expect(tests).toHaveLength(HEADER_CHECKS.length + 1);
  });
});

test('should fail only the 429-body check against a target whose 429 body is plain text, and still count and record the reset unit', async () => {
  test.setTimeout(180_000);
  await behind('plain-text-429', async (proxy) => {
    const r = await certify({ ...URL_TARGET, TARGET: proxy.url }, ['-g', "advertised number|spec's error body|epoch time"]);
    const byTitle = (re: RegExp) => r.summary().tests.find((t) => re.test(t.title));
    expect(byTitle(/spec's error body/)?.status, r.stdout.slice(-2000)).toBe('failed');
    expect(byTitle(/spec's error body/)?.error).toMatch(/the body is not JSON/);
    expect(byTitle(/allow exactly the advertised number/)?.status).toBe('passed');
    expect(r.findings().find((f) => f.id.startsWith('ratelimit.reset-unit'))?.observed).toBe('epoch');
  });
});

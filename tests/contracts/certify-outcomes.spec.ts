/** certify's verdicts end to end beside the smoke (certify.spec.ts): a blocked check exits 99, a request its OPENAPI document refuses is a harness defect. */
import { test, expect } from '@playwright/test';
import { startMock } from '../../mock';
import { MOCK_APPS_ENV, certify } from './support/run-certify';

test.describe('npm run certify outcomes', () => {
  test('should exit 99 when no check failed but one was blocked, naming how many and why', async () => {
    test.setTimeout(120_000);
    // A limit of 0: every deals.search call is refused, its reset up to a minute away, beyond MAX_429_WAIT_MS
    // (or, at the very end of a window, refused again after the wait): blocked, never failed.
    const mock = await startMock({ limits: { 'deals.search': 0 } });
    const r = await certify(
      { ...MOCK_APPS_ENV, TARGET: mock.url, FAMILIES: 'reseller', ENVIRONMENTS: 'production', MAX_429_WAIT_MS: '1000' },
      ['--workers', '1', '-g', 'valid (deals|catalog)\\.search call'],
    ).finally(() => mock.close());
    const { totals } = r.summary();
    expect(totals, r.stdout.slice(-3000)).toMatchObject({ passed: 1, failed: 0, blocked: 1, skipped: 0 });
    expect(r.status, r.stdout.slice(-3000) + r.stderr.slice(-2000)).toBe(99);
    expect(r.stdout).toMatch(
      /Not judged: 1 blocked, 0 not run:\n {2}blocked: the target (answered 429 to GET \S*deals\S* and its reset is \d+ s away|still answered 429 to GET \S*deals)/,
    );
    expect(r.stdout).toContain('with exit code 99: nothing failed, but 1 checks were blocked and 0 not run (see "Not judged" above)');
  });

  test('should report a request its OPENAPI document refuses as a harness defect, and not send it', async () => {
    test.skip(!process.env.VENDOR_OPENAPI, 'VENDOR_OPENAPI is not set (`.ci/run` sets it)');
    // An extra header breaks the document's IM-SenderID maxLength (32) on every request certify builds.
    const r = await certify(
      {
        OPENAPI: process.env.VENDOR_OPENAPI as string,
        FAMILIES: 'reseller',
        ENVIRONMENTS: 'production',
        EXTRA_HEADERS: JSON.stringify({ 'IM-SenderID': 's'.repeat(33) }),
      },
      ['--workers', '1', '-g', 'valid catalog.search call'],
    );
    expect(r.status, r.stdout.slice(-2000)).toBe(1);
    expect(r.stdout).toMatch(
      /Harness defect: the request of catalog\.search \(GET \/resellers\/v6\/catalog\) breaks the OPENAPI document [^\n]*, so it was not sent[\s\S]*header IM-SenderID must NOT have more than 32 characters/,
    );
    expect(r.summary().requests?.sent, 'only the token request went out').toBe(1);
  });
});

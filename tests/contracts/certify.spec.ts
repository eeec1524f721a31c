import { test, expect } from '@playwright/test';
import { startMock } from '../../mock';
import { MOCK_APPS_ENV, certify } from './support/run-certify';
import { certifyWithCanary, expectEveryReport, expectNothingLeaked } from './support/canary-run';

/** The smoke's slice: the token checks, the operations the OPENAPI fixture maps, versions, webhooks, the reset unit. */
const SMOKE = ['@tokens', '@versions', '@webhooks', 'epoch time', 'valid (catalog\\.details|orders\\.search|deals\\.details) call'].join(
  '|',
);

test.describe('npm run certify', () => {
  // One run serves all three facts (each certify run costs a Playwright runner and its worker), over a slice of
  // the suite that meets the secret and the tokens: the token checks of both families, the operations the
  // OPENAPI document maps, versions, webhooks and the reset unit. Every check of the mock: certify-full.spec.ts.
  test('should certify a slice of the embedded mock, exit 0, write every report with the OPENAPI section and leave no client secret or issued token in them', async () => {
    test.setTimeout(240_000);
    const r = await certifyWithCanary(['-g', SMOKE]);
    expect(r.status, r.stdout.slice(-3000) + r.stderr.slice(-2000)).toBe(0);
    const summary = r.summary();
    expect(summary.verdict).toBe('passed');
    expect(summary.target).toBe('embedded mock');
    expect(summary.environments).toEqual(['production', 'sandbox']);
    expect(summary.totals.failed).toBe(0);
    expect(summary.totals.blocked + summary.totals.skipped, 'a clean run judges every check: exit 0, not 99').toBe(0);
    expect(r.stdout).not.toContain('Not judged');
    const findings = r.findings();
    for (const id of ['token.method', 'token.lifetime', 'ratelimit.reset-unit', 'environments.vendor-sandbox-base', 'webhooks.push']) {
      expect(
        findings.some((f) => f.id.startsWith(id)),
        id,
      ).toBe(true);
    }
    for (const f of findings) expect(Object.keys(f)).toEqual(expect.arrayContaining(['id', 'statement', 'observed', 'evidence']));
    expect(expectEveryReport(r).allure).toBeGreaterThan(5);
    // OPENAPI: the bodies of the mapped operations validated against the imported document.
    const openapi = (summary as unknown as { openapi: { mapped: unknown[]; bodiesValidated: number; bodiesFailed: number } }).openapi;
    expect(openapi.mapped).toHaveLength(3);
    expect(openapi.bodiesValidated).toBeGreaterThan(0);
    expect(openapi.bodiesFailed).toBe(0);
    expect(findings.find((f) => f.id === 'openapi.token-response@reseller')?.observed).toBe('differs');
    expect(r.stdout).toMatch(/OpenAPI .*3 operations mapped, \d+ bodies validated, 0 failed/);
    expectNothingLeaked(r);
  });

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

  test('should refuse to start with a clear message when credentials are missing for a remote target', async () => {
    const r = await certify({
      TARGET: 'http://127.0.0.1:9',
      RESELLER_CLIENT_ID: '',
      RESELLER_CLIENT_SECRET: '',
      VENDOR_CLIENT_ID: '',
      VENDOR_CLIENT_SECRET: '',
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /needs RESELLER_CLIENT_ID and RESELLER_CLIENT_SECRET and VENDOR_CLIENT_ID and VENDOR_CLIENT_SECRET \(see \.env\.example\)/,
    );
    const prod = await certify({ TARGET: 'production', BASE_URL: 'http://127.0.0.1:9', ALLOW_PRODUCTION: '' });
    expect(prod.status).toBe(2);
    expect(prod.stderr).toMatch(/ALLOW_PRODUCTION=1/);
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

import { test, expect } from '@playwright/test';
import { certify } from './support/run-certify';
import { certifyWithCanary, expectEveryReport, expectNothingLeaked } from './support/canary-run';
import { validCallsOf } from './support/greps';

/** The smoke's slice: the token checks, the operations the OPENAPI fixture maps, versions, webhooks, the reset unit. */
const SMOKE = ['@tokens', '@versions', '@webhooks', 'epoch time', validCallsOf(['catalog.details', 'orders.search', 'deals.details'])].join(
  '|',
);

test.describe('npm run certify', () => {
  // One run serves all three facts (each certify run costs a Playwright runner and its worker), over a slice of
  // the suite that meets the secret and the tokens: the token checks of both families, the operations the
  // OPENAPI document maps, versions, webhooks and the reset unit. Every check of the mock: certify-full.spec.ts.
  test('should certify a slice of the embedded mock, exit 0, write every report with the OPENAPI section and leave no client secret or issued token in them', async () => {
    test.setTimeout(240_000);
    // A webhook's tag would select its bucket spent to the 429 (a thousand calls): the full run's (certify-full.spec.ts).
    const r = await certifyWithCanary(['-g', SMOKE, '--grep-invert', '@bucket-spend']);
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
});

import { test, expect } from '@playwright/test';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startMock } from '../../mock';
import { MOCK_APPS_ENV, certify } from './support/run-certify';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** A published-document fixture: three of its operations map to the catalogue. */
const OPENAPI_DOC = 'tests/openapi/fixtures/distributor-openapi-3.0.yaml';

test.describe('npm run certify', () => {
  // One run serves all three facts (each certify run costs a Playwright runner and its workers): a full
  // certification of the mock (whose first reseller app carries a canary secret), with an OpenAPI document
  // to validate bodies against, must pass, write every report with the document's section, and leave the
  // secret and the issued tokens out of all of it.
  test('should certify the embedded mock, exit 0, write every report with the OPENAPI section and leave no client secret or issued token in them', async () => {
    test.setTimeout(420_000);
    const canary = 'canary-secret-7f3a9c2e-do-not-print';
    const apps = [
      { clientId: 'canary-reseller', clientSecret: canary, family: 'reseller' },
      { clientId: 'demo-reseller-b', clientSecret: 'demo-reseller-b-secret', family: 'reseller' },
      { clientId: 'demo-vendor', clientSecret: 'demo-vendor-secret', family: 'vendor' },
    ];
    // One worker instead of the embedded mock's two: the run waits in the background, and a worker start
    // (Playwright, the suite and its mock) is about 2 s of CPU that the tests beside it need more.
    const r = await certify(
      {
        MOCK_APPS: JSON.stringify(apps),
        RESELLER_CLIENT_ID: 'canary-reseller',
        RESELLER_CLIENT_SECRET: canary,
        OPENAPI: OPENAPI_DOC,
      },
      ['--workers', '1'],
    );
    expect(r.status, r.stdout.slice(-3000) + r.stderr.slice(-2000)).toBe(0);
    const summary = r.summary();
    expect(summary.verdict).toBe('passed');
    expect(summary.target).toBe('embedded mock');
    expect(summary.environments).toEqual(['production', 'sandbox']);
    expect(summary.totals.failed).toBe(0);
    expect(summary.totals.blocked + summary.totals.skipped, 'a clean run judges every check: exit 0, not 99').toBe(0);
    expect(r.stdout).not.toContain('Not judged');
    // One row per catalogued operation (24 of the spec table + 4 the published document adds + 3 vendor) and environment.
    expect(summary.operations).toHaveLength(62);
    const findings = r.findings();
    for (const id of [
      'token.method',
      'token.lifetime',
      'ratelimit.reset-unit',
      'auth.other-family-token',
      'environments.vendor-sandbox-base',
      'webhooks.push',
    ]) {
      expect(
        findings.some((f) => f.id.startsWith(id)),
        id,
      ).toBe(true);
    }
    for (const f of findings) expect(Object.keys(f)).toEqual(expect.arrayContaining(['id', 'statement', 'observed', 'evidence']));
    const junit = readFileSync(join(r.out, 'junit.xml'), 'utf8');
    const testcases = junit.match(/<testcase /g)?.length ?? 0;
    // Every check (a grouped test holds several) is a JUnit case; every Playwright test has an Allure result.
    expect(testcases, 'JUnit lists every check, grouped ones included').toBe(summary.tests.length);
    const allure = readdirSync(join(r.out, 'allure-results')).filter((f) => f.endsWith('-result.json')).length;
    expect(allure).toBeGreaterThan(40);
    expect(allure, 'a grouped test is one Allure result').toBeLessThan(testcases);
    expect(r.stdout).toMatch(/Certification of embedded mock \(production, sandbox\): PASSED/);
    // OPENAPI: the bodies of the mapped operations validated against the imported document.
    const openapi = (summary as unknown as { openapi: { mapped: unknown[]; bodiesValidated: number; bodiesFailed: number } }).openapi;
    expect(openapi.mapped).toHaveLength(3);
    expect(openapi.bodiesValidated).toBe(6);
    expect(openapi.bodiesFailed).toBe(0);
    expect(findings.find((f) => f.id === 'openapi.token-response@reseller')?.observed).toBe('differs');
    expect(r.stdout).toMatch(/OpenAPI .*3 operations mapped, 6 bodies validated, 0 failed/);
    test.info().annotations.push({ type: 'certify-wall-time', description: `${r.seconds.toFixed(1)} s` });

    const console = r.stdout + r.stderr;
    expect(console).not.toContain(canary);
    const files = filesUnder(r.out);
    expect(files.length).toBeGreaterThan(10);
    const tokenLike: string[] = [];
    for (const f of files) {
      const text = readFileSync(f).toString('latin1');
      expect(text.includes(canary), `${f} contains the canary secret`).toBe(false);
      expect(text.includes(encodeURIComponent(canary)), `${f} contains the encoded canary secret`).toBe(false);
      // Issued tokens are 32 base64url characters; none may appear after "Bearer" or in access_token.
      for (const m of text.matchAll(/(?:Bearer\s+|"access_token"\s*:\s*")([A-Za-z0-9_-]{20,})/g)) tokenLike.push(`${f}: ${m[1]}`);
    }
    expect(tokenLike).toEqual([]);
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

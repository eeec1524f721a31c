/**
 * A certification of the embedded mock whose first reseller app carries a canary secret, with an OpenAPI document
 * to validate bodies against; and the check that neither the secret nor an issued token appears in its console
 * output or in any report file.
 */
import { expect } from '@playwright/test';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_RESELLER_B, DEMO_VENDOR } from '../../../catalogue/apps';
import { certify, type CertifyRun } from './run-certify';

/** A published-document fixture: three of its operations map to the catalogue. */
const OPENAPI_DOC = 'tests/openapi/fixtures/distributor-openapi-3.0.yaml';
const CANARY = 'canary-secret-7f3a9c2e-do-not-print';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** certify of the embedded mock with the canary app and OPENAPI, on one worker, with these Playwright arguments. */
export function certifyWithCanary(args: string[]): Promise<CertifyRun> {
  // The mock's own apps, the first reseller's secret replaced by the canary.
  const apps = [{ clientId: 'canary-reseller', clientSecret: CANARY, family: 'reseller' }, DEMO_RESELLER_B, DEMO_VENDOR];
  // One worker instead of the embedded mock's two: the run waits in the background, and a worker start
  // (Playwright, the suite and its mock) is about 2 s of CPU that the tests beside it need more.
  return certify(
    { MOCK_APPS: JSON.stringify(apps), RESELLER_CLIENT_ID: 'canary-reseller', RESELLER_CLIENT_SECRET: CANARY, OPENAPI: OPENAPI_DOC },
    ['--workers', '1', ...args],
  );
}

/** Neither the canary secret (plain or URL-encoded) nor an issued token in the run's output or any of its files. */
export function expectNothingLeaked(r: CertifyRun): void {
  expect(r.stdout + r.stderr).not.toContain(CANARY);
  const files = filesUnder(r.out);
  expect(files.length).toBeGreaterThan(10);
  const tokenLike: string[] = [];
  for (const f of files) {
    const text = readFileSync(f).toString('latin1');
    expect(text.includes(CANARY), `${f} contains the canary secret`).toBe(false);
    expect(text.includes(encodeURIComponent(CANARY)), `${f} contains the encoded canary secret`).toBe(false);
    // Issued tokens are 32 base64url characters; none may appear after "Bearer" or in access_token.
    for (const m of text.matchAll(/(?:Bearer\s+|"access_token"\s*:\s*")([A-Za-z0-9_-]{20,})/g)) tokenLike.push(`${f}: ${m[1]}`);
  }
  expect(tokenLike).toEqual([]);
}

/** Every check a JUnit case, every Playwright test an Allure result (a grouped test is one); how many of each. */
export function expectEveryReport(r: CertifyRun): { testcases: number; allure: number } {
  const junit = readFileSync(join(r.out, 'junit.xml'), 'utf8');
  const testcases = junit.match(/<testcase /g)?.length ?? 0;
  expect(testcases, 'JUnit lists every check, grouped ones included').toBe(r.summary().tests.length);
  const allure = readdirSync(join(r.out, 'allure-results')).filter((f) => f.endsWith('-result.json')).length;
  expect(allure, 'a grouped test is one Allure result').toBeLessThan(testcases);
  expect(r.stdout).toMatch(/Certification of embedded mock \(production, sandbox\): PASSED/);
  return { testcases, allure };
}

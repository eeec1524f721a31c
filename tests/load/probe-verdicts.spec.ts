/**
 * The capacity probes give verdicts, end to end (the k6 K6_BIN names, else the double, against the embedded mock):
 * an operation that refuses before its advertised limit, serves past it, or refuses with a 429 that is not the
 * documented JSON error body fails the run (exit 1), naming the operation, advertised, observed and the evidence; the
 * conforming mock passes; the manifest keeps the numbers.
 */
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FingerprintManifestEntry } from '../../load/shared/bucket-probe';
import { load } from './run';

const OPS = 'catalog.details,orders.create';

async function probe(script: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const dir = test.info().outputPath('run');
  const r = await load(dir, [script, ...args], env);
  const manifest = JSON.parse(readFileSync(join(dir, 'reports', 'limits.json'), 'utf8')) as { operations: FingerprintManifestEntry[] };
  const entry = (id: string) => manifest.operations.find((e) => e.id === id) as FingerprintManifestEntry;
  return { ...r, entry, said: r.stdout + r.stderr };
}

test.describe('the capacity probes judge the advertised limit and the 429', () => {
  test.describe.configure({ retries: 1 });

  test('should pass the conforming mock, every operation judged', async () => {
    const r = await probe('probe-limits', ['--ops', OPS]);
    expect(r.code, r.said).toBe(0);
    for (const id of OPS.split(',')) expect(r.entry(id).limitVerdict, id).toMatchObject({ verdict: 'passed', breaches: [], notJudged: [] });
    expect(r.entry('orders.create').refusal).toMatchObject({ status: 429, bodyProblems: [] });
    // What a write operation's probe may create, said before it starts, once.
    const notice = 'load: probe-limits: orders.create (POST) may create up to 152 resources';
    expect(r.stdout.indexOf(notice), r.said).toBeGreaterThanOrEqual(0);
    expect(r.stdout.indexOf(notice)).toBeLessThan(r.stdout.indexOf('load: probe-limits on'));
    expect(r.said.match(/may create/g)).toHaveLength(1);
  });

  test('should fail an operation that advertises more calls than it allows, naming advertised and observed', async () => {
    // limits.header-differs: X-RateLimit-Limit and Remaining 5 above the limit the mock enforces.
    const summary = test.info().outputPath('step-summary.md');
    const github = { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary };
    const r = await probe('probe-limits', ['--ops', OPS, '--mock-args', '--drift limits.header-differs'], github);
    expect(r.code, r.said).toBe(1);
    expect(r.stderr).toContain(
      'load: FAILED: catalog.details: refused before its advertised limit: advertised 65, observed 60; evidence: 60 calls',
    );
    expect(r.stderr).toContain('load: FAILED: orders.create: refused before its advertised limit: advertised 155, observed 150');
    // On GitHub Actions: the verdict and each broken fact in the step summary, an annotation per broken fact.
    const md = readFileSync(summary, 'utf8');
    expect(md).toContain('## npm run load -- probe-limits on the embedded mock: ❌ FAILED: a documented fact broken (exit 1)');
    expect(md).toContain('| catalog.details | refused before its advertised limit: advertised 65, observed 60; evidence: 60 calls');
    expect(md).toContain('| orders.create | refused before its advertised limit: advertised 155, observed 150');
    expect(r.stdout).toMatch(/^::error title=catalog\.details::refused before its advertised limit: advertised 65, observed 60/m);
    expect(r.stdout).toMatch(/^::error title=orders\.create::refused before its advertised limit: advertised 155, observed 150/m);
    expect(r.entry('catalog.details')).toMatchObject({ advertisedLimit: 65, observedLimit: 60, limitVerdict: { verdict: 'failed' } });
  });

  test('should fail an operation that serves a call past its advertised limit', async () => {
    // A window of 10 minutes: no bucket refilling the limit per window could have refilled a call during the exhaustion.
    const r = await probe('probe-limits', [
      '--ops',
      'catalog.details',
      '--window-ms',
      '600000',
      '--mock-args',
      '--drift limits.extra-call',
    ]);
    expect(r.code, r.said).toBe(1);
    expect(r.stderr).toContain('load: FAILED: catalog.details: served past its advertised limit: advertised 60, observed 61');
  });

  test('should fail a 429 in text/plain, with its body as evidence', async () => {
    const r = await probe('probe-limits', ['--ops', OPS, '--mock-args', '--drift 429.non-json']);
    expect(r.code, r.said).toBe(1);
    expect(r.stderr).toMatch(
      /FAILED: catalog\.details: its 429 is not the documented JSON error body .*: advertised 60, observed 60; evidence: Content-Type text\/plain, not JSON; status 429, body "Too many requests"/,
    );
    expect(r.entry('catalog.details').refusal).toMatchObject({ status: 429, contentType: expect.stringMatching(/^text\/plain/) });
  });

  test('should judge a bucket by its exhaustion and the rate the fingerprint read: fewer calls than its advertised limit and least refill fail', async () => {
    test.setTimeout(120_000);
    const r = await probe('probe-reset', [
      '--ops',
      'catalog.details',
      '--window-ms',
      '2000',
      '--mock-args',
      '--limiter token-bucket --drift limits.header-differs',
    ]);
    expect(r.code, r.said).toBe(1);
    // The burst as the fingerprint reads it: within two calls of 60 (a bucket refilling 30/s gives calls back while it is spent).
    expect(r.stderr).toMatch(
      /FAILED: catalog\.details: refused before its advertised limit: advertised 65, observed \d+; evidence: \d+ calls allowed in \d+ ms \(a token-bucket of burst (?:5[89]|6[012]) refilling [\d.]+\/s, as the fingerprint read it: its exhaustion\) where X-RateLimit-Limit 65 and the first Remaining 64 allow 65/,
    );
  });
});

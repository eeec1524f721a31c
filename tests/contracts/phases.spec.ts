import { test, expect } from '@playwright/test';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SPENDS_BUCKET, certifyProjects, runScopeOf } from '../../contracts/plan/phases';
import { keepExhaustion, keptExhaustion } from '../../contracts/exchanges/spent-buckets';
import type { Exhaustion } from '../../contracts/exchanges/bucket-exhaustion';
import type { ApiResponse } from '../../clients/http';
import { RUN_DIR_ENV } from '../../contracts/plan/run-budget';

/** Whether a project's own greps select a grep title (Playwright: every grep given must match, no invert). */
function selects(p: { grep?: RegExp | RegExp[]; grepInvert?: RegExp | RegExp[] | null }, title: string): boolean {
  const any = (g: RegExp | RegExp[]) => (Array.isArray(g) ? g : [g]).some((re) => re.test(title));
  return (!p.grep || any(p.grep)) && (!p.grepInvert || !any(p.grepInvert));
}

const SPENDING = `certify rate-limit.spec.ts should answer 429 with the spec's error body @rate-limit ${SPENDS_BUCKET}`;
const SPENDING_OTHER = `certify buckets.spec.ts should refuse a second token @bucket-owner ${SPENDS_BUCKET}`;
const NOT_SPENDING = 'certify operations.spec.ts should answer a valid call of each operation @operations';

test('should run the checks that spend a bucket after every other check on a deployment, and in one phase on the mock', () => {
  expect(certifyProjects([], 'mock')).toEqual([{ name: 'certify' }]);
  const [first, second] = certifyProjects(['test', '-c', 'playwright.config.ts'], 'deployment');
  expect(first?.teardown).toBe(second?.name);
  expect([SPENDING, NOT_SPENDING].map((t) => selects(first ?? {}, t))).toEqual([false, true]);
  expect([SPENDING, NOT_SPENDING].map((t) => selects(second ?? {}, t))).toEqual([true, false]);
  // Both phases keep what they learn of the target under one name.
  expect(runScopeOf(first ?? { name: '' })).toBe(runScopeOf(second ?? { name: '' }));
});

test("should give the second phase the command line's greps, which a teardown project would not take", () => {
  const [, second] = certifyProjects(['test', '-g', 'ERROR BODY', '-G', 'sandbox'], 'deployment');
  expect(selects(second ?? {}, SPENDING)).toBe(true);
  expect(selects(second ?? {}, SPENDING_OTHER)).toBe(false);
  expect(selects(second ?? {}, `${SPENDING} (sandbox)`)).toBe(false);
  // A grep that selects only checks of the first phase selects none of the second.
  const [, none] = certifyProjects(['test', '--grep=valid call of each operation'], 'deployment');
  expect([SPENDING, SPENDING_OTHER, NOT_SPENDING].filter((t) => selects(none ?? {}, t))).toEqual([]);
});

const answer = (status: number, resetEpochS: number, auth = 'Bearer canary-token'): ApiResponse => ({
  method: 'GET',
  url: 'http://t/resellers/v6/quotes/search',
  status,
  headers: { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': status === 429 ? '0' : '59', 'x-ratelimit-reset': String(resetEpochS) },
  text: '{}',
  json: {},
  durationMs: 1,
  sentAtMs: Date.now(),
  receivedAtMs: Date.now(),
  correlationId: 'c',
  request: { url: 'http://t/resellers/v6/quotes/search', headers: { Authorization: auth, 'IM-CustomerNumber': '1' } },
});

const exhaustion = (refused: ApiResponse | undefined, first: ApiResponse): Exhaustion => ({
  first,
  remainingAtFirst: 59,
  allowedAfterFirst: 59,
  countedRefusals: 0,
  unknownRefusals: 0,
  refused,
  sent: 61,
  seq: refused ? [first, refused] : [first],
});

test('should serve a spent bucket to the later checks of the run while its 429 holds, without the credential', () => {
  const dir = mkdtempSync(join(tmpdir(), 'spent-'));
  const before = process.env[RUN_DIR_ENV];
  process.env[RUN_DIR_ENV] = dir;
  try {
    const resetS = Math.floor(Date.now() / 1000) + 60;
    keepExhaustion('http://t', 'quotes.search', 'production', exhaustion(answer(429, resetS), answer(200, resetS)), 'the 429 check');
    const kept = keptExhaustion<Exhaustion>('http://t', 'quotes.search', 'production');
    expect(kept?.spentBy).toBe('the 429 check');
    expect(kept?.ex.refused?.status).toBe(429);
    // Another environment's bucket, and the same bucket once its reset is near, are spent anew.
    expect(keptExhaustion('http://t', 'quotes.search', 'sandbox')).toBeUndefined();
    expect(keptExhaustion('http://t', 'quotes.search', 'production', (resetS - 5) * 1000)).toBeUndefined();
    const files = readdirSync(join(dir, 'spent')).map((f) => readFileSync(join(dir, 'spent', f), 'utf8'));
    expect(files.join('')).not.toContain('canary-token');
    // An exhaustion without a 429 spent nothing to share.
    keepExhaustion('http://t', 'deals.search', 'production', exhaustion(undefined, answer(200, resetS)), 'a check');
    expect(keptExhaustion('http://t', 'deals.search', 'production')).toBeUndefined();
  } finally {
    if (before === undefined) delete process.env[RUN_DIR_ENV];
    else process.env[RUN_DIR_ENV] = before;
    rmSync(dir, { recursive: true, force: true });
  }
});

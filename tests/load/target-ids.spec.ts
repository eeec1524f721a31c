/**
 * `npm run load` on a target other than the embedded mock: an operation that needs an id takes it from the
 * target (KNOWN_IDS, else the target's own listing), never from the embedded mock's seeded data, and an
 * operation whose id is not found is left out with its reason and a non-zero exit. The target is the mock
 * started with another seed (other data), in its own process, behind a proxy that records what it was sent.
 */
import { test as base, expect } from '@playwright/test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { knownIds } from '../../fixtures';
import { setKnownIds } from '../../clients/ids';
import { spawnMock } from '../../runner/mock-process';
import { testMockMain } from '../cli-bundles';
import { startProxy, type CountingTarget } from '../contracts/support/targets';
import { load, type Ran } from './run';
import { quotaWait } from '../../runner/remote';
import { mockCredentials } from '../../runner/plan';
import { askAgainAtMs, refusalWait } from '../../runner/target-ids';
import { RESET_MARGIN_MS } from '../../catalogue/rules';

/** A seed other than the default one (1): the target's deals, parts and invoices are not the plan's defaults. */
const SEED = 7;
/** Small limits: a probe of each operation is a handful of calls (L+1). */
const LIMITS = { 'deals.details': 4, 'catalog.details': 5, 'deals.search': 6 };
/** The mock's reseller demo app; KNOWN_IDS empty unless a test gives it. */
const { RESELLER_CLIENT_ID, RESELLER_CLIENT_SECRET } = mockCredentials();
/** The embedded mock's reseller demo app (its one home: catalogue/apps.ts DEFAULT_APPS), and no known ids. */
const APP = { RESELLER_CLIENT_ID, RESELLER_CLIENT_SECRET, KNOWN_IDS: '' };
/** The documented exit code of a run that left a selected operation out (docs/capacity.md, "Exit codes"). */
const NOT_RUN_EXIT = 99;

const test = base.extend<{ mockArgs: string[]; mockWindowMs: number; target: CountingTarget }>({
  mockArgs: [[], { option: true }],
  // A 60 s window: the bucket a probe exhausts stays empty for the rest of the test.
  mockWindowMs: [60_000, { option: true }],
  target: async ({ mockArgs, mockWindowMs }, use) => {
    const mock = await spawnMock({ ...testMockMain(), seed: SEED, windowMs: mockWindowMs, limits: LIMITS, extraArgs: mockArgs });
    const proxy = await startProxy('pass-through', mock.url);
    await use(proxy);
    await proxy.close();
    await mock.close();
  },
});

const probe = (dir: string, target: CountingTarget, ops: string, env: Record<string, string> = {}, args: string[] = []): Promise<Ran> =>
  load(dir, ['probe-limits', '--target', target.url, '--environment', 'sandbox', '--allow-quota-spend', '--ops', ops, ...args], {
    ...APP,
    ...env,
  });

interface Manifest {
  operations: { id: string; observedLimit: number | null }[];
  notRun?: { id: string; reason: string }[];
}
const manifestOf = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'reports', 'limits.json'), 'utf8')) as Manifest;

/** Every status the probe drew, from its timeline. */
function statusesOf(dir: string): number[] {
  const t = JSON.parse(readFileSync(join(dir, 'reports', 'probe-timeline.json'), 'utf8')) as {
    operations: { samples: { status: number }[] }[];
  };
  return t.operations.flatMap((o) => o.samples.map((s) => s.status));
}

/** No client secret and no access token in what the run printed or wrote. */
function expectNoSecrets(r: Ran, dir: string): void {
  const files = readdirSync(join(dir, 'reports'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => readFileSync(join(dir, 'reports', f), 'utf8'));
  for (const text of [r.stdout, r.stderr, ...files]) {
    expect(text).not.toContain(APP.RESELLER_CLIENT_SECRET);
    expect(text).not.toMatch(/access_token|Bearer\s+\S/i);
  }
}

const THEIRS = knownIds(SEED);

test('should probe deals.details on a target with other data with the dealId that target lists, and draw no 404', async ({ target }) => {
  const dir = test.info().outputPath();
  expect(THEIRS.dealId, 'the target holds other deals than the default seed').not.toBe(knownIds().dealId);
  const r = await probe(dir, target, 'deals.details');
  expect(r.code, r.stderr + r.stdout).toBe(0);
  // Where the id came from, and the calls that found it: to the target only.
  expect(r.stdout).toContain(`load: dealId ${THEIRS.dealId} (listed by deals.search, sandbox)`);
  expect(r.stdout).toContain(`load: dealVendor ${THEIRS.dealVendor} (listed by deals.search, sandbox)`);
  expect(r.stdout).toContain(`load: id search: GET ${target.url}/sandbox/resellers/v6/deals/search → 200`);
  expect(r.stdout).toMatch(/load: 2 requests sent to find ids \(token requests included\), counted in --budget/);
  expect(target.seen().filter((l) => l.includes('/deals/search'))).toHaveLength(1);
  // Every details call the target received names the listed deal.
  const details = target.seen().filter((l) => /\/deals\/(?!search)/.test(l));
  expect(details.length).toBeGreaterThan(LIMITS['deals.details']);
  for (const l of details) expect(l).toContain(`/sandbox/resellers/v6/deals/${THEIRS.dealId}?`);
  expect(statusesOf(dir)).not.toContain(404);
  const m = manifestOf(dir);
  expect(m.operations.map((o) => [o.id, o.observedLimit])).toEqual([['deals.details', LIMITS['deals.details']]]);
  expect(m.notRun).toBeUndefined();
  expectNoSecrets(r, dir);
});

test('should take the ids given in KNOWN_IDS and send no listing to find them', async ({ target }) => {
  const dir = test.info().outputPath();
  const r = await probe(dir, target, 'deals.details', {
    KNOWN_IDS: JSON.stringify({ dealId: THEIRS.dealId, dealVendor: THEIRS.dealVendor }),
  });
  expect(r.code, r.stderr + r.stdout).toBe(0);
  expect(r.stdout).toContain(`load: dealId ${THEIRS.dealId} (configured in KNOWN_IDS, sandbox)`);
  expect(r.stdout).toContain(`load: dealVendor ${THEIRS.dealVendor} (configured in KNOWN_IDS, sandbox)`);
  expect(r.stdout).not.toContain('load: id search:');
  expect(target.seen().filter((l) => l.includes('/deals/search'))).toEqual([]);
  expect(statusesOf(dir)).not.toContain(404);
  expect(manifestOf(dir).operations.map((o) => [o.id, o.observedLimit])).toEqual([['deals.details', LIMITS['deals.details']]]);
});

test.describe('a target whose listing names no part number (its catalogue answer renames ingramPartNumber)', () => {
  test.use({ mockArgs: ['--drift', 'shapes.field-renamed'] });

  test('should leave catalog.details out with its reason, probe the rest, and exit non-zero; with nothing left, start no probe', async ({
    target,
  }) => {
    const dir = test.info().outputPath();
    const [some, none] = await Promise.all([
      probe(join(dir, 'some'), target, 'catalog.details,deals.details'),
      probe(join(dir, 'none'), target, 'catalog.details'),
    ]);
    const reason =
      `it needs a partNumber of the target's data (path partNumber), and no partNumber found by catalog.search ` +
      `(no entry of catalog with ingramPartNumber); set KNOWN_IDS, e.g. KNOWN_IDS='{"partNumber":"<a partNumber of the target>"}'`;
    // What was expected, what was received and what to do, on stderr; recorded in the manifest; the exit code says it.
    expect(some.code, some.stderr + some.stdout).toBe(NOT_RUN_EXIT);
    expect(some.stderr).toContain(`load: catalog.details not run: ${reason}`);
    expect(some.stderr).toMatch(/load: probe-limits: 1 selected operation\(s\) not run, .*: catalog\.details \(.*\); exit 99/);
    expect(some.stdout).toContain(`catalog.details: NOT RUN: ${reason}`);
    const m = manifestOf(join(dir, 'some'));
    expect(m.operations.map((o) => [o.id, o.observedLimit])).toEqual([['deals.details', LIMITS['deals.details']]]);
    expect(m.notRun).toEqual([{ id: 'catalog.details', reason }]);
    expectNoSecrets(some, join(dir, 'some'));

    expect(none.code, none.stderr + none.stdout).toBe(NOT_RUN_EXIT);
    expect(none.stderr).toContain(`load: catalog.details not run: ${reason}`);
    expect(none.stderr).toContain('load: no operation left to run: each of the 1 selected operations needs an id the target did not give');
    expect(none.stdout).not.toContain('load: probe-limits on');
    expect(existsSync(join(dir, 'none', 'reports', 'limits.json'))).toBe(false);
    // Never probed with an id the target did not give.
    expect(target.seen().filter((l) => l.includes('/catalog/details'))).toEqual([]);
  });
});

test.describe('a listing the run probes too (a 3 s window)', () => {
  test.use({ mockWindowMs: 3000 });

  test('should start the probe of a listing the id search called after its advertised reset, and read its whole limit', async ({
    target,
  }) => {
    const dir = test.info().outputPath();
    const r = await probe(dir, target, 'deals.search,deals.details');
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(r.stdout).toContain(`load: dealId ${THEIRS.dealId} (listed by deals.search, sandbox)`);
    expect(r.stdout).toMatch(
      /load: the id search called deals\.search, which this run probes: waiting \d+\.\d s for the advertised reset, so each probe starts from a full bucket/,
    );
    // The call the search spent is back: the probe reads the whole limit, not one less.
    expect(manifestOf(dir).operations.map((o) => [o.id, o.observedLimit])).toEqual([
      ['deals.search', LIMITS['deals.search']],
      ['deals.details', LIMITS['deals.details']],
    ]);
  });
});

test.describe('the wait for the quota an id search spent', () => {
  test('should wait until the advertised reset, at most the longest wait for a reopening, and say so when it waits less', () => {
    const back = { atMs: 100_000, ids: ['deals.search'] };
    expect(quotaWait(back, { windowMs: 2000 }, 100_000)).toBeUndefined();
    const short = quotaWait(back, { windowMs: 2000 }, 97_000);
    expect(short?.waitMs).toBe(3000);
    expect(short?.line).not.toMatch(/past the/);
    // A daily quota's reset, hours away: the run waits 3 windows (or --probe-wait-ms), and says what that means.
    const far = quotaWait({ ...back, atMs: 100_000 + 6 * 3600_000 }, { windowMs: 60_000 }, 100_000);
    expect(far?.waitMs).toBe(180_000);
    expect(far?.line).toMatch(/the reset is 21600\.0 s away, past the 180\.0 s a run waits/);
    expect(quotaWait({ ...back, atMs: 100_000 + 3600_000 }, { windowMs: 60_000, probeWaitMs: 10_000 }, 100_000)?.waitMs).toBe(10_000);
    expect(quotaWait({ ...back, atMs: 200_000 }, { windowMs: 1000 }, 100_000)?.waitMs).toBe(5000);
  });
});

test.describe('a listing the target refuses to the id search', () => {
  test('should ask again at the time the refusal advertised, in any header and unit, and not when it advertised none or too late', () => {
    const atMs = 1_800_000_000_000;
    const refused = (headers: Record<string, string>, status = 429) => ({ status, headers, receivedAtMs: atMs });
    expect(askAgainAtMs({ status: 200, headers: { 'x-ratelimit-reset': '5' }, receivedAtMs: atMs })).toBeUndefined();
    expect(askAgainAtMs(refused({}, 503))).toBeUndefined();
    // X-RateLimit-Reset as seconds to wait, and as epoch seconds (catalogue/rules.ts reads the unit).
    expect(askAgainAtMs(refused({ 'x-ratelimit-reset': '3' }))).toBe(atMs + 3000);
    expect(askAgainAtMs(refused({ 'x-ratelimit-reset': String(atMs / 1000 + 4) }))).toBe(atMs + 4000);
    // Retry-After first (when a call passes again), as delta seconds or an HTTP date, on a 429 or another refusal.
    expect(askAgainAtMs(refused({ 'retry-after': '2', 'x-ratelimit-reset': '9' }))).toBe(atMs + 2000);
    expect(askAgainAtMs(refused({ 'retry-after': new Date(atMs + 6000).toUTCString() }, 503))).toBe(atMs + 6000);
    expect(askAgainAtMs(refused({ ratelimit: '"default";r=0;t=7' }))).toBe(atMs + 7000);
    expect(askAgainAtMs(refused({}))).toBeNull();

    const o = { nowMs: atMs, waitedMs: 0, maxWaitMs: 180_000, asksAgain: 0 };
    expect(refusalWait(atMs + 2000, o)).toEqual({ waitMs: 2000 + RESET_MARGIN_MS });
    expect(refusalWait(atMs - 5000, o)).toEqual({ waitMs: 0 });
    expect(refusalWait(null, o)).toEqual({ why: 'its answer advertised no Retry-After and no rate-limit reset to wait for' });
    expect(refusalWait(atMs + 6 * 3600_000, o)).toEqual({
      why: 'its advertised reset is 21600.3 s away, more than the 180.0 s left of the 180.0 s a run waits (--probe-wait-ms)',
    });
    expect(refusalWait(atMs + 10_000, { ...o, waitedMs: 175_000 })).toEqual({
      why: 'its advertised reset is 10.3 s away, more than the 5.0 s left of the 180.0 s a run waits (--probe-wait-ms)',
    });
    expect(refusalWait(atMs + 1000, { ...o, asksAgain: 3 })).toEqual({
      why: 'it was still refused after 3 waits for its advertised reset',
    });
  });

  /** A probe of deals.search (it spends its bucket for the window), then one of deals.details, whose id search asks it. */
  async function detailsAfterSearch(target: CountingTarget, args: string[] = []): Promise<Ran> {
    const dir = test.info().outputPath();
    const first = await probe(join(dir, 'first'), target, 'deals.search');
    expect(first.code, first.stderr + first.stdout).toBe(0);
    return probe(join(dir, 'next'), target, 'deals.details', {}, args);
  }
  const leftOut = (why: string) =>
    `load: deals.details not run: it needs a dealId of the target's data (path dealId), and deals.search answered 429 and was not asked again (${why}), so no dealId found by deals.search (it answered 429); ${setKnownIds('dealId')}`;

  test("should leave the operation out, saying why, when the refused listing's reset is past --probe-wait-ms", async ({ target }) => {
    const r = await detailsAfterSearch(target, ['--probe-wait-ms', '2000']);
    expect(r.code, r.stderr + r.stdout).toBe(NOT_RUN_EXIT);
    expect(r.stderr).toMatch(
      /its advertised reset is \d+\.\d s away, more than the 2\.0 s left of the 2\.0 s a run waits \(--probe-wait-ms\)/,
    );
    const why = /\((its advertised reset is [^)]+\(--probe-wait-ms\))\)/.exec(r.stderr)?.[1] ?? '';
    expect(r.stderr).toContain(leftOut(why));
    expect(r.stdout).not.toContain('before asking for ids again');
    // Asked once, never probed with an id the target did not give.
    expect(target.seen().filter((l) => l.includes('/deals/') && !l.includes('/deals/search'))).toEqual([]);
  });

  test.describe('a target that sends no rate-limit headers', () => {
    test.use({ mockArgs: ['--headers', 'none'] });

    test('should not wait for a reset it cannot read: the operation is left out, saying so', async ({ target }) => {
      const r = await detailsAfterSearch(target);
      expect(r.code, r.stderr + r.stdout).toBe(NOT_RUN_EXIT);
      expect(r.stderr).toContain(leftOut('its answer advertised no Retry-After and no rate-limit reset to wait for'));
      expect(r.stdout).not.toContain('before asking for ids again');
    });
  });
});

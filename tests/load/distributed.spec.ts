/**
 * A distributed probe (k6-operator `parallelism: 4`): four runners with their execution segments
 * against one target share one app's quota. Each must probe a disjoint slice, so that every
 * operation is probed exactly once and reads its true limit; `load merge` joins the manifests.
 */
import { test, expect } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { allOperations } from '../../catalogue';
import { knownIds } from '../../fixtures';
import { spawnMock } from '../../runner/mock-process';
import { testMockMain } from '../cli-bundles';
import { mockCredentials, randomLimits } from '../../runner/plan';
import { mergeManifests } from '../../runner/merge';
import { canonicalSegment, inSegment, parseSegment, segmentDirName, shareOf } from '../../load/plan/segment';
import { parse } from 'yaml';
import { load, type Ran } from './run';
import { readFileSync } from 'node:fs';

/**
 * What k6-operator gives runner i of `parallelism: n` (pkg/segmentation): `(i-1)/n:i/n`, unreduced, with `0` and
 * `1` bare. k6 reports the segment reduced (`2/4:3/4` is `1/2:3/4`), so the runner folder's name must not depend on
 * the spelling.
 */
function operatorSegments(n: number): { segments: string[]; sequence: string } {
  const part = (i: number) => (i === 0 ? '0' : i === n ? '1' : `${i}/${n}`);
  return {
    segments: Array.from({ length: n }, (_, i) => `${part(i)}:${part(i + 1)}`),
    sequence: Array.from({ length: n + 1 }, (_, i) => part(i)).join(','),
  };
}
const { segments: SEGMENTS, sequence: SEQUENCE } = operatorSegments(4);

/** The mock's reseller and vendor apps, with the KNOWN_IDS given to each runner. */
function mockApps(knownIdsJson: string): NodeJS.ProcessEnv {
  return { ...mockCredentials(), KNOWN_IDS: knownIdsJson };
}

test.describe('distributed probes', () => {
  test('should give every index to exactly one of the segments that tile [0, 1]', () => {
    for (const n of [1, 2, 3, 7, 24, 27, 100]) {
      const owners = Array.from({ length: n }, (_, i) => SEGMENTS.filter((s) => inSegment(i, n, parseSegment(s))).length);
      expect(owners, `n=${n}`).toEqual(Array(n).fill(1));
    }
    expect(shareOf(['a', 'b', 'c', 'd'], '50%:100%')).toEqual(['c', 'd']);
    expect(shareOf(['a', 'b'], undefined)).toEqual(['a', 'b']);
    expect(() => parseSegment('2/3:1/3')).toThrow(/0 <= from < to <= 1/);
  });

  test('should name a runner folder from the segment as k6 reports it, however it was spelled', () => {
    expect(SEGMENTS).toEqual(['0:1/4', '1/4:2/4', '2/4:3/4', '3/4:1']);
    expect(canonicalSegment('2/4:3/4')).toBe('1/2:3/4');
    expect(canonicalSegment('0:25%')).toBe('0:1/4');
    expect(canonicalSegment('0.5:1')).toBe('1/2:1');
    expect(canonicalSegment('1/3')).toBe('0:1/3');
    expect(SEGMENTS.map(segmentDirName)).toEqual(['segment-0-1_4', 'segment-1_4-1_2', 'segment-1_2-3_4', 'segment-3_4-1']);
    expect(segmentDirName('1/4:1/2')).toBe(segmentDirName('1/4:2/4'));
  });

  test('should make every k6-operator runner folder in the TestRun before k6 writes into it', () => {
    // k6 creates no folder, and on a cluster no npm run load makes one: the runners' init container does.
    const run = parse(readFileSync(new URL('../../load/k8s/testrun.yaml', import.meta.url), 'utf8')) as {
      spec: { parallelism: number; runner: { initContainers?: { command: string[] }[] } };
    };
    const script = (run.spec.runner.initContainers ?? []).map((c) => c.command.join(' ')).join('\n');
    const { segments } = operatorSegments(run.spec.parallelism);
    for (const s of segments) expect(script, `the folder of segment ${s}`).toContain(`/reports/load/${segmentDirName(s)}`);
  });

  test('should probe every operation exactly once with four runners spelled as k6-operator spells them, and merge their manifests', async () => {
    test.setTimeout(120_000);
    const seed = 31;
    const readOnly = allOperations().filter((o) => o.readOnly);
    const expected = randomLimits(readOnly, seed);
    const mock = await spawnMock({ ...testMockMain(), windowMs: 60_000, limits: expected, control: true });
    const dir = test.info().outputPath();
    const reports = join(dir, 'reports');
    // The target's ids, given to every runner as a k6-operator TestRun gets them in its PLAN: without them
    // each runner would search the target's listings for them, spending calls of the listings other
    // runners probe, and then wait for their reset (a window) before probing (target-ids.spec.ts).
    const creds = mockApps(JSON.stringify(knownIds()));
    try {
      mkdirSync(join(dir, 'bundles'), { recursive: true });
      // The runners start together, as k6-operator starts them, against the same target and app.
      const runs = await Promise.all(
        SEGMENTS.map((s, i) =>
          load(
            join(dir, `runner-${i}`),
            [
              'probe-limits',
              '--target',
              mock.url,
              '--allow-quota-spend',
              '--allow-production',
              '--execution-segment',
              s,
              '--execution-segment-sequence',
              SEQUENCE,
              '--reports-dir',
              reports,
            ],
            creds,
          ),
        ),
      );
      runs.forEach((run, i) => {
        expect(run.code, run.stderr + run.stdout).toBe(0);
        expect(run.stdout).toContain(`load: manifest ${join(reports, segmentDirName(SEGMENTS[i] as string), 'limits.json')}`);
      });
    } finally {
      await mock.close();
    }
    const merged = await load(dir, ['merge', '--reports-dir', reports]);
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toMatch(new RegExp(`merged ${readOnly.length} operations from 4 runners`));
    const m = JSON.parse(readFileSync(join(reports, 'limits.json'), 'utf8')) as {
      runners: number;
      operations: { id: string; observedLimit: number; requestsSpent: number }[];
    };
    expect(m.runners).toBe(4);
    expect(m.operations.map((e) => e.id).sort()).toEqual(readOnly.map((o) => o.id).sort());
    for (const e of m.operations) {
      // A second runner on the same operation would meet a spent bucket and read a smaller limit.
      expect(e.observedLimit, e.id).toBe(expected[e.id]);
      expect(e.requestsSpent, e.id).toBeLessThanOrEqual((expected[e.id] as number) + 2);
    }
  });

  test('should probe every operation once when three runners start one after another, each waiting out the refusals its id search meets', async () => {
    test.setTimeout(180_000);
    const readOnly = allOperations().filter((o) => o.readOnly);
    const expected = randomLimits(readOnly, 17);
    // A window longer than a runner takes to reach its id search (about 5 s on a busy two-core machine): the
    // listings the runner before it exhausted are still refused when the next one asks them for ids.
    const mock = await spawnMock({ ...testMockMain(), windowMs: 8000, limits: expected });
    const dir = test.info().outputPath();
    const reports = join(dir, 'reports');
    // No KNOWN_IDS: each runner searches the target's listings, which the runner before it may just have exhausted.
    const creds = mockApps('');
    const thirds = ['0:1/3', '1/3:2/3', '2/3:1'];
    const runs: Ran[] = [];
    try {
      mkdirSync(join(dir, 'bundles'), { recursive: true });
      for (const [i, s] of thirds.entries()) {
        const args = ['probe-limits', '--target', mock.url, '--allow-quota-spend', '--allow-production'];
        const segment = ['--execution-segment', s, '--execution-segment-sequence', '0,1/3,2/3,1', '--reports-dir', reports];
        runs.push(await load(join(dir, `runner-${i}`), [...args, ...segment], creds));
      }
    } finally {
      await mock.close();
    }
    for (const run of runs) {
      expect(run.code, run.stderr + run.stdout).toBe(0);
      expect(run.stderr).not.toContain('not run');
    }
    // The case under test happened: a later runner's search met a listing the runner before it had exhausted.
    const later = runs
      .slice(1)
      .map((run) => run.stdout)
      .join('\n');
    expect(later).toMatch(/load: id search: \S+ answered 429: waiting \d+\.\d s for \S+'s reset before asking for ids again/);
    const merged = await load(dir, ['merge', '--reports-dir', reports]);
    expect(merged.code, merged.stderr).toBe(0);
    const m = JSON.parse(readFileSync(join(reports, 'limits.json'), 'utf8')) as {
      operations: { id: string; observedLimit: number }[];
      notRun?: unknown[];
    };
    expect(m.notRun ?? []).toEqual([]);
    expect(m.operations.map((e) => e.id).sort()).toEqual(readOnly.map((o) => o.id).sort());
    for (const e of m.operations) expect(e.observedLimit, e.id).toBe(expected[e.id]);
  });

  test('should refuse to merge manifests that probed the same operation twice', () => {
    const dir = test.info().outputPath();
    for (const runner of ['segment-a', 'segment-b']) {
      mkdirSync(join(dir, runner), { recursive: true });
      writeFileSync(
        join(dir, runner, 'limits.json'),
        JSON.stringify({ operations: [{ id: 'catalog.search', environment: 'production' }], durationMs: 1, requests: 3 }),
      );
    }
    expect(() => mergeManifests([join(dir, 'segment-a'), join(dir, 'segment-b')])).toThrow(
      /catalog\.search \(production\) in .*segment-a and .*segment-b/,
    );
  });

  test("should keep every runner's operations not run in the merged manifest, except those another runner probed", () => {
    const dir = test.info().outputPath();
    const manifests = {
      'segment-a': {
        operations: [{ id: 'catalog.search', environment: 'production' }],
        notRun: [{ id: 'orders.details', reason: 'no id' }],
      },
      'segment-b': {
        operations: [{ id: 'quotes.search', environment: 'production' }],
        notRun: [
          { id: 'quotes.details', reason: 'no quote' },
          { id: 'catalog.search', reason: 'left to another runner' },
        ],
      },
    };
    for (const [runner, m] of Object.entries(manifests)) {
      mkdirSync(join(dir, runner), { recursive: true });
      writeFileSync(join(dir, runner, 'limits.json'), JSON.stringify({ ...m, durationMs: 1, requests: 3 }));
    }
    const merged = mergeManifests([join(dir, 'segment-a'), join(dir, 'segment-b')]).manifest;
    expect(merged.notRun).toEqual([
      { id: 'orders.details', reason: 'no id' },
      { id: 'quotes.details', reason: 'no quote' },
    ]);
  });
});

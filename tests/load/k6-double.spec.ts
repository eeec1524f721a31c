/**
 * The k6 test double behaves like k6 on the command line the harness uses: exit codes (99 when a
 * threshold is crossed, 100 when setup outlasts setupTimeout, 107 on a script exception, 255 on a bad flag),
 * --summary-export in k6's legacy shape, --out json, -e, execution segments, arrival-rate schedules, no folder
 * made for a summary file, the REST API's address. These tests run on whichever k6 K6_BIN names (tests/load/run.ts):
 * on a real k6 they check that the double's behaviour is k6's.
 */
import { test, expect } from '@playwright/test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { k6 } from './run';

/** A plain k6 script (no bundling needed): counts iterations of arrival-rate scenarios (maxVUs high: a loaded CI machine must not drop any). */
const SCRIPT = `
import { Counter } from 'k6/metrics';
import exec from 'k6/execution';
const hits = new Counter('hits');
export const options = {
  scenarios: {
    steady: { executor: 'constant-arrival-rate', rate: __ENV.RATE ? Number(__ENV.RATE) : 20, timeUnit: '1s', duration: '1s', preAllocatedVUs: 1, maxVUs: 50, exec: 'hit', tags: { kind: 'steady' } },
    ramp: { executor: 'ramping-arrival-rate', startRate: 0, timeUnit: '1s', stages: [{ duration: '1s', target: 20 }], preAllocatedVUs: 1, maxVUs: 50, exec: 'hit', tags: { kind: 'ramp' } },
  },
  thresholds: { 'hits{kind:steady}': [__ENV.STEADY_THRESHOLD || 'count>=1'], 'hits{kind:ramp}': ['count>=1'] },
};
export function setup() { return { segment: exec.test.options.executionSegment }; }
export function hit() {
  if (__ENV.THROW_IN === 'hit') throw new Error('iteration error');
  hits.add(1);
}
export function handleSummary(data) {
  return { stdout: JSON.stringify({ segment: data.setup_data.segment, steady: data.metrics['hits{kind:steady}'], ramp: data.metrics['hits{kind:ramp}'] }) + '\\n' };
}
`;

test.describe('the k6 test double command line', () => {
  test('should run arrival-rate scenarios on their schedule and pass their thresholds with exit 0', async () => {
    const f = test.info().outputPath('script.js');
    writeFileSync(f, SCRIPT);
    const exported = test.info().outputPath('summary.json');
    const json = test.info().outputPath('points.json');
    const r = await k6(['run', '--quiet', '--address', '', '--summary-export', exported, '--out', `json=${json}`, f]);
    expect(r.code, r.stderr).toBe(0);
    type Sub = { values: { count: number }; thresholds: Record<string, { ok: boolean }> };
    const out = JSON.parse(r.stdout) as { steady: Sub; ramp: Sub; segment: string | null };
    // 20/s for 1 s: k6 may also start the call due at the very end (its timer races the end of the duration);
    // a ramp from 0 to 20/s over 1 s starts 10.
    expect(out.steady.values.count).toBeGreaterThanOrEqual(20);
    expect(out.steady.values.count).toBeLessThanOrEqual(21);
    expect(out.ramp.values.count).toBeGreaterThanOrEqual(10);
    expect(out.ramp.values.count).toBeLessThanOrEqual(11);
    expect(out.steady.thresholds['count>=1']).toEqual({ ok: true });
    expect(out.segment).toBeNull();
    const legacy = JSON.parse(readFileSync(exported, 'utf8')) as {
      metrics: Record<string, { count: number; thresholds: Record<string, boolean> }>;
    };
    // k6's legacy export marks a threshold true when it FAILED.
    expect(legacy.metrics['hits{kind:steady}']?.thresholds['count>=1']).toBe(false);
    const points = readFileSync(json, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; metric: string; data: { tags: Record<string, string> } })
      // k6 also writes a `Metric` line per metric; the samples are its `Point` lines.
      .filter((p) => p.type === 'Point');
    expect(points.filter((p) => p.metric === 'hits')).toHaveLength(out.steady.values.count + out.ramp.values.count);
    expect(points.find((p) => p.metric === 'hits')?.data.tags.scenario).toMatch(/steady|ramp/);
  });

  test('should exit 99 when a threshold is crossed, 107 on a script exception and 255 on an unknown flag', async () => {
    const f = test.info().outputPath('script.js');
    writeFileSync(f, SCRIPT);
    const broken = test.info().outputPath('broken.js');
    writeFileSync(broken, `export function setup() { throw new Error('no token'); }\nexport default function () {}\n`);
    const [crossed, exception, flag] = await Promise.all([
      k6(['run', '-q', '--address', '', '-e', 'STEADY_THRESHOLD=count>1000', f]),
      k6(['run', '-q', '--address', '', broken]),
      k6(['run', '-q', '--address', '', '--no-such-flag', f]),
    ]);
    expect(crossed.code).toBe(99);
    expect(crossed.stderr).toMatch(/thresholds on metrics 'hits\{kind:steady\}' have been crossed/);
    expect(exception.code).toBe(107);
    expect(exception.stderr).toMatch(/no token/);
    expect(flag.code).toBe(255);
    expect(flag.stderr).toMatch(/unknown flag: --no-such-flag/);
  });

  test('should scale the work to the execution segment and expose it in exec.test.options', async () => {
    const f = test.info().outputPath('script.js');
    writeFileSync(f, SCRIPT);
    const r = await k6([
      'run',
      '-q',
      '--address',
      '',
      '--execution-segment',
      '1/3:2/3',
      '--execution-segment-sequence',
      '0,1/3,2/3,1',
      '-e',
      'RATE=30',
      f,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { segment: string; steady: { values: { count: number } } };
    expect(out.segment).toBe('1/3:2/3');
    // A third of 30 calls, give or take the one at a stripe's edge.
    expect(out.steady.values.count).toBeGreaterThanOrEqual(9);
    expect(out.steady.values.count).toBeLessThanOrEqual(11);
  });

  test('should drop iterations when more than maxVUs are overdue, as k6 does when it runs out of VUs', async () => {
    const f = test.info().outputPath('slow.js');
    writeFileSync(
      f,
      `import { sleep } from 'k6';
export const options = { scenarios: { slow: { executor: 'constant-arrival-rate', rate: 50, timeUnit: '1s', duration: '1s', preAllocatedVUs: 1, maxVUs: 1 } } };
export default function () { sleep(0.1); }
export function handleSummary(d) { return { stdout: JSON.stringify({ done: d.metrics.iterations.values.count, dropped: d.metrics.dropped_iterations.values.count }) }; }
`,
    );
    const r = await k6(['run', '-q', '--address', '', f]);
    expect(r.code, r.stderr).toBe(0);
    const { done, dropped } = JSON.parse(r.stdout) as { done: number; dropped: number };
    expect(done + dropped).toBeGreaterThanOrEqual(50);
    expect(done + dropped).toBeLessThanOrEqual(51);
    // One VU of 100 ms iterations completes about 10 of the 50 in a second.
    expect(done).toBeLessThan(20);
    expect(dropped).toBeGreaterThan(30);
  });

  test('should create no folder for a summary file: a file in a missing folder is not written, the exit code stays', async () => {
    const missing = test.info().outputPath('missing', 'a.json');
    const present = test.info().outputPath('b.json');
    const exported = test.info().outputPath('no-such-folder', 'summary.json');
    const f = test.info().outputPath('files.js');
    writeFileSync(
      f,
      `export const options = { iterations: 1 };
export default function () {}
export function handleSummary() { return { ${JSON.stringify(missing)}: '{}', ${JSON.stringify(present)}: '{}', stdout: 'done\\n' }; }
`,
    );
    const r = await k6(['run', '-q', '--address', '', '--summary-export', exported, f]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('done\n');
    expect(existsSync(present)).toBe(true);
    expect(existsSync(missing)).toBe(false);
    expect(existsSync(exported)).toBe(false);
    expect(r.stderr).toContain(`could not open '${missing}'`);
    expect(r.stderr).toContain(`could not open '${exported}'`);
  });

  test('should end with 100 when setup() outlasts setupTimeout', async () => {
    const f = test.info().outputPath('slow-setup.js');
    writeFileSync(
      f,
      `import { sleep } from 'k6';
export const options = { setupTimeout: '1s', iterations: 1 };
export function setup() { sleep(1.5); }
export default function () {}
`,
    );
    const r = await k6(['run', '-q', '--address', '', f]);
    expect(r.code, r.stderr).toBe(100);
    expect(r.stderr).toMatch(/setup\(\) execution timed out after 1 seconds/);
  });

  test('should hold the REST API address for the run: a second run given it exits 106, --address "" has none', async () => {
    const f = test.info().outputPath('short.js');
    writeFileSync(f, `import { sleep } from 'k6';\nexport const options = { iterations: 1 };\nexport default function () { sleep(1); }\n`);
    // A free port of our own, so parallel test workers do not share k6's default 6565.
    const address = `127.0.0.1:${16000 + (process.pid % 20000)}`;
    const [first, second, off] = await Promise.all([
      k6(['run', '-q', '--address', address, f]),
      new Promise((r) => setTimeout(r, 300)).then(() => k6(['run', '-q', '--address', address, f])),
      new Promise((r) => setTimeout(r, 300)).then(() => k6(['run', '-q', '--address', '', f])),
    ]);
    expect([first.code, second.code, off.code]).toEqual([0, 106, 0]);
    expect(first.stderr).not.toContain('address already in use');
    expect(second.stderr).toMatch(/Error from API server/);
    expect(second.stderr).toContain(`listen tcp ${address}: bind: address already in use`);
    expect(off.stderr).not.toMatch(/API server/);
  });

  test('should print a banner on stdout unless --quiet', async () => {
    const f = test.info().outputPath('plain.js');
    writeFileSync(
      f,
      `export const options = { iterations: 1 };\nexport default function () {}\nexport function handleSummary() { return { stdout: 'S' }; }\n`,
    );
    const r = await k6(['run', '--address', '', f]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(2);
    expect(r.stdout).toContain('S');
    const quiet = await k6(['run', '-q', '--address', '', f]);
    expect(quiet.stdout).toBe('S');
  });
});

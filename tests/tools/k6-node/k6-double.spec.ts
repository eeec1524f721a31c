/**
 * The k6 test double behaves like k6 on the command line the harness uses: exit codes (99 when a
 * threshold is crossed, 100 when setup outlasts setupTimeout, 107 on a script exception, 255 on a bad flag),
 * --summary-export in k6's legacy shape, --out json, -e, execution segments, arrival-rate schedules, no folder
 * made for a summary file, the REST API's address. These tests run on whichever k6 K6_BIN names (tests/load/run.ts):
 * on a real k6 they check that the double's behaviour is k6's.
 */
import { test, expect } from '@playwright/test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { k6, onDouble } from '../../load/run';

/** A plain k6 script (no bundling needed): counts iterations of arrival-rate scenarios (maxVUs high: a loaded CI machine must not drop any). */
const SCRIPT = `
import { Counter } from 'k6/metrics';
import exec from 'k6/execution';
const hits = new Counter('hits');
export const options = {
  scenarios: {
    steady: { executor: 'constant-arrival-rate', rate: __ENV.RATE ? Number(__ENV.RATE) : 20, timeUnit: '1s', duration: '1s', preAllocatedVUs: 5, maxVUs: 50, exec: 'hit', tags: { kind: 'steady' } },
    ramp: { executor: 'ramping-arrival-rate', startRate: 0, timeUnit: '1s', stages: [{ duration: '1s', target: 20 }], preAllocatedVUs: 5, maxVUs: 50, exec: 'hit', tags: { kind: 'ramp' } },
  },
  thresholds: {
    'hits{kind:steady}': [__ENV.STEADY_THRESHOLD || 'count>=1'],
    'hits{kind:ramp}': ['count>=1'],
    'dropped_iterations{scenario:steady}': ['count>=0'],
    'dropped_iterations{scenario:ramp}': ['count>=0'],
  },
};
export function setup() { return { segment: exec.test.options.executionSegment }; }
export function hit() {
  if (__ENV.THROW_IN === 'hit') throw new Error('iteration error');
  hits.add(1);
}
export function handleSummary(data) {
  const dropped = (s) => (data.metrics['dropped_iterations{scenario:' + s + '}'] || { values: { count: 0 } }).values.count;
  return { stdout: JSON.stringify({ segment: data.setup_data.segment, steady: data.metrics['hits{kind:steady}'], ramp: data.metrics['hits{kind:ramp}'], dropped: { steady: dropped('steady'), ramp: dropped('ramp') } }) + '\\n' };
}
`;

/**
 * Calls an arrival-rate schedule started (or dropped). The double runs the schedule exactly. Real k6 runs it on its
 * own timers: it may start the call due at the very end (the timer races the end of the duration), and on a busy
 * machine its count of a one-second schedule was seen off by up to a third; a count from another schedule (the
 * whole rate instead of a segment's share, a ramp read as constant) is still far outside that.
 */
/** `k6 run` quiet and without its REST API (as `npm run load` runs it), with these arguments. */
const quiet = (args: string[]) => k6(['run', '-q', '--address', '', ...args]);

function expectScheduled(started: number, scheduled: number): void {
  if (onDouble()) expect(started, 'calls the double started for its schedule').toBe(scheduled);
  else {
    expect(started, `calls k6 started for a schedule of ${scheduled}`).toBeGreaterThanOrEqual(Math.floor(scheduled * 0.7));
    expect(started, `calls k6 started for a schedule of ${scheduled}`).toBeLessThanOrEqual(Math.ceil(scheduled * 1.35));
  }
}

test.describe('the k6 test double command line', () => {
  test('should run arrival-rate scenarios on their schedule and pass their thresholds with exit 0', async () => {
    const f = test.info().outputPath('script.js');
    writeFileSync(f, SCRIPT);
    const exported = test.info().outputPath('summary.json');
    const json = test.info().outputPath('points.json');
    const r = await k6(['run', '--quiet', '--address', '', '--summary-export', exported, '--out', `json=${json}`, f]);
    expect(r.code, r.stderr).toBe(0);
    type Sub = { values: { count: number }; thresholds: Record<string, { ok: boolean }> };
    const out = JSON.parse(r.stdout) as { steady: Sub; ramp: Sub; segment: string | null; dropped: { steady: number; ramp: number } };
    // The schedule: 20/s for 1 s, and a ramp from 0 to 20/s over 1 s starts 10. A call with no VU free at its time
    // is dropped, never late: started + dropped is the schedule.
    expectScheduled(out.steady.values.count + out.dropped.steady, 20);
    expectScheduled(out.ramp.values.count + out.dropped.ramp, 10);
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
      quiet(['-e', 'STEADY_THRESHOLD=count>1000', f]),
      quiet([broken]),
      quiet(['--no-such-flag', f]),
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
    const r = await quiet(['--execution-segment', '1/3:2/3', '--execution-segment-sequence', '0,1/3,2/3,1', '-e', 'RATE=30', f]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { segment: string; steady: { values: { count: number } }; dropped: { steady: number } };
    expect(out.segment).toBe('1/3:2/3');
    // A third of 30 calls; started + dropped, as above.
    expectScheduled(out.steady.values.count + out.dropped.steady, 10);
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
    const r = await quiet([f]);
    expect(r.code, r.stderr).toBe(0);
    const { done, dropped } = JSON.parse(r.stdout) as { done: number; dropped: number };
    expectScheduled(done + dropped, 50);
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
    const r = await quiet(['--summary-export', exported, f]);
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
    const r = await quiet([f]);
    expect(r.code, r.stderr).toBe(100);
    expect(r.stderr).toMatch(/setup\(\) execution timed out after 1 seconds/);
  });

  test('should exit 106 when the REST API address it is given is in use, and take none with --address ""', async () => {
    const f = test.info().outputPath('short.js');
    // Long enough for k6 to learn that it cannot listen: it serves its REST API beside the run, and a run that ends
    // first ends with 0.
    writeFileSync(f, `import { sleep } from 'k6';\nexport const options = { iterations: 1 };\nexport default function () { sleep(2); }\n`);
    // An address held by another program (here the test), as a second k6 run at once would hold it.
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
    const address = `127.0.0.1:${(holder.address() as AddressInfo).port}`;
    try {
      const [taken, off] = await Promise.all([k6(['run', '-q', '--address', address, f]), quiet([f])]);
      expect(taken.code, taken.stderr).toBe(106);
      expect(taken.stderr).toMatch(/Error from API server/);
      expect(taken.stderr).toContain(`listen tcp ${address}: bind: address already in use`);
      expect(off.code, off.stderr).toBe(0);
      expect(off.stderr).not.toMatch(/API server/);
    } finally {
      holder.close();
    }
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
    const silent = await quiet([f]);
    expect(silent.stdout).toBe('S');
  });

  test('should report the execution segment and its sequence reduced, as k6 spells them', async () => {
    const f = test.info().outputPath('segment.js');
    writeFileSync(
      f,
      `import exec from 'k6/execution';
export const options = { iterations: 4 };
export function setup() { return [exec.test.options.executionSegment, exec.test.options.executionSegmentSequence]; }
export default function () {}
export function handleSummary(d) { return { stdout: JSON.stringify(d.setup_data) }; }
`,
    );
    const r = await quiet(['--execution-segment', '2/4:3/4', '--execution-segment-sequence', '0,1/4,2/4,3/4,1', f]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(['1/2:3/4', '0,1/4,1/2,3/4,1']);
    const pct = await quiet(['--execution-segment', '0:25%', f]);
    expect(JSON.parse(pct.stdout)).toEqual(['0:1/4', null]);
  });
});

/**
 * The k6 test double behaves like k6 on the command line the harness uses: exit codes (99 when a
 * threshold is crossed, 107 on a script exception, 255 on a bad flag), --summary-export in k6's
 * legacy shape, --out json, -e, execution segments, and arrival-rate schedules.
 */
import { test, expect } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
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
    const r = await k6(['run', '--quiet', '--summary-export', exported, '--out', `json=${json}`, f]);
    expect(r.code, r.stderr).toBe(0);
    type Sub = { values: { count: number }; thresholds: Record<string, { ok: boolean }> };
    const out = JSON.parse(r.stdout) as { steady: Sub; ramp: Sub; segment: string | null };
    // 20/s for 1 s; a ramp from 0 to 20/s over 1 s starts 10.
    expect(out.steady.values.count).toBe(20);
    expect(out.ramp.values.count).toBe(10);
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
      .map((l) => JSON.parse(l) as { metric: string; data: { tags: Record<string, string> } });
    expect(points.filter((p) => p.metric === 'hits')).toHaveLength(30);
    expect(points.find((p) => p.metric === 'hits')?.data.tags.scenario).toMatch(/steady|ramp/);
  });

  test('should exit 99 when a threshold is crossed, 107 on a script exception and 255 on an unknown flag', async () => {
    const f = test.info().outputPath('script.js');
    writeFileSync(f, SCRIPT);
    const broken = test.info().outputPath('broken.js');
    writeFileSync(broken, `export function setup() { throw new Error('no token'); }\nexport default function () {}\n`);
    const [crossed, exception, flag] = await Promise.all([
      k6(['run', '-e', 'STEADY_THRESHOLD=count>1000', f]),
      k6(['run', broken]),
      k6(['run', '--no-such-flag', f]),
    ]);
    expect(crossed.code).toBe(99);
    expect(crossed.stderr).toMatch(/hits\{kind:steady\}.*count>1000/);
    expect(exception.code).toBe(107);
    expect(exception.stderr).toMatch(/setup failed: no token/);
    expect(flag.code).toBe(255);
    expect(flag.stderr).toMatch(/unknown flag: --no-such-flag/);
  });

  test('should scale the work to the execution segment and expose it in exec.test.options', async () => {
    const f = test.info().outputPath('script.js');
    writeFileSync(f, SCRIPT);
    const r = await k6(['run', '--execution-segment', '1/3:2/3', '--execution-segment-sequence', '0,1/3,2/3,1', '-e', 'RATE=30', f]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { segment: string; steady: { values: { count: number } } };
    expect(out.segment).toBe('1/3:2/3');
    expect(out.steady.values.count).toBe(10);
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
    const r = await k6(['run', f]);
    expect(r.code, r.stderr).toBe(0);
    const { done, dropped } = JSON.parse(r.stdout) as { done: number; dropped: number };
    expect(done + dropped).toBe(50);
    // One VU of 100 ms iterations completes about 10 of the 50 in a second.
    expect(done).toBeLessThan(20);
    expect(dropped).toBeGreaterThan(30);
  });
});

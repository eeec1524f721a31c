/** What capacity and smoke say at the end, from hand-made k6 summaries (independent of the double). */
import { test, expect } from '@playwright/test';
import { capacityResult, capacityTable, junitXml, thresholdVerdicts } from '../../load/shared/summary-verdicts';

const data = {
  state: { testRunDurationMs: 10_000 },
  metrics: {
    'http_reqs{operation:a}': { type: 'counter', values: { count: 50, rate: 5 }, thresholds: { 'count>=45': { ok: true } } },
    'http_req_failed{operation:a}': { type: 'rate', values: { rate: 0.1 }, thresholds: { 'rate<0.01': { ok: false } } },
    'http_req_duration{operation:a}': {
      type: 'trend',
      values: { 'p(50)': 2, 'p(95)': 9, 'p(99)': 12 },
      thresholds: { 'p(95)<800': { ok: true } },
    },
    'capacity_429{operation:a}': { type: 'counter', values: { count: 2 }, thresholds: { 'count==0': { ok: false } } },
    checks: { type: 'rate', values: { rate: 1 }, thresholds: { 'rate==1': { ok: true } } },
  },
};

test.describe('end-of-run summaries', () => {
  test('should report per operation the rates, latencies, 429s, other errors and every threshold verdict', () => {
    const r = capacityResult(
      [
        { id: 'a', targetRate: 5, durationSec: 10 },
        { id: 'b', targetRate: 3, durationSec: 10 },
      ],
      data,
    );
    const [a, b] = r.operations;
    expect(a).toMatchObject({ achievedRate: 5, requests: 50, p50Ms: 2, p95Ms: 9, p99Ms: 12, status429: 2, errors: 3, verdict: 'failed' });
    expect(a?.thresholds.filter((t) => !t.ok).map((t) => t.expression)).toEqual(['rate<0.01', 'count==0']);
    // An operation without any evaluated threshold has no verdict: it must not pass.
    expect(b).toMatchObject({ requests: 0, p95Ms: null, verdict: 'failed', thresholds: [] });
    expect(r.verdict).toBe('failed');
    expect(r.thresholds).toEqual([{ metric: 'checks', expression: 'rate==1', ok: true }]);
    expect(capacityTable(r)).toMatch(/^b .*FAILED: no threshold evaluated$/m);
  });

  test('should write one JUnit test case per threshold with a failure for each crossed one', () => {
    const x = junitXml('capacity', data);
    expect(thresholdVerdicts(data)).toHaveLength(5);
    expect(x).toMatch(/<testsuites tests="5" failures="2" time="10.000">/);
    expect(x).toContain(
      '<testcase classname="k6.capacity" name="capacity_429{operation:a}: count==0"><failure message="threshold count==0 on capacity_429{operation:a} crossed"/></testcase>',
    );
    expect(x).toContain('name="checks: rate==1"></testcase>');
  });
});

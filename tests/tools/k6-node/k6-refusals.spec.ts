/**
 * What k6 refuses, the double refuses with k6's exit code and words: thresholds on a metric k6 does not know, with
 * an expression it cannot parse or an aggregation the metric's type lacks (104, before the run starts); scenario
 * configurations its executors refuse (104); metric names its registry refuses, and requests or checks in the init
 * context (107); a metric declared outside the init context (the iteration fails). These tests run on whichever k6
 * K6_BIN names (tests/load/run.ts): on a real k6 they check that the double refuses what k6 refuses.
 */
import { test, expect } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { k6, onDouble } from '../../load/run';

interface Refusal {
  what: string;
  /** The script's options (a JavaScript object literal) and body. */
  options: string;
  body?: string;
  init?: string;
  /** Exported after the default function (setup, handleSummary). */
  exports?: string;
  code: number;
  /** k6 v0.x's exit code where it differs: 255 when it refuses while reading the script's options. */
  v0Code?: number;
  /** k6's words, which the double's message carries too. */
  says: string;
}

const ITERATION = `{ iterations: 1 }`;
const arrival = (fields: string) => `{ scenarios: { a: { executor: 'constant-arrival-rate', ${fields} } } }`;

const REFUSALS: Refusal[] = [
  {
    what: 'thresholds that are not a list',
    options: `{ iterations: 1, thresholds: { iterations: 'count>=1' } }`,
    code: 104,
    v0Code: 255,
    says: 'cannot unmarshal string into Go struct field Options.thresholds',
  },
  {
    what: 'a summary trend statistic k6 does not know',
    options: `{ iterations: 1, summaryTrendStats: ['avg', 'p95'] }`,
    code: 255,
    says: "invalid trend stat 'p95', unknown format",
  },
  {
    what: 'a setupTimeout that is not a duration',
    options: `{ iterations: 1, setupTimeout: 'soon' }`,
    code: 104,
    v0Code: 255,
    says: 'invalid duration "soon"',
  },
  {
    what: 'a threshold on an empty tag filter',
    options: `{ iterations: 1, thresholds: { 'iterations{}': ['count>=1'] } }`,
    code: 104,
    says: 'tag expression is malformed',
  },
  {
    what: 'a scenario tag that is not text',
    options: `{ scenarios: { a: { executor: 'shared-iterations', iterations: 1, tags: { attempt: 1 } } } }`,
    code: 104,
    v0Code: 255,
    says: 'cannot unmarshal number into Go struct field Options.scenarios of type string',
  },
  {
    what: 'a scenario field its executor does not read',
    options: `{ scenarios: { a: { executor: 'shared-iterations', iterations: 1, rate: 1 } } }`,
    code: 104,
    v0Code: 255,
    says: 'json: unknown field "rate"',
  },
  {
    what: 'an arrival rate per 0 s',
    options: arrival(`rate: 1, timeUnit: '0s', duration: '1s', preAllocatedVUs: 1`),
    code: 104,
    says: 'the timeUnit must be more than 0',
  },
  {
    what: 'a per-VU scenario of 0 iterations',
    options: `{ scenarios: { a: { executor: 'per-vu-iterations', vus: 1, iterations: 0 } } }`,
    code: 104,
    says: 'the number of iterations must be more than 0',
  },
  {
    what: 'shared iterations fewer than their VUs',
    options: `{ scenarios: { a: { executor: 'shared-iterations', vus: 5, iterations: 2 } } }`,
    code: 104,
    says: "the number of iterations (2) can't be less than the number of VUs (5)",
  },
  {
    what: 'exec.test.abort() in the init context',
    options: ITERATION,
    init: `import exec from 'k6/execution'; exec.test.abort('no target');`,
    code: 108,
    says: 'test aborted: no target',
  },
  {
    what: 'exec.test.abort() in an iteration',
    options: ITERATION,
    init: `import exec from 'k6/execution';`,
    body: `exec.test.abort('no target');`,
    code: 108,
    says: 'test aborted: no target',
  },
  {
    what: 'a group in the init context',
    options: ITERATION,
    init: `import { group } from 'k6'; group('g', () => {});`,
    code: 107,
    says: 'Using group() in the init context is not supported',
  },
  {
    what: 'a summary output other than text (nothing written, the exit code kept)',
    options: ITERATION,
    exports: `export function handleSummary() { return { stdout: { table: 1 } }; }`,
    code: 0,
    says: 'it needs to be a string or ArrayBuffer',
  },
  {
    what: 'a threshold on a metric the script never declares',
    options: `{ iterations: 1, thresholds: { 'capacity_429{operation:orders.create}': ['count==0'] } }`,
    code: 104,
    says: 'no metric name "capacity_429{operation:orders.create}" found',
  },
  {
    what: 'a threshold aggregation the metric type lacks',
    options: `{ iterations: 1, thresholds: { http_req_duration: ['rate<0.01'] } }`,
    code: 104,
    says: 'unsupported aggregation method rate on metric of type trend',
  },
  {
    what: 'a threshold expression k6 cannot parse',
    options: `{ iterations: 1, thresholds: { iterations: ['count>=many'] } }`,
    code: 104,
    says: '"count>=many"',
  },
  {
    what: 'a scenario named after an operation id (a dot)',
    options: `{ scenarios: { 'orders.create': { executor: 'shared-iterations', iterations: 1 } } }`,
    code: 104,
    says: 'name should contain only numbers, latin letters, underscores, and dashes',
  },
  {
    what: 'an arrival-rate scenario without preAllocatedVUs',
    options: arrival(`rate: 1, duration: '1s'`),
    code: 104,
    says: "the number of preAllocatedVUs isn't specified",
  },
  {
    what: 'a constant arrival rate without a duration',
    options: arrival(`rate: 1, preAllocatedVUs: 1`),
    code: 104,
    says: 'the duration is unspecified',
  },
  {
    what: 'a constant arrival rate of 0',
    options: arrival(`rate: 0, duration: '1s', preAllocatedVUs: 1`),
    code: 104,
    says: 'the iteration rate must be more than 0',
  },
  {
    what: 'fewer maxVUs than preAllocatedVUs',
    options: arrival(`rate: 1, duration: '1s', preAllocatedVUs: 2, maxVUs: 1`),
    code: 104,
    says: "maxVUs can't be less than preAllocatedVUs",
  },
  {
    what: 'a metric name with a dash',
    options: ITERATION,
    init: `import { Counter } from 'k6/metrics'; new Counter('capacity-429');`,
    code: 107,
    says: "Invalid metric name: 'capacity-429'",
  },
  {
    what: 'a request in the init context',
    options: ITERATION,
    init: `import http from 'k6/http'; http.get('http://127.0.0.1:9/');`,
    code: 107,
    says: 'Making http requests in the init context is not supported',
  },
  {
    what: 'a check in the init context',
    options: ITERATION,
    init: `import { check } from 'k6'; check(1, { one: (v) => v === 1 });`,
    code: 107,
    says: 'Using check() in the init context is not supported',
  },
  {
    what: 'a metric declared in an iteration (the iteration fails, the run does not)',
    options: ITERATION,
    init: `import { Counter } from 'k6/metrics';`,
    body: `new Counter('late').add(1);`,
    code: 0,
    says: 'metrics must be declared in the init context',
  },
];

/** Runs a script of these parts, quiet and without k6's REST API; its stderr with k6's log quoting undone (`\"` is `"`). */
async function runScript(name: string, r: Pick<Refusal, 'options' | 'init' | 'body' | 'exports'>) {
  const f = test.info().outputPath(`${name}.js`);
  writeFileSync(
    f,
    `${r.init ?? ''}\nexport const options = ${r.options};\nexport default function () { ${r.body ?? ''} }\n${r.exports ?? ''}\n`,
  );
  const ran = await k6(['run', '-q', '--address', '', f]);
  return { ...ran, stderr: ran.stderr.replaceAll('\\"', '"') };
}

/** Whether the k6 under test is a k6 v0.x (the double speaks as k6 v1 and later). */
async function isK6V0(): Promise<boolean> {
  if (onDouble()) return false;
  return /\bv0\./.test((await k6(['version'])).stdout);
}

test.describe('the k6 test double refuses what k6 refuses', () => {
  for (const [i, r] of REFUSALS.entries()) {
    test(`should refuse ${r.what} with exit ${r.code}, in k6's words`, async () => {
      const ran = await runScript(`refused-${i}`, r);
      expect(ran.code, ran.stderr).toBe((await isK6V0()) ? (r.v0Code ?? r.code) : r.code);
      expect(ran.stderr).toContain(r.says);
    });
  }

  test("should refuse an -e variable name k6 does not allow with exit 255, and read -e NAME alone as NAME set to ''", async () => {
    const f = test.info().outputPath('env.js');
    writeFileSync(
      f,
      `export const options = { iterations: 1, thresholds: { iterations: ['count==1'] } };\nexport default function () { if (__ENV.ALONE !== '') throw new Error('ALONE ' + __ENV.ALONE); }\n`,
    );
    for (const name of ['A-B', '1A']) {
      const refused = await k6(['run', '-q', '--address', '', '-e', `${name}=x`, f]);
      expect(refused.code, refused.stderr).toBe(255);
      expect(refused.stderr).toContain(`invalid environment variable name '${name}'`);
    }
    const alone = await k6(['run', '-q', '--address', '', '--include-system-env-vars=false', '-e', 'ALONE', f]);
    expect(alone.code, alone.stderr).toBe(0);
  });

  test('should run what k6 runs: thresholds on built-in and declared metrics and their tag-filtered submetrics, a p(99.9), __VU and __ITER', async () => {
    const ran = await runScript('accepted', {
      init: `import { Counter } from 'k6/metrics'; const c = new Counter('capacity_429'); if (typeof __VU !== 'number') throw new Error('__VU ' + __VU);`,
      body: `if (__VU !== 1 || __ITER !== 0) throw new Error('__VU ' + __VU + ' __ITER ' + __ITER);`,
      options: `{ iterations: 1, thresholds: { capacity_429: ['count==0'], 'iterations{scenario:default}': ['count>=1'], iteration_duration: ['p(99.9)<60000', 'med<60000'], checks: ['rate>=0'], iterations: ['count==1'] } }`,
    });
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).not.toMatch(/__VU|__ITER/);
  });
});

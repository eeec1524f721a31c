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
  code: number;
  /** k6's words, which the double's message carries too. */
  says: string;
}

const ITERATION = `{ iterations: 1 }`;
const arrival = (fields: string) => `{ scenarios: { a: { executor: 'constant-arrival-rate', ${fields} } } }`;

const REFUSALS: Refusal[] = [
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
async function runScript(name: string, r: Pick<Refusal, 'options' | 'init' | 'body'>) {
  const f = test.info().outputPath(`${name}.js`);
  writeFileSync(f, `${r.init ?? ''}\nexport const options = ${r.options};\nexport default function () { ${r.body ?? ''} }\n`);
  const ran = await k6(['run', '-q', '--address', '', f]);
  return { ...ran, stderr: ran.stderr.replaceAll('\\"', '"') };
}

test.describe('the k6 test double refuses what k6 refuses', () => {
  for (const [i, r] of REFUSALS.entries()) {
    test(`should refuse ${r.what} with exit ${r.code}, in k6's words`, async () => {
      const ran = await runScript(`refused-${i}`, r);
      expect(ran.code, ran.stderr).toBe(r.code);
      expect(ran.stderr).toContain(r.says);
    });
  }

  test('should refuse a scenario field k6 does not read, as Go decodes JSON', async () => {
    const ran = await runScript('unknown-field', {
      options: `{ scenarios: { a: { executor: 'shared-iterations', iterations: 1, rate: 1 } } }`,
    });
    // k6 v1 and later exit 104 (invalid configuration), k6 v0.x 255 (command-line error); the double as k6 v1.
    if (onDouble()) expect(ran.code, ran.stderr).toBe(104);
    else expect([104, 255], ran.stderr).toContain(ran.code);
    expect(ran.stderr).toContain('json: unknown field "rate"');
  });

  test('should run what k6 runs: thresholds on built-in and declared metrics and their tag-filtered submetrics, a p(99.9)', async () => {
    const ran = await runScript('accepted', {
      init: `import { Counter } from 'k6/metrics'; const c = new Counter('capacity_429');`,
      options: `{ iterations: 1, thresholds: { capacity_429: ['count==0'], 'iterations{scenario:default}': ['count>=1'], iteration_duration: ['p(99.9)<60000', 'med<60000'], checks: ['rate>=0'] } }`,
    });
    expect(ran.code, ran.stderr).toBe(0);
  });
});

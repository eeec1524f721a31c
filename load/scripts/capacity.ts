/**
 * capacity: a constant arrival rate per selected operation at a fraction of its limit, with
 * per-operation thresholds: p95 latency, failure rate, no 429 (the rate stays under the limit) and
 * the achieved rate at least 90 % of the target. Requests are tagged by operation id so thresholds
 * and summaries are per endpoint. In a distributed run k6 splits each scenario's rate between the
 * runners by their execution segments.
 */
import http from 'k6/http';
import { Counter } from 'k6/metrics';
import exec from 'k6/execution';
import { SHAPES } from '../lib/load-shapes';
import { capacityPlan } from '../lib/capacity-plan';
import { notRunLines, notRunOf, plan } from '../plan/run-plan';
import { fetchTokens, requestOf, type Tokens } from '../shared/requests';
import { runLengthMs } from '../plan/run-length';
import { capacityResult, capacityTable, junitXml, opKey, type CapacityTarget } from '../shared/summary-verdicts';

const p = plan();
const shape = SHAPES.average;
const fraction = p.fraction ?? shape.fraction;
const duration = p.duration ?? shape.duration;
const status429 = new Counter('capacity_429');

// Exact shares of each limit (k6's rate per timeUnit): `npm run load` printed the same plan and its warnings.
const planned = capacityPlan(
  p.operations.map((op) => ({ id: op.id, family: op.family, limit: op.catalogueLimit })),
  { windowMs: p.windowMs, fraction, durationMs: runLengthMs(duration) },
);
const targets: CapacityTarget[] = planned.operations.map((o) => ({
  id: o.id,
  targetRate: o.perSecond,
  durationSec: o.durationMs / 1000,
}));

const scenarios: Record<string, object> = {};
const thresholds: Record<string, string[]> = {};
for (const o of planned.operations) {
  scenarios[o.id.replace(/[^A-Za-z0-9_]/g, '_')] = {
    executor: 'constant-arrival-rate',
    rate: o.rate,
    timeUnit: `${o.timeUnitMs}ms`,
    duration,
    preAllocatedVUs: 2,
    maxVUs: 10,
    exec: 'hit',
    env: { OPERATION: o.id },
    tags: { operation: o.id },
  };
  thresholds[opKey('http_req_duration', o.id)] = [`p(95)<${shape.p95Ms}`];
  thresholds[opKey('http_req_failed', o.id)] = [`rate<${shape.maxFailureRate}`];
  thresholds[opKey('capacity_429', o.id)] = ['count==0'];
  // The achieved rate: at least 90 % of the calls due within the duration were sent and answered.
  thresholds[opKey('http_reqs', o.id)] = [`count>=${Math.max(1, Math.floor((0.9 * o.durationMs * o.rate) / o.timeUnitMs))}`];
}

export const options = { scenarios, thresholds, summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(50)', 'p(95)', 'p(99)', 'count'] };

export function setup(): Tokens {
  return fetchTokens(p);
}

export function hit(tokens: Tokens): void {
  const op = p.operations.find((o) => o.id === __ENV.OPERATION);
  if (!op) throw new Error(`unknown operation ${__ENV.OPERATION} in scenario ${exec.scenario.name}`);
  const [method, url, body, params] = requestOf(p, op, tokens);
  const res = http.request(method, url, body, params);
  // Added on every request, so the 429 threshold is evaluated on real samples.
  status429.add(res.status === 429 ? 1 : 0, { operation: op.id });
}

export function handleSummary(data: Record<string, unknown>): Record<string, string> {
  const { setup_data: _tokens, ...rest } = data;
  const result = capacityResult(targets, rest);
  const file = `${p.outDir}/capacity.json`;
  return {
    [file]: JSON.stringify(
      { ...result, ...notRunOf(p), target: p.baseUrl, environment: p.environment, fraction, duration, metrics: rest.metrics },
      null,
      2,
    ),
    [`${p.outDir}/capacity-junit.xml`]: junitXml('capacity', rest),
    stdout: `\ncapacity: ${targets.length} operations at ${fraction * 100} % of their limits for ${duration}: ${result.verdict.toUpperCase()}\n${[capacityTable(result), ...notRunLines(p)].join('\n')}\ncapacity: result ${file}\n`,
  };
}

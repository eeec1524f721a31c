/**
 * capacity: a constant arrival rate per selected operation at a fraction of its limit, with
 * per-operation thresholds (p95 latency, failure rate, no unexpected 429). Requests are tagged by
 * operation id so thresholds and summaries are per endpoint.
 */
import http from 'k6/http';
import { Counter } from 'k6/metrics';
import exec from 'k6/execution';
import { arrivalRate, SHAPES } from '../lib/shapes';
import { fetchTokens, plan, requestOf, stamp, type Tokens } from './common';

const p = plan();
const shape = SHAPES.average;
const fraction = p.fraction ?? shape.fraction;
const duration = p.duration ?? shape.duration;
const unexpected429 = new Counter('unexpected_429');

const scenarios: Record<string, object> = {};
const thresholds: Record<string, string[]> = {};
for (const op of p.operations) {
  const key = op.id.replace(/[^A-Za-z0-9_]/g, '_');
  scenarios[key] = {
    executor: 'constant-arrival-rate',
    rate: arrivalRate(op.catalogueLimit, p.windowMs, fraction),
    timeUnit: '1s',
    duration,
    preAllocatedVUs: 2,
    maxVUs: 10,
    exec: 'hit',
    env: { OPERATION: op.id },
    tags: { operation: op.id },
  };
  thresholds[`http_req_duration{operation:${op.id}}`] = [`p(95)<${shape.p95Ms}`];
  thresholds[`http_req_failed{operation:${op.id}}`] = [`rate<${shape.maxFailureRate}`];
  thresholds[`unexpected_429{operation:${op.id}}`] = ['count==0'];
}

export const options = { scenarios, thresholds };

export function setup(): Tokens {
  return fetchTokens(p);
}

export function hit(tokens: Tokens): void {
  const op = p.operations.find((o) => o.id === __ENV.OPERATION);
  if (!op) throw new Error(`unknown operation ${__ENV.OPERATION} in scenario ${exec.scenario.name}`);
  const [method, url, body, params] = requestOf(p, op, tokens);
  const res = http.request(method, url, body, params);
  if (res.status === 429) unexpected429.add(1, { operation: op.id });
}

export function handleSummary(data: Record<string, unknown>): Record<string, string> {
  const { setup_data: _tokens, ...rest } = data;
  return { [`${p.outDir}/capacity-${stamp()}.json`]: JSON.stringify(rest, null, 2), stdout: 'capacity: summary written\n' };
}

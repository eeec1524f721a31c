/** smoke: one valid call per selected operation. */
import http from 'k6/http';
import { check } from 'k6';
import { fetchTokens, plan, requestOf, stamp, type Tokens } from './common';

export const options = { vus: 1, iterations: 1, thresholds: { checks: ['rate==1'] } };

export function setup(): Tokens {
  return fetchTokens(plan());
}

export default function (tokens: Tokens): void {
  const p = plan();
  for (const op of p.operations) {
    const [method, url, body, params] = requestOf(p, op, tokens);
    const res = http.request(method, url, body, params);
    check(res, { [`${op.id} answers 2xx`]: (r) => r.status >= 200 && r.status < 300 }, { operation: op.id });
  }
}

export function handleSummary(data: Record<string, unknown>): Record<string, string> {
  const out = plan().outDir;
  const { setup_data: _tokens, ...rest } = data;
  return {
    [`${out}/smoke-${stamp()}.json`]: JSON.stringify(rest, null, 2),
    stdout: `smoke: ${JSON.stringify((rest.metrics as Record<string, unknown> | undefined)?.checks ?? {})}\n`,
  };
}

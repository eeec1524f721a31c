/** smoke: one valid call per selected operation; the checks must all pass. */
import http from 'k6/http';
import { check } from 'k6';
import { notRunLines, notRunOf, plan, stamp } from '../plan/run-plan';
import { fetchTokens, requestOf, type Tokens } from '../shared/requests';
import { junitXml, thresholdVerdicts } from '../shared/summary-verdicts';

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
  const p = plan();
  const out = p.outDir;
  const { setup_data: _tokens, ...rest } = data;
  const checks = (rest.metrics as Record<string, { values: { passes?: number; fails?: number } }> | undefined)?.checks?.values ?? {};
  const verdicts = thresholdVerdicts(rest);
  return {
    [`${out}/smoke-${stamp()}.json`]: JSON.stringify({ ...rest, ...notRunOf(p) }, null, 2),
    [`${out}/smoke-junit.xml`]: junitXml('smoke', rest),
    stdout: `smoke: ${checks.passes ?? 0} checks passed, ${checks.fails ?? 0} failed; ${verdicts.map((v) => `${v.ok ? 'ok' : 'FAILED'} ${v.metric} ${v.expression}`).join('; ')}\n${notRunLines(
      p,
    )
      .map((l) => `${l}\n`)
      .join('')}`,
  };
}

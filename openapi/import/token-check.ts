/** The document's token endpoints checked against the spec's (method, form body, response field types). */
import { findingDefinition, tokenEndpoints } from '../../catalogue';
import type { Finding } from '../../reporting/report-shapes';
import { jsonOf } from './document-shapes';
import type { OperationObject } from '../openapi-objects';
import { toJsonSchema } from './json-schema';

export function checkToken(path: string, method: string, o: OperationObject, version: string, out: Finding[]): void {
  const family = path.includes('oauth30') ? 'vendor' : 'reseller';
  const ep = tokenEndpoints[family];
  const methodDef = findingDefinition('openapi.token-method');
  const form = Object.keys(o.requestBody?.content ?? {}).some((ct) => ct.startsWith(ep.contentType));
  const methodOk = method.toUpperCase() === ep.method && form;
  const query = (o.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
  out.push({
    id: `openapi.token-method@${family}`,
    statement: methodDef.statement,
    observed: methodOk ? 'agrees' : 'differs',
    evidence: `document: ${method.toUpperCase()} ${path} with ${Object.keys(o.requestBody?.content ?? {}).join(', ') || (query.length ? `query parameters ${query.join(', ')}` : 'no body')}`,
    family,
  });
  const json = jsonOf(o.responses?.['200']?.content);
  if (!json?.schema) return;
  const s = toJsonSchema(json.schema, version) as { properties?: Record<string, { type?: unknown }> };
  const want: Record<string, string> = { access_token: 'string', token_type: 'string', expires_in: 'integer' };
  const diffs = Object.entries(want)
    .filter(([k, t]) => {
      const got = s.properties?.[k]?.type;
      const types = Array.isArray(got) ? got : [got];
      return got !== undefined && !types.includes(t);
    })
    .map(([k, t]) => `${k}: document says ${JSON.stringify(s.properties?.[k]?.type)}, spec says ${t}`);
  out.push({
    id: `openapi.token-response@${family}`,
    statement: findingDefinition('openapi.token-response').statement,
    observed: diffs.length ? 'differs' : 'agrees',
    evidence: diffs.join('; ') || 'field types agree',
    family,
  });
}

/**
 * Drives every operation the distributor's published document shares with the seed through the
 * mock with a request built from the document: its path, its parameters (required ones, values
 * from the mock's data where an id is needed), its required headers, and a body that validates
 * against its request schema (one of its own examples when one does, else ours). Every answer must
 * be 2xx and validate against the document's response schema, required fields included.
 *
 * The document's path comes from VENDOR_OPENAPI (`.ci/run` sets it); without it the tests are skipped. The
 * distributor publishes a JSON form beside it that is not the same document (`npm run openapi -- diff`):
 * VENDOR_OPENAPI_JSON names it, and the same tests run on it too (skipped with the reason when unset).
 */
import { test, expect } from '@playwright/test';
import { operationsFor, fillPath, IM_HEADER_CONSTRAINTS, type Operation } from '../../catalogue';
import { knownIds, requestFor } from '../../fixtures';
import { DEFAULT_SEED } from '../../fixtures/build-world';
import { IM_HEADER_VARIABLES } from '../../config/headers';
import { newCorrelationId } from '../../clients/http';
import { signatureHeaders } from '../../clients/webhook-signature';
import { loadOpenApi } from '../../openapi/import';
import type { OpenApiContract } from '../../openapi/import/openapi-contract';
import { buildMockApp } from '../../mock';

/** The published forms, by the variable that names each. */
const FORMS = [
  { variable: 'VENDOR_OPENAPI', form: 'YAML', file: process.env.VENDOR_OPENAPI },
  { variable: 'VENDOR_OPENAPI_JSON', form: 'JSON', file: process.env.VENDOR_OPENAPI_JSON },
] as const;

/** Mock defaults of the IM-* headers, by header name (lower case). */
const IM_VALUES = Object.fromEntries(Object.values(IM_HEADER_VARIABLES).map((v) => [v.header.toLowerCase(), v.mockDefault]));

function sampleValue(schema: Record<string, unknown> | undefined, example: unknown): string {
  if (example !== undefined && typeof example !== 'object') return String(example);
  const type = Array.isArray(schema?.type) ? schema?.type[0] : schema?.type;
  if (Array.isArray(schema?.enum) && schema.enum.length) return String(schema.enum[0]);
  return type === 'boolean' ? 'true' : type === 'integer' || type === 'number' ? '1' : 'certification';
}

type Schema = { properties?: Record<string, Schema>; items?: Schema; allOf?: Schema[]; oneOf?: Schema[]; anyOf?: Schema[] };

/**
 * Fields of an answer (every key at every depth) and how many of them the schema declares: what a
 * client generated from the document keeps of the answer.
 */
export function declaredFields(schema: Schema | undefined, value: unknown): { fields: number; declared: number } {
  let fields = 0;
  let declared = 0;
  const walk = (s: Schema | undefined, v: unknown): void => {
    const parts = s ? [s, ...(s.allOf ?? []), ...(s.oneOf ?? []).slice(0, 1), ...(s.anyOf ?? []).slice(0, 1)] : [];
    if (Array.isArray(v)) {
      const items = parts.find((p) => p.items)?.items;
      for (const x of v) walk(items, x);
      return;
    }
    if (!v || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      fields += 1;
      const sub = parts.find((p) => p.properties?.[k])?.properties?.[k];
      if (sub) declared += 1;
      walk(sub, x);
    }
  };
  walk(schema, value);
  return { fields, declared };
}

/**
 * A body with each top-level object the document's request schema types as an array wrapped in a one-element
 * array (the JSON form's freight `shipToAddress`): what a client generated from that form sends.
 */
function wrappedAsArrays(c: OpenApiContract, operationId: string, body: unknown): unknown {
  if (!body || typeof body !== 'object') return body;
  const out: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const line of c.validateRequest(operationId, body)) {
    const name = /^\/([^/]+): must be array$/.exec(line)?.[1];
    if (name && out[name] && typeof out[name] === 'object') out[name] = [out[name]];
  }
  return out;
}

/** The document's request for an operation, with the mock's ids where the operation needs one. */
function documentRequest(c: OpenApiContract, op: Operation) {
  const documented = c.documentedPath(op.id) as { method: string; path: string };
  const ours = requestFor(op, DEFAULT_SEED, 0, knownIds(DEFAULT_SEED));
  const params = c.parameters(op.id);
  // Path parameters in the document's spelling, filled by position with the mock's ids.
  const pathNames = [...documented.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
  const path = fillPath(documented.path, Object.fromEntries(pathNames.map((n, i) => [n, ours.params[op.pathParams[i] as string] ?? ''])));
  const query: Record<string, string> = {};
  const headers: Record<string, string> = {};
  // A documented optional query parameter our request fills is sent too (product details by reference asks by one of three).
  for (const p of params.filter((x) => x.in === 'query' && !x.required && ours.query[x.name] !== undefined))
    query[p.name] = ours.query[p.name] as string;
  for (const p of params.filter((x) => x.required)) {
    if (p.in === 'query') query[p.name] = ours.query[p.name] ?? sampleValue(p.schema, p.example);
    if (p.in === 'header') {
      const lower = p.name.toLowerCase();
      headers[p.name] = lower === 'im-correlationid' ? newCorrelationId() : (IM_VALUES[lower] ?? sampleValue(p.schema, p.example));
    }
  }
  const doc = c.request(op.id);
  let body: unknown;
  let bodySource = 'none';
  if (doc) {
    const candidates: [string, unknown][] = [
      ...(doc.example !== undefined ? [["the document's example", doc.example] as [string, unknown]] : []),
      ['the catalogue request', ours.body ?? {}],
      ['the catalogue request, objects the document types as arrays wrapped in one', wrappedAsArrays(c, op.id, ours.body ?? {})],
    ];
    const valid = candidates.find(([, b]) => c.validateRequest(op.id, b).length === 0);
    expect
      .soft(valid, `${op.id}: no body valid against the document's request schema: ${c.validateRequest(op.id, ours.body).join('; ')}`)
      .toBeDefined();
    if (!valid) return undefined;
    [bodySource, body] = valid;
  }
  // The signature is the event's, with the demo reseller app's webhook secret (the document's example signs another event).
  if (params.some((p) => p.in === 'header' && p.name.toLowerCase() === 'x-hub-signature'))
    Object.assign(headers, signatureHeaders(body, 'demo-reseller-webhook-secret'));
  return { method: documented.method, path, query, headers, body, bodySource };
}

for (const { variable, form, file: DOC } of FORMS) {
  test.describe(`the published document (${form} form) through the mock`, () => {
    test("should answer every shared operation 2xx with a body valid against the document's response schema", async () => {
      test.skip(
        !DOC,
        `${variable} is not set: give the path of the ${form} form of the distributor's published OpenAPI document (\`.ci/run\` sets it)`,
      );
      test.setTimeout(60_000);
      const c = await loadOpenApi(DOC as string);
      const shared = operationsFor({ families: ['reseller'] }).filter((o) => c.documentedPath(o.id));
      expect(shared.length, 'the document shares operations with the seed').toBeGreaterThan(20);
      const app = await buildMockApp({ control: true });
      // The token as the document asks for it: GET with query parameters.
      const t = await app.inject({
        method: 'GET',
        url: '/oauth/oauth20/token?grant_type=client_credentials&client_id=demo-reseller&client_secret=demo-reseller-secret',
      });
      expect(t.statusCode, t.body).toBe(200);
      const token = (JSON.parse(t.body) as { access_token: string }).access_token;
      const report: string[] = [];
      for (const op of shared) {
        await app.inject({ method: 'POST', url: '/__mock/reset' });
        const again = await app.inject({
          method: 'GET',
          url: '/oauth/oauth20/token?grant_type=client_credentials&client_id=demo-reseller&client_secret=demo-reseller-secret',
        });
        const tok = again.statusCode === 200 ? (JSON.parse(again.body) as { access_token: string }).access_token : token;
        // Each operation is checked on its own (soft): one the document refuses does not hide the others.
        const r = documentRequest(c, op);
        if (!r) continue;
        const q = new URLSearchParams(r.query).toString();
        const res = await app.inject({
          method: r.method as 'GET',
          url: `${r.path}${q ? `?${q}` : ''}`,
          headers: {
            ...r.headers,
            authorization: `Bearer ${tok}`,
            ...(r.body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          ...(r.body !== undefined ? { payload: JSON.stringify(r.body) } : {}),
        });
        expect.soft(res.statusCode, `${op.id} ${r.method} ${r.path}: ${res.body.slice(0, 500)}`).toBeGreaterThanOrEqual(200);
        expect.soft(res.statusCode, `${op.id} ${r.method} ${r.path}: ${res.body.slice(0, 500)}`).toBeLessThan(300);
        if (res.statusCode >= 300) continue;
        const answer: unknown = res.body ? JSON.parse(res.body) : undefined;
        const v = c.validateResponse(op.id, res.statusCode, answer);
        expect.soft(v.errors, `${op.id}: the answer matches the document's ${res.statusCode} schema`).toEqual([]);
        // A client generated from the document keeps the fields its schema declares: at least 90 % of ours.
        const kept = declaredFields(c.responseSchema(op.id) as Schema | undefined, answer);
        if (v.validated && kept.fields) {
          expect
            .soft(kept.declared / kept.fields, `${op.id}: ${kept.declared} of ${kept.fields} answer fields are declared by the document`)
            .toBeGreaterThanOrEqual(0.9);
        }
        report.push(
          `${op.id}: ${res.statusCode}, body from ${r.bodySource}, ${v.validated ? `validated, ${kept.declared}/${kept.fields} fields declared` : 'no documented schema'}`,
        );
      }
      test.info().annotations.push({ type: 'document-operations', description: report.join('\n') });
      await app.close();
    });

    // The mock enforces each operation's own (catalogue/request-constraints.ts, tests/openapi/request-schemas.spec.ts).
    test("should hold the document's strictest IM-* header constraints, which the harness's configured values keep", async () => {
      test.skip(
        !DOC,
        `${variable} is not set: give the path of the ${form} form of the distributor's published OpenAPI document (\`.ci/run\` sets it)`,
      );
      const c = await loadOpenApi(DOC as string);
      const seen = new Map<string, Set<string>>();
      for (const m of c.coverage().mapped) {
        for (const p of c.parameters(m.operationId).filter((x) => x.in === 'header' && /^im-/i.test(x.name))) {
          const name = Object.keys(IM_HEADER_CONSTRAINTS).find((h) => h.toLowerCase() === p.name.toLowerCase());
          expect(name, `${m.operationId}: the catalogue constrains ${p.name}`).toBeDefined();
          const s = p.schema ?? {};
          const documented = JSON.stringify({ minLength: s.minLength, maxLength: s.maxLength, pattern: s.pattern, enum: s.enum });
          // Some operations list IM-CustomerNumber without its maxLength: only the constrained ones are compared.
          if (s.maxLength === undefined) continue;
          const set = seen.get(name as string) ?? new Set<string>();
          seen.set(name as string, set.add(documented));
        }
      }
      // Operations may constrain a header less (IM-CountryCode: maxLength 10 on vendor required info): the catalogue
      // holds the document's strictest constraint, which every operation's own accepts.
      for (const [name, documented] of seen) {
        const c0 = IM_HEADER_CONSTRAINTS[name as keyof typeof IM_HEADER_CONSTRAINTS];
        const ours = JSON.stringify({ minLength: c0.minLength, maxLength: c0.maxLength, pattern: c0.pattern, enum: c0.enum });
        expect([...documented], `${name}: the catalogue's constraint is one the document gives`).toContain(ours);
        for (const d of [...documented].map((x) => JSON.parse(x) as typeof c0)) {
          expect(c0.maxLength ?? Infinity, `${name} maxLength within ${JSON.stringify(d)}`).toBeLessThanOrEqual(d.maxLength ?? Infinity);
          expect(c0.minLength ?? 0, `${name} minLength within ${JSON.stringify(d)}`).toBeGreaterThanOrEqual(d.minLength ?? 0);
          if (d.pattern !== undefined || d.enum !== undefined)
            expect({ p: c0.pattern, e: c0.enum }, name).toEqual({ p: d.pattern, e: d.enum });
        }
      }
      expect(seen.size, 'every constrained IM-* header of the document').toBe(Object.keys(IM_HEADER_CONSTRAINTS).length);
    });
  });
}

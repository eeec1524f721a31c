/**
 * The mock is the document, both ways (docs/mock.md, "The mock is the document"): the values the published forms
 * both refuse are refused with 400 naming the location, the values either allows are served. The examples a
 * property-based tester found, then a seeded slice of the document fuzz (document-fuzz.ts; the long suite runs
 * every constraint: document-fuzz-long.spec.ts).
 */
import { test, expect } from '@playwright/test';
import { allOperations, operationById, requestConstraintsOf, type Operation } from '../../catalogue';
import { requestFor } from '../../fixtures';
import { loadOpenApi } from '../../openapi/import';
import { VIOLATIONS_HEADER, type Violation } from '../../mock/checks/request-violations';
import { app, authed, token, webhookHeaders } from './helpers';
import { readOpenApiDocument } from '../../openapi/read-document';
import { fuzzSummary, pathFuzzSummary, runDocumentFuzz, runPathFuzz, type DocumentPaths } from './document-fuzz';

const JSON_CT = { 'content-type': 'application/json' };

/** A call of an operation: the catalogue's valid request, with the query, headers and body changed as given. */
async function call(
  a: Awaited<ReturnType<typeof app>>,
  t: string,
  id: string,
  change: { query?: Record<string, string>; headers?: Record<string, string | null>; body?: (b: Record<string, unknown>) => unknown } = {},
) {
  const op = operationById(id);
  const base = requestFor(op);
  const q = new URLSearchParams({ ...base.query, ...(change.query ?? {}) }).toString();
  const path = op.path.replace(/\{([^}]+)\}/g, (_, n: string) => encodeURIComponent(base.params[n] ?? 'x'));
  const body = op.jsonBody ? (change.body ? change.body(structuredClone(base.body) as Record<string, unknown>) : base.body) : undefined;
  const webhook = op.webhook ? webhookHeaders(body) : {};
  // By lower-case name, so a change replaces the header whatever its spelling; a header given null is left out.
  const given = { ...authed(t), ...webhook, ...(op.jsonBody ? JSON_CT : {}), ...(change.headers ?? {}) };
  const byName = new Map(Object.entries(given).map(([name, value]) => [name.toLowerCase(), value]));
  const headers = Object.fromEntries([...byName].filter((e): e is [string, string] => e[1] !== null));
  return a.inject({
    method: op.method,
    url: `${path}${q ? `?${q}` : ''}`,
    headers,
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

/**
 * The required headers of an operation the catalogue gives no minLength, pattern or enum (what either published form
 * allows, catalogue/request-constraints.ts): an empty value keeps every rule either form gives them. The webhook
 * signature aside: its value is judged against the event (401), not by the document's schema.
 */
function requiredWithoutMinimum(op: Operation): string[] {
  const headers = requestConstraintsOf(op.id)?.headers ?? {};
  return op.requiredHeaders.filter((name) => {
    const node = Object.entries(headers).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1] ?? {};
    return name !== 'x-hub-signature' && !node.minLength && node.pattern === undefined && node.enum === undefined;
  });
}

const fieldsOf = (body: string): (string | null)[] =>
  (JSON.parse(body) as { errors: { field: string | null }[] }).errors.map((e) => e.field);

/** Values both published forms refuse: 400, the error naming where. */
const REFUSED: readonly { what: string; id: string; change: Parameters<typeof call>[3]; field: string }[] = [
  {
    what: 'a customerOrderNumber of 36 characters (at most 35)',
    id: 'orders.create',
    change: { body: (b) => ({ ...b, customerOrderNumber: 'C'.repeat(36) }) },
    field: 'customerOrderNumber',
  },
  {
    what: 'lines[].endUserPrice an object (a number)',
    id: 'orders.create',
    change: { body: (b) => ({ ...b, lines: (b.lines as object[]).map((l) => ({ ...l, endUserPrice: {} })) }) },
    field: 'lines.0.endUserPrice',
  },
  {
    what: 'a v7 customerOrderNumber of 19 characters (at most 18)',
    id: 'orders.createV7',
    change: { body: (b) => ({ ...b, customerOrderNumber: 'C'.repeat(19) }) },
    field: 'customerOrderNumber',
  },
  {
    what: 'endUserInfo.name1 an object (a string)',
    id: 'orders.create',
    change: { body: (b) => ({ ...b, endUserInfo: { name1: {} } }) },
    field: 'endUserInfo.name1',
  },
  {
    what: 'shipToAddress.addressLine3 an object (a string)',
    id: 'freight.estimate',
    change: { body: (b) => ({ ...b, shipToAddress: { ...(b.shipToAddress as object), addressLine3: {} } }) },
    field: 'shipToAddress.addressLine3',
  },
  { what: 'pageSize=AAA (an int32)', id: 'invoices.search', change: { query: { pageSize: 'AAA' } }, field: 'pageSize' },
  {
    what: 'a serialNumber of 33 characters (at most 32)',
    id: 'invoices.search',
    change: { query: { serialNumber: 'S'.repeat(33) } },
    field: 'serialNumber',
  },
  { what: 'Size=AAA (an int32)', id: 'deals.search', change: { query: { Size: 'AAA' } }, field: 'Size' },
  {
    what: 'includePricing=AAA (a boolean)',
    id: 'catalog.priceAndAvailability',
    change: { query: { includePricing: 'AAA' } },
    field: 'includePricing',
  },
  {
    what: 'simulateStatus=AAA (not in its enum)',
    id: 'orders.details',
    change: { query: { simulateStatus: 'AAA' } },
    field: 'simulateStatus',
  },
];

/** Values a published form allows that one rule for every route once refused. */
const SERVED: readonly { what: string; id: string; change: Parameters<typeof call>[3] }[] = [
  {
    what: 'IM-CountryCode USA on vendor required info (at most 10, no minimum)',
    id: 'orders.vendorRequiredInfo',
    change: { headers: { 'IM-CountryCode': 'USA' } },
  },
  { what: 'IM-CountryCode U on vendor required info', id: 'orders.vendorRequiredInfo', change: { headers: { 'IM-CountryCode': 'U' } } },
  {
    what: 'IM-CustomerNumber of 11 characters on order cancel (unbounded there)',
    id: 'orders.cancel',
    change: { headers: { 'IM-CustomerNumber': '20-22222222' } },
  },
];

test.describe('the mock against the published documents', () => {
  test('should refuse with 400 naming the location each value both forms refuse', async () => {
    const a = await app();
    const t = await token(a);
    for (const r of REFUSED) {
      const res = await call(a, t, r.id, r.change);
      expect(res.statusCode, `${r.id} ${r.what}: ${res.body}`).toBe(400);
      expect(fieldsOf(res.body), `${r.id} ${r.what}`).toContain(r.field);
    }
    await a.close();
  });

  test('should serve each value a form allows that one header rule for every route refused', async () => {
    const a = await app();
    const t = await token(a);
    for (const s of SERVED) {
      const res = await call(a, t, s.id, s.change);
      expect(res.statusCode, `${s.id} ${s.what}: ${res.body}`).toBe(operationById(s.id).successStatus);
    }
    // Still refused where the operation gives the bound: IM-CountryCode is two characters on order search.
    expect((await call(a, t, 'orders.search', { headers: { 'IM-CountryCode': 'USA' } })).statusCode).toBe(400);
    await a.close();
  });

  test('should serve a required header sent empty where neither form gives a minimum length, on every operation, and refuse it absent', async () => {
    const documented = allOperations().filter((o) => o.family === 'reseller' && requestConstraintsOf(o.id));
    const shared = await app();
    const sharedToken = await token(shared);
    let served = 0;
    for (const op of documented) {
      const empty = requiredWithoutMinimum(op);
      if (!empty.length) continue;
      // An operation that changes state gets a mock of its own (a cancelled order cannot be modified: 409).
      const a = op.readOnly ? shared : await app();
      const t = op.readOnly ? sharedToken : await token(a);
      const asEmpty = await call(a, t, op.id, { headers: Object.fromEntries(empty.map((h) => [h, ''])) });
      expect(asEmpty.statusCode, `${op.id} with ${empty.join(', ')} empty: ${asEmpty.body}`).toBe(op.successStatus);
      const absent = await call(a, t, op.id, { headers: Object.fromEntries(empty.map((h) => [h, null])) });
      expect(absent.statusCode, `${op.id} without ${empty.join(', ')}: ${absent.body}`).toBe(400);
      expect(
        fieldsOf(absent.body).map((f) => f?.toLowerCase()),
        op.id,
      ).toEqual(empty.map((h) => h.toLowerCase()));
      served += 1;
      if (a !== shared) await a.close();
    }
    expect(served, 'operations with a required header of no minimum length').toBeGreaterThanOrEqual(26);
    // A minimum the document gives still judges the empty value: IM-CountryCode is two characters.
    const r = await call(shared, sharedToken, 'catalog.search', { headers: { 'IM-CountryCode': '' } });
    expect(r.statusCode, r.body).toBe(400);
    expect(JSON.parse(r.body).errors).toEqual([expect.objectContaining({ id: 'invalidHeader', field: 'IM-CountryCode' })]);
    await shared.close();
  });

  test('should serve freight estimate shipToAddress as an array of any length, as the JSON form gives it, and judge its items', async () => {
    const a = await app();
    const t = await token(a);
    const address = (requestFor(operationById('freight.estimate')).body as { shipToAddress: object }).shipToAddress;
    for (const length of [0, 1, 2, 5]) {
      const r = await call(a, t, 'freight.estimate', { body: (b) => ({ ...b, shipToAddress: Array.from({ length }, () => address) }) });
      expect(r.statusCode, `an array of ${length}: ${r.body}`).toBe(200);
    }
    // Both forms refuse an item that is not an object (the JSON form's items; the YAML form's object).
    for (const ship of [[address, 'A'], ['A']]) {
      const r = await call(a, t, 'freight.estimate', { body: (b) => ({ ...b, shipToAddress: ship }) });
      expect(r.statusCode, `${JSON.stringify(ship).slice(0, 40)}: ${r.body}`).toBe(400);
      expect(
        fieldsOf(r.body).some((f) => f?.startsWith('shipToAddress')),
        r.body,
      ).toBe(true);
    }
    await a.close();
  });

  test('should serve in warn mode a query value both forms refuse, noting it in sl-violations and the log', async () => {
    const lines: string[] = [];
    const a = await app({ requests: 'warn', onRequestViolation: (l) => lines.push(l) });
    const res = await call(a, await token(a), 'invoices.search', { query: { pageSize: 'AAA' } });
    expect(res.statusCode, res.body).toBe(200);
    const noted = JSON.parse(String(res.headers[VIOLATIONS_HEADER])) as Violation[];
    expect(noted.map((v) => [v.location, v.code])).toEqual([[['request', 'query', 'pageSize'], 'invalidQuery']]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('request.query.pageSize [invalidQuery]');
    await a.close();
  });

  test('should answer a seeded slice of the document fuzz as the forms judge it: 0 mismatches', async () => {
    const files = [process.env.VENDOR_OPENAPI, process.env.VENDOR_OPENAPI_JSON];
    test.skip(!files.every(Boolean), 'VENDOR_OPENAPI and VENDOR_OPENAPI_JSON name the two published forms (`.ci/run` sets them)');
    const forms = await Promise.all(files.map((f) => loadOpenApi(f as string)));
    const counts = await runDocumentFuzz(forms, { seed: 47, mode: 'strict', sample: 150 });
    const summary = fuzzSummary('strict, a slice of 150 constraints', counts);
    test.info().annotations.push({ type: 'document-fuzz', description: summary });
    expect(counts.refused, summary).toBeGreaterThan(0);
    expect(counts.served, summary).toBeGreaterThan(0);
    expect(counts.mismatches, summary).toEqual([]);
  });

  test("should serve every method either form gives a path, name in Allow what a path serves, and answer a path parameter beyond the forms' maxLength 400 and beyond the router's limit 414, in the error shape", async () => {
    const files = [process.env.VENDOR_OPENAPI, process.env.VENDOR_OPENAPI_JSON];
    test.skip(!files.every(Boolean), 'VENDOR_OPENAPI and VENDOR_OPENAPI_JSON name the two published forms (`.ci/run` sets them)');
    const documents = await Promise.all(
      files.map(async (f) => (await readOpenApiDocument<{ openapi?: string; paths?: DocumentPaths }>(f as string)).paths ?? {}),
    );
    const counts = await runPathFuzz(documents, { seed: 47 });
    const summary = pathFuzzSummary(counts);
    test.info().annotations.push({ type: 'path-fuzz', description: summary });
    expect(counts.paths, summary).toBeGreaterThanOrEqual(26);
    expect(counts.longParametersTried, summary).toBeGreaterThan(0);
    expect(counts.mismatches, summary).toEqual([]);
  });
});

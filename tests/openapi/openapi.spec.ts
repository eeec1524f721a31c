import { test, expect } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import { buildOpenApi, serialise } from '../../openapi/export';
import { loadOpenApi } from '../../openapi/import';
import { normalisePath } from '../../openapi/import/document-operations';
import { createBodyGenerator } from '../../openapi/mock-bodies';
import { allOperations } from '../../catalogue';
import { buildMockApp } from '../../mock';
import { spawnMock } from '../../runner/mock-process';
import { testMockMain } from '../cli-bundles';
import { LARGE_DOC_OPERATIONS, writeLargeOpenApi } from '../../bench/openapi-doc';
import { knownIds } from '../../fixtures';
import { token as mockToken, authed } from '../mock/helpers';

const DOC = 'tests/openapi/fixtures/distributor-openapi-3.0.yaml';

test.describe('OpenAPI export', () => {
  test('should match the committed contracts/openapi.json (run `npm run openapi` after changing the catalogue)', () => {
    const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
    expect(readFileSync('contracts/openapi.json', 'utf8'), 'contracts/openapi.json drifted from the catalogue: run `npm run openapi`').toBe(
      serialise(buildOpenApi(version)),
    );
  });

  test('should be a valid OpenAPI 3.1 document with every operation, both token endpoints and both servers', async () => {
    const doc = buildOpenApi();
    await SwaggerParser.validate(structuredClone(doc) as never);
    const paths = doc.paths as Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
    const ids = Object.values(paths).flatMap((p) => Object.values(p).map((o) => o.operationId));
    for (const op of allOperations()) expect(ids).toContain(op.id);
    expect(ids).toEqual(expect.arrayContaining(['token.reseller', 'token.vendor']));
    for (const p of Object.values(paths)) for (const o of Object.values(p)) expect(Object.keys(o.responses)).toContain('429');
    expect((doc.servers as { url: string }[]).map((s) => s.url)).toEqual(['{base_url}', '{base_url}/sandbox']);
  });
});

test.describe('OpenAPI import', () => {
  test('should map operations tolerantly: parameter casing, trailing slash, server prefix, /sandbox', async () => {
    expect(normalisePath('/sandbox/resellers/v6/orders/search/')).toBe('/resellers/v6/orders/search');
    const c = await loadOpenApi(DOC);
    const cov = c.coverage();
    expect(cov.mapped.map((m) => m.operationId).sort()).toEqual(['catalog.details', 'deals.details', 'orders.search']);
    expect(cov.documentedNotInCatalogue).toEqual(['GET /resellers/v6/unknown/thing']);
    expect(cov.catalogueWithoutSchema).toContain('orders.create');
    expect(cov.catalogueWithoutSchema).not.toContain('catalog.details');
  });

  test('should validate bodies with $ref chains, allOf, oneOf, nullable and unknown formats', async () => {
    const c = await loadOpenApi(DOC);
    expect(
      c.validateResponse('catalog.details', 200, {
        ingramPartNumber: 'A',
        vendorName: 'V',
        description: null,
        price: { currency: 'USD', unitPrice: 1 },
      }),
    ).toEqual({ validated: true, errors: [] });
    const bad = c.validateResponse('catalog.details', 200, {
      ingramPartNumber: 'A',
      vendorName: 'V',
      price: { currency: 'USD', unitPrice: 'free' },
    });
    expect(bad.errors.join()).toMatch(/\/price\/unitPrice: must be number/);
    expect(c.validateResponse('orders.search', 200, { orders: [{ ingramOrderNumber: '1', orderStatus: null }] }).errors).toEqual([]);
    expect(c.validateResponse('deals.details', 200, { dealId: 'D', dealName: 'x' }).errors).toEqual([]);
    expect(c.validateResponse('orders.create', 201, {})).toEqual({ validated: false, errors: [] });
    expect(c.coverage()).toMatchObject({ bodiesValidated: 4, bodiesFailed: 1 });
  });

  test('should report the token response type conflict and the token method as findings', async () => {
    const f = (await loadOpenApi(DOC)).findings();
    expect(f.find((x) => x.id === 'openapi.token-response@reseller')).toMatchObject({
      observed: 'differs',
      evidence: expect.stringMatching(/expires_in: document says "string", spec says integer/),
    });
    expect(f.find((x) => x.id === 'openapi.token-method@reseller')?.observed).toBe('agrees');
  });

  test('should list a required name its schema does not declare as a document defect, once per schema', async () => {
    const file = test.info().outputPath('undeclared-required.json');
    const event = {
      type: 'object',
      required: ['customerOrderNumber', 'eventId'],
      properties: {
        eventId: { type: 'string' },
        resource: { type: 'array', items: { type: 'object', required: ['sku'], properties: {} } },
      },
    };
    // Declared by an allOf member: not a defect.
    const composed = { allOf: [{ type: 'object', properties: { id: { type: 'string' } } }, { required: ['id'] }] };
    const op = (schema: unknown) => ({
      post: { requestBody: { content: { 'application/json': { schema } } }, responses: { '200': { description: 'OK' } } },
    });
    writeFileSync(
      file,
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 't', version: '1' },
        paths: { '/a': op({ $ref: '#/components/schemas/Event' }), '/b': op({ $ref: '#/components/schemas/Event' }), '/c': op(composed) },
        components: { schemas: { Event: event } },
      }),
    );
    const defects = (await loadOpenApi(file)).defects();
    expect(defects).toEqual([
      {
        where: 'POST /a request schema',
        errors: [
          '/: required "customerOrderNumber" is not a declared property (declared: eventId, resource)',
          '/resource/items: required "sku" is not a declared property (declared: none)',
        ],
      },
    ]);
  });

  test('should read a recursive schema, a property marked `required: true` and an unknown type, and list the last two as defects', async () => {
    const file = test.info().outputPath('unreadable-schemas.json');
    // A choice holds choices (recursion); `required: true` on a property is the OpenAPI 2 form; `date` is no JSON Schema type.
    const choice = {
      type: 'object',
      properties: { name: { type: 'string' }, choices: { type: 'array', items: { $ref: '#/components/schemas/Choice' } } },
    };
    const request = { type: 'object', properties: { contact: { type: 'string', maxLength: 5, required: true } } };
    writeFileSync(
      file,
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 't', version: '1' },
        paths: {
          '/resellers/v7/vendorrequiredinfo': {
            post: {
              requestBody: { content: { 'application/json': { schema: request } } },
              responses: {
                '200': {
                  description: 'OK',
                  content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Choice' } } } },
                },
                '201': {
                  description: 'Later',
                  content: { 'application/json': { schema: { type: 'object', properties: { at: { type: 'date' } } } } },
                },
              },
            },
          },
        },
        components: { schemas: { Choice: choice } },
      }),
    );
    const c = await loadOpenApi(file);
    const id = 'orders.vendorRequiredInfo';
    expect(c.validateResponse(id, 200, [{ name: 'a', choices: [{ name: 'b', choices: [] }] }])).toEqual({ validated: true, errors: [] });
    expect(c.validateResponse(id, 200, [{ name: 1 }]).errors).toEqual(['/0/name: must be string']);
    expect(c.validateRequest(id, { contact: 'toolong' })).toEqual(['/contact: must NOT have more than 5 characters']);
    expect(c.validateRequest(id, {})).toEqual([]);
    expect(c.validateResponse(id, 201, { at: 'x' }).validated, 'an unreadable schema validates nothing').toBe(false);
    expect(c.defects().map((d) => d.where)).toEqual([
      'POST /resellers/v7/vendorrequiredinfo request schema',
      'POST /resellers/v7/vendorrequiredinfo 201 schema',
    ]);
    // Absent from this document: quotes.create is listed by the document only, orders.create by the spec's table.
    const ids = c.findings().map((f) => f.id);
    expect(ids).toContain('openapi.operation-one-form@quotes.create');
    expect(ids).toContain('openapi.operation-absent@orders.create');
    expect(ids).not.toContain('openapi.operation-absent@quotes.create');
  });

  test('should validate the mock bodies against the exported 3.1 document', async () => {
    const c = await loadOpenApi('contracts/openapi.json');
    expect(c.coverage().mapped).toHaveLength(allOperations().length);
    const app = await buildMockApp();
    const token = await mockToken(app);
    const r = await app.inject({
      method: 'GET',
      url: `/resellers/v6/catalog/details/${knownIds().partNumber}`,
      headers: authed(token),
    });
    expect(c.validateResponse('catalog.details', r.statusCode, JSON.parse(r.body))).toEqual({ validated: true, errors: [] });
    await app.close();
  });

  test('should import a 1 MB document with every operation (its time is a benchmark figure)', async () => {
    const file = test.info().outputPath('big.yaml');
    writeLargeOpenApi(file);
    expect(readFileSync(file).length).toBeGreaterThan(1024 * 1024);
    const c = await loadOpenApi(file);
    expect(c.coverage().documentedOperations).toBe(LARGE_DOC_OPERATIONS);
  });
});

test.describe('mock bodies from a document', () => {
  test('should answer with the document example, deterministically, and keep limits and headers', async () => {
    const gen = await createBodyGenerator(DOC, 1);
    expect(gen('catalog.details')).toMatchObject({ ingramPartNumber: 'ABC123', description: null });
    // Deterministic: a second generator for the same document and seed answers the same body (not its own cache).
    const again = await createBodyGenerator(DOC, 1);
    expect(gen('orders.search')).toBeDefined();
    expect(again('orders.search')).toEqual(gen('orders.search'));
    const app = await buildMockApp({ responseBody: (id) => gen(id) });
    const token = await mockToken(app);
    const r = await app.inject({
      method: 'GET',
      url: `/resellers/v6/catalog/details/${knownIds().partNumber}`,
      headers: authed(token),
    });
    expect(JSON.parse(r.body)).toMatchObject({ ingramPartNumber: 'ABC123' });
    expect(r.headers['x-ratelimit-remaining']).toBe('59');
    await app.close();
  });
});

test.describe('OPENAPI for the mock process and the load runner', () => {
  test('should serve the document bodies from a mock started in its own process', async () => {
    test.setTimeout(60_000);
    const mock = await spawnMock({ ...testMockMain(), openapi: DOC });
    try {
      const t = (await (
        await fetch(`${mock.url}/oauth/oauth20/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'grant_type=client_credentials&client_id=demo-reseller&client_secret=demo-reseller-secret',
        })
      ).json()) as { access_token: string };
      const r = await fetch(`${mock.url}/resellers/v6/catalog/details/${knownIds().partNumber}`, {
        headers: authed(t.access_token),
      });
      expect(await r.json()).toMatchObject({ ingramPartNumber: 'ABC123' });
      expect(r.headers.get('x-ratelimit-limit')).toBe('60');
    } finally {
      await mock.close();
    }
  });
});

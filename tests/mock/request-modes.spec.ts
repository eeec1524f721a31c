import { test, expect } from '@playwright/test';
import type { FastifyInstance } from 'fastify';
import { allOperations, familyBase, fillPath, type Operation } from '../../catalogue';
import { knownIds, requestFor } from '../../fixtures';
import { createAjv } from '../../clients/ajv';
import { parseRequestMode, VIOLATIONS_HEADER, type Violation } from '../../mock';
import { MAX_VIOLATIONS_HEADER_LENGTH, violationsHeaderValue } from '../../mock/checks/request-violations';
import { certify } from '../contracts/support/run-certify';
import { app, token, authed, bearer, IM, expectErrorShape, webhookHeaders } from './helpers';

const JSON_CT = { 'content-type': 'application/json' };
/** A dashed UUIDv4: 36 characters where the document allows 32. */
const DASHED_ID = '123e4567-e89b-42d3-a456-426614174000';
/** The operations whose IM-* header values the document constrains (reseller business calls, webhooks aside). */
const CONSTRAINED = allOperations().filter((op) => op.family === 'reseller' && !op.webhook);

/** A conforming call of an operation (the catalogue's fixtures), with header overrides. */
/** A call of an operation with the headers changed as given (a header given null is left out). */
async function call(a: FastifyInstance, op: Operation, t: string, headers: Record<string, string | null> = {}, body?: unknown) {
  const r0 = requestFor(op);
  const q = new URLSearchParams(r0.query).toString();
  const payload = body ?? r0.body;
  const given = Object.entries({ ...authed(t), ...(payload ? JSON_CT : {}), ...(r0.headers ?? {}), ...headers });
  return a.inject({
    method: op.method,
    url: `${familyBase(op.family, 'production')}${fillPath(op.path, { ...knownIds(), ...r0.params })}${q ? `?${q}` : ''}`,
    headers: Object.fromEntries(given.filter((e): e is [string, string] => e[1] !== null)),
    ...(payload ? { payload: JSON.stringify(payload) } : {}),
  });
}

const violationsOf = (headers: Record<string, unknown>): Violation[] => {
  const v = headers[VIOLATIONS_HEADER];
  if (typeof v !== 'string') throw new Error(`Expected a ${VIOLATIONS_HEADER} header\nReceived: ${JSON.stringify(headers)}`);
  return JSON.parse(v) as Violation[];
};
const opById = (id: string): Operation => allOperations().find((o) => o.id === id) as Operation;

test.describe('mock request modes', () => {
  test('should refuse every constrained call with a 36-character IM-CorrelationID with 400 naming the header by default', async () => {
    const a = await app();
    const t = await token(a);
    expect(CONSTRAINED.length).toBeGreaterThan(10);
    for (const op of CONSTRAINED) {
      const r = await call(a, op, t, { 'IM-CorrelationID': DASHED_ID });
      expect(r.statusCode, `${op.id}: ${r.body}`).toBe(400);
      expect(expectErrorShape(r.body)).toBe(true);
      expect(JSON.parse(r.body).errors[0].field, op.id).toBe('IM-CorrelationID');
      expect(r.headers[VIOLATIONS_HEADER], op.id).toBeUndefined();
    }
    await a.close();
  });

  test('should serve every such call in warn mode, naming the broken rule in sl-violations and in one log line with the correlation id', async () => {
    const lines: string[] = [];
    const a = await app({ requests: 'warn', onRequestViolation: (l) => lines.push(l) });
    const t = await token(a);
    for (const op of CONSTRAINED) {
      const r = await call(a, op, t, { 'IM-CorrelationID': DASHED_ID });
      expect(r.statusCode, `${op.id}: ${r.body}`).toBe(op.successStatus);
      expect(violationsOf(r.headers), op.id).toEqual([
        {
          location: ['request', 'header', 'IM-CorrelationID'],
          severity: 'Error',
          code: 'invalidHeader',
          message: 'IM-CorrelationID must be at most 32 characters, received 36',
        },
      ]);
    }
    expect(lines).toHaveLength(CONSTRAINED.length);
    for (const l of lines) expect(l).toContain(`IM-CorrelationID ${DASHED_ID}: request.header.IM-CorrelationID [invalidHeader]`);
    await a.close();
  });

  test('should list every broken header, query and body rule of one served call', async () => {
    const lines: string[] = [];
    const a = await app({ requests: 'warn', onRequestViolation: (l) => lines.push(l) });
    const t = await token(a);
    const create = opById('orders.create');
    const body = { ...(requestFor(create).body as Record<string, unknown>), customerOrderNumber: 42, notes: ['not', 'a', 'string'] };
    const validate = createAjv().getSchema(create.requestSchema as string);
    expect(validate?.(body), 'the body breaks its schema').toBe(false);
    const bodyErrors = validate?.errors?.length ?? 0;
    const r = await call(a, create, t, { 'IM-CustomerNumber': null, 'IM-CountryCode': 'USA' }, body);
    expect(r.statusCode, r.body).toBe(201);
    const got = violationsOf(r.headers);
    expect(got.filter((v) => v.location[1] === 'header').map((v) => [v.location[2], v.code])).toEqual([
      ['IM-CustomerNumber', 'missingHeader'],
      ['IM-CountryCode', 'invalidHeader'],
    ]);
    expect(got.filter((v) => v.location[1] === 'body')).toHaveLength(bodyErrors);
    expect(got.map((v) => v.location.join('.'))).toEqual(
      expect.arrayContaining(['request.body.customerOrderNumber', 'request.body.notes']),
    );

    const price = opById('catalog.priceAndAvailability');
    const required = price.queryParams.filter((p) => p.required).map((p) => p.name);
    expect(required.length).toBeGreaterThan(0);
    const url = `${familyBase('reseller', 'production')}${price.path}`;
    const q = await a.inject({
      method: price.method,
      url,
      headers: { ...authed(t), ...JSON_CT },
      payload: JSON.stringify(requestFor(price).body),
    });
    expect(q.statusCode, q.body).toBe(200);
    expect(violationsOf(q.headers).map((v) => v.location.join('.'))).toEqual(required.map((n) => `request.query.${n}`));
    expect(lines).toHaveLength(got.length + required.length);
    await a.close();
  });

  test('should still refuse in warn mode what cannot be served: no token, a body that is not JSON, another Content-Type', async () => {
    const a = await app({ requests: 'warn', onRequestViolation: () => undefined });
    const t = await token(a);
    const url = '/resellers/v6/orders';
    const noToken = await a.inject({ method: 'POST', url, headers: { ...IM, ...JSON_CT }, payload: '{}' });
    expect(noToken.statusCode).toBe(401);
    const notJson = await a.inject({ method: 'POST', url, headers: { ...authed(t), ...JSON_CT }, payload: '{"lines": [' });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.body).toContain('not valid JSON');
    // The broken header is still reported on the refusal the mode does not serve.
    const text = await a.inject({
      method: 'POST',
      url,
      headers: { ...authed(t), 'IM-CorrelationID': DASHED_ID, 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(text.statusCode).toBe(415);
    expect(violationsOf(text.headers).map((v) => v.location.join('.'))).toEqual(['request.header.IM-CorrelationID']);
    await a.close();
  });

  test('should serve in warn mode a webhook event its schema refuses, and report it; strict refuses it', async () => {
    const hook = opById('webhooks.orderStatus');
    // The document requires no field of an event and types eventId as a string.
    const event = { eventId: 42 };
    for (const requests of ['warn', 'strict'] as const) {
      const a = await app({ requests, onRequestViolation: () => undefined });
      const t = await token(a);
      const w = await a.inject({
        method: hook.method,
        url: `${familyBase(hook.family, 'production')}${hook.path}`,
        headers: { ...authed(t), ...JSON_CT, ...webhookHeaders(event) },
        payload: JSON.stringify(event),
      });
      expect(w.statusCode, `${requests}: ${w.body}`).toBe(requests === 'warn' ? 200 : 400);
      if (requests === 'warn') expect(violationsOf(w.headers).map((v) => v.location.join('.'))).toEqual(['request.body.eventId']);
      await a.close();
    }
  });

  test('should answer a conforming call in warn mode without sl-violations and without a log line', async () => {
    const lines: string[] = [];
    const a = await app({ requests: 'warn', onRequestViolation: (l) => lines.push(l) });
    const r = await call(a, opById('orders.create'), await token(a));
    expect(r.statusCode, r.body).toBe(201);
    expect(r.headers[VIOLATIONS_HEADER]).toBeUndefined();
    expect(lines).toEqual([]);
    await a.close();
  });

  test('should cut a long sl-violations value as Prism does and name the accepted modes on a wrong one', () => {
    const many: Violation[] = Array.from({ length: 200 }, (_, i) => ({
      location: ['request', 'body', 'lines', String(i)],
      severity: 'Error',
      code: 'invalidBody',
      message: 'Invalid request body: must be object',
    }));
    const value = violationsHeaderValue(many);
    expect(value.startsWith('Too many violations! [')).toBe(true);
    expect(value).toHaveLength('Too many violations! '.length + MAX_VIOLATIONS_HEADER_LENGTH);
    expect(parseRequestMode(undefined, 'MOCK_REQUESTS')).toBe('strict');
    expect(parseRequestMode('warn', 'MOCK_REQUESTS')).toBe('warn');
    expect(() => parseRequestMode('lenient', 'MOCK_REQUESTS')).toThrow('MOCK_REQUESTS must be one of strict, warn, received "lenient"');
  });

  test('should keep refusing a bad token before any violation is reported in warn mode', async () => {
    const a = await app({ requests: 'warn', onRequestViolation: () => undefined });
    const r = await a.inject({
      method: 'GET',
      url: '/resellers/v6/orders/search',
      headers: { ...bearer('wrong'), 'IM-CorrelationID': DASHED_ID },
    });
    expect(r.statusCode).toBe(401);
    expect(r.headers[VIOLATIONS_HEADER]).toBeUndefined();
    await a.close();
  });

  test('should certify the embedded mock in either mode unchanged, the header findings telling the modes apart', async () => {
    test.setTimeout(180_000);
    const run = (mode: string) =>
      certify({ MOCK_REQUESTS: mode, FAMILIES: 'reseller', ENVIRONMENTS: 'production' }, ['--workers', '1', '--grep', '@headers']);
    for (const [mode, observed] of [
      ['strict', 'refused'],
      ['warn', 'accepted'],
    ] as const) {
      const r = await run(mode);
      expect(r.status, `MOCK_REQUESTS=${mode}\n${r.stdout.slice(-2000)}${r.stderr.slice(-1000)}`).toBe(0);
      const headers = r.findings().filter((f) => f.id.startsWith('headers.'));
      // Recorded once per operation checked: every record of a finding reads the same.
      expect([...new Set(headers.map((f) => `${f.id.split('@')[0]} ${f.observed}`))].sort(), mode).toEqual([
        `headers.constraint-broken ${observed}`,
        `headers.required-missing ${observed}`,
      ]);
    }
  });
});

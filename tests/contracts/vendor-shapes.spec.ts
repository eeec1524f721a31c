/**
 * Certify against a vendor deployment that answers another body shape than the embedded mock's placeholder.
 * No document gives the vendor family's answers: certify records what the target answered (finding
 * shapes.not-published, naming the top-level keys) and passes; an OPENAPI document that gives the path
 * certifies the shape, and then a body it refuses fails.
 */
import { test, expect } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startMock, type RunningMock } from '../../mock';
import { MOCK_APPS_ENV, ONE_WORKER, certify } from './support/run-certify';
import { validCallsOf } from './support/greps';

/** The vendor deployment's answer to each successful vendor business call, unless a test asks for another. */
const VENDOR_BODY = { orders: [] };
const VENDOR_CALLS = /\/vendors\/v1\//;

/** A proxy in front of the mock that answers every successful vendor business call with `body`. */
async function vendorDeployment(upstream: string, body: unknown = VENDOR_BODY): Promise<{ url: string; close: () => Promise<void> }> {
  const up = new URL(upstream);
  const server: Server = createServer((req, res) => {
    const fwd = httpRequest(
      { host: up.hostname, port: up.port, method: req.method, path: req.url, headers: { ...req.headers, host: up.host } },
      (a) => {
        const status = a.statusCode ?? 502;
        if (status >= 300 || !VENDOR_CALLS.test(req.url ?? '')) {
          res.writeHead(status, a.headers);
          return void a.pipe(res);
        }
        a.resume();
        const { 'content-length': _length, ...headers } = a.headers;
        res.writeHead(status, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify(body));
      },
    );
    fwd.on('error', () => res.writeHead(502).end());
    req.pipe(fwd);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/** An OpenAPI document giving one vendor operation's answer: an object requiring `key` as a list. */
function documentRequiring(key: string): string {
  const file = test.info().outputPath(`vendor-${key}.json`);
  const schema = { type: 'object', required: [key], properties: { [key]: { type: 'array', items: { type: 'object' } } } };
  const ok = { description: 'OK', content: { 'application/json': { schema } } };
  writeFileSync(
    file,
    JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'vendor', version: '1' },
      paths: { '/vendors/v1/orders/search': { get: { responses: { '200': ok } } } },
    }),
  );
  return file;
}

let mock: RunningMock;
let target: { url: string; close: () => Promise<void> };
test.beforeEach(async () => {
  mock = await startMock({ windowMs: 60_000 });
  target = await vendorDeployment(mock.url);
});
test.afterEach(async () => {
  await target.close();
  await mock.close();
});

const ENV = { ...MOCK_APPS_ENV, FAMILIES: 'vendor' };
/** The valid calls of every selected operation: with FAMILIES=vendor, the vendor operations'. */
const VALID_VENDOR_CALLS = [...ONE_WORKER, '-g', 'valid call of each operation'];

for (const [body, keys] of [
  [VENDOR_BODY, 'orders'],
  [{ result: { items: [] }, status: 'ok' }, 'result, status'],
] as const) {
  test(`should certify a vendor deployment answering ${JSON.stringify(body)}, recording the shape as not published with the keys it saw`, async () => {
    test.setTimeout(180_000);
    const other = await vendorDeployment(mock.url, body);
    const r = await certify({ ...ENV, TARGET: other.url }, VALID_VENDOR_CALLS).finally(() => other.close());
    const s = r.summary();
    expect(s.totals.failed, r.stdout.slice(-3000)).toBe(0);
    // Nothing failed; details is not run (below): exit 99.
    expect(s.totals.skipped, r.stdout.slice(-3000)).toBeGreaterThan(0);
    expect(r.status, r.stderr.slice(-2000)).toBe(99);
    const found = r.findings().filter((f) => f.id.startsWith('shapes.not-published@vendor/'));
    // Each vendor call answered is recorded; details needs an order number the deployment lists none of (not run).
    const answered = s.operations.filter((o) => o.id.startsWith('vendor.') && o.checks['valid-call'] === 'passed');
    expect(answered.map((o) => `${o.id} ${o.environment}`).sort()).toEqual([
      'vendor.catalog.search production',
      'vendor.catalog.search sandbox',
      'vendor.orders.search production',
      'vendor.orders.search sandbox',
    ]);
    expect(found.map((f) => `${f.operationId} ${f.environment}`).sort()).toEqual(answered.map((o) => `${o.id} ${o.environment}`).sort());
    for (const f of found) {
      expect(f.observed).toBe('json-object');
      expect(f.evidence).toMatch(new RegExp(`→ 200, content-type application/json, top-level keys: ${keys}$`));
    }
  });
}

test('should certify the shape an OPENAPI document gives for a vendor path: passes when the answer has it, fails when it does not', async () => {
  test.setTimeout(240_000);
  const only = [...ONE_WORKER, '-g', validCallsOf(['vendor.orders.search'])];
  const has = await certify({ ...ENV, TARGET: target.url, OPENAPI: documentRequiring('orders') }, only);
  expect(has.summary().totals.failed, has.stdout.slice(-3000)).toBe(0);
  expect(
    has.findings().filter((f) => f.id.startsWith('shapes.not-published')),
    'a documented shape is not a finding',
  ).toEqual([]);
  const lacks = await certify({ ...ENV, TARGET: target.url, OPENAPI: documentRequiring('result') }, only);
  expect(lacks.summary().totals.failed, lacks.stdout.slice(-3000)).toBeGreaterThan(0);
  expect(lacks.stdout).toMatch(/must have required property 'result'/);
});

test('should fail an unpublished vendor shape where the policy makes the finding strict', async () => {
  test.setTimeout(180_000);
  const policy = test.info().outputPath('strict-shapes.json');
  writeFileSync(policy, JSON.stringify({ findings: { 'shapes.not-published': { strict: true } } }));
  const r = await certify({ ...ENV, TARGET: target.url, POLICY: policy }, [...ONE_WORKER, '-g', validCallsOf(['vendor.catalog.search'])]);
  expect(r.summary().totals.failed, r.stdout.slice(-3000)).toBe(2);
  expect(r.stdout).toMatch(/Policy violation for finding shapes\.not-published@vendor\/(production|sandbox)/);
});

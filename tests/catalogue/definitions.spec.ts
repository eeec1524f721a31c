import { test, expect } from '@playwright/test';
import {
  DEFINITIONS,
  IM_HEADERS,
  WEBHOOK_HEADERS,
  RESELLER_ROWS,
  idSources,
  operationsFor,
  resellerOperations,
  fillPath,
  type IdName,
  type Operation,
} from '../../catalogue';
import { knownIds, requestFor, world } from '../../fixtures';
import { createAjv } from '../../clients/ajv';
import { HANDLERS } from '../../mock';
import { app, authed, token } from '../mock/helpers';

const ajv = createAjv();

test.describe('operation definitions', () => {
  test('should give every row one definition and one mock handler, and nothing else', () => {
    const ids = RESELLER_ROWS.map((r) => r.id).sort();
    expect(Object.keys(DEFINITIONS).sort()).toEqual(ids);
    expect(Object.keys(HANDLERS).sort()).toEqual(ids);
  });

  test('should build requests from the fixture world that satisfy their own definition', () => {
    const published = new Set<string>([...Object.values(IM_HEADERS), ...Object.values(WEBHOOK_HEADERS)]);
    for (const op of resellerOperations) {
      const r = requestFor(op);
      expect(Object.keys(r.params).sort(), op.id).toEqual([...op.pathParams].sort());
      for (const q of op.queryParams.filter((x) => x.required)) expect(r.query[q.name], `${op.id} ${q.name}`).toBeTruthy();
      for (const h of op.requiredHeaders) expect(published.has(h), `${op.id} ${h}`).toBe(true);
      if (op.requestSchema) {
        const v = ajv.getSchema(op.requestSchema);
        expect(v?.(r.body), `${op.id}: ${JSON.stringify(v?.errors)}`).toBe(true);
      } else expect(r.body, op.id).toBeUndefined();
      // Each id comes from a catalogued search that does not itself need that id (no discovery cycle).
      for (const n of op.needs) {
        const source = resellerOperations.find((o) => o.id === idSources[n.id].from);
        expect(
          source?.needs.some((m) => m.id === n.id),
          `${op.id} needs ${n.id} from ${idSources[n.id].from}`,
        ).toBe(false);
      }
    }
  });

  test('should select operations by family and configured vendor list', () => {
    expect(operationsFor({ families: ['reseller'] })).toHaveLength(28);
    const vendor = operationsFor({ families: ['vendor'], vendorOperations: [{ id: 'vendor.x', method: 'GET', path: '/x/{orderNumber}' }] });
    expect(vendor.map((o) => o.id)).toEqual(['vendor.x']);
    expect(vendor[0]?.needs).toEqual([{ id: 'orderNumber', in: 'path', as: 'orderNumber' }]);
  });

  test('should discover every id from its source answer on the mock and use it in the operations that need it', async () => {
    const a = await app();
    const t = authed(await token(a));
    const byId = new Map<string, Operation>(resellerOperations.map((o) => [o.id, o]));
    const discovered: Partial<Record<IdName, string>> = {};
    for (const [name, src] of Object.entries(idSources) as [IdName, (typeof idSources)[IdName]][]) {
      const from = byId.get(src.from) as Operation;
      const r0 = requestFor(from);
      const q = new URLSearchParams(r0.query).toString();
      const res = await a.inject({
        method: from.method,
        url: `${from.path}${q ? `?${q}` : ''}`,
        headers: { ...t, ...(r0.body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(r0.body !== undefined ? { payload: JSON.stringify(r0.body) } : {}),
      });
      expect(res.statusCode, `${src.from}: ${res.body}`).toBe(200);
      const json = JSON.parse(res.body) as Record<string, unknown>;
      const items = (src.items ? json[src.items] : json) as Record<string, unknown>[];
      const value = items[0]?.[src.field];
      expect(value, `${name} from ${src.from} ${src.items}[].${src.field}`).not.toBeUndefined();
      discovered[name] = String(value);
    }
    const w = world();
    for (const op of resellerOperations.filter((o) => o.needs.length && o.readOnly)) {
      const r = requestFor(op, w.seed, 0, discovered);
      const q = new URLSearchParams(r.query).toString();
      const res = await a.inject({ method: op.method, url: `${fillPath(op.path, r.params)}${q ? `?${q}` : ''}`, headers: t });
      expect(res.statusCode, `${op.id} with discovered ids: ${res.body}`).toBe(200);
    }
    expect(discovered.partNumber).toBe(knownIds().partNumber);
    await a.close();
  });
});

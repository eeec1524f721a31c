/**
 * The drift modes of answers about what was asked, documented statuses, writes read back and operations
 * not served: each one, on the mock built in process (Fastify inject), breaks its fact where the
 * conforming mock keeps it.
 */
import { test, expect } from '@playwright/test';
import type { FastifyInstance } from 'fastify';
import { operationById } from '../../catalogue';
import { knownIds, requestFor } from '../../fixtures';
import { app, authed, token } from './helpers';

const IDS = knownIds();
const JSON_CT = { 'content-type': 'application/json' };

interface Answer {
  status: number;
  json: Record<string, unknown>;
}

type Call = (method: string, url: string, payload?: unknown) => Promise<Answer>;

/** One call with the demo reseller's token; the drift modes given are on from the start. */
async function withMock(drift: readonly string[], use: (call: Call) => Promise<void>) {
  const a: FastifyInstance = await app({ drift: [...drift] });
  const headers = authed(await token(a));
  try {
    await use(async (method, url, payload) => {
      const r = await a.inject({
        method: method as 'GET',
        url,
        headers: payload === undefined ? headers : { ...headers, ...JSON_CT },
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
      return { status: r.statusCode, json: (r.body ? JSON.parse(r.body) : {}) as Record<string, unknown> };
    });
  } finally {
    await a.close();
  }
}

/** Runs `check` on the conforming mock, then on the mock in drift mode `mode`, with what each must show. */
async function conformingThenDrift<T>(mode: string, want: { conforming: T; drift: T }, check: (call: Call, want: T) => Promise<void>) {
  await withMock([], (call) => check(call, want.conforming));
  await withMock([mode], (call) => check(call, want.drift));
}

/** A fresh order of the mock, by the number its create answer gives. */
async function createdOrder(call: Call): Promise<string> {
  const created = await call('POST', '/resellers/v6/orders', requestFor(operationById('orders.create'), 1, 7).body);
  expect(created.status).toBe(201);
  return String((created.json.orders as { ingramOrderNumber: string }[])[0]?.ingramOrderNumber);
}

const DETAILS = `/resellers/v6/catalog/details/${IDS.partNumber}`;

test('answers.other-key: product details answer another part number than the one asked', async () => {
  await conformingThenDrift('answers.other-key', { conforming: true, drift: false }, async (call, same) => {
    const r = await call('GET', DETAILS);
    expect(r.status).toBe(200);
    expect(r.json.ingramPartNumber === IDS.partNumber).toBe(same);
  });
});

test('answers.filter-ignored: deal search filtered by a deal id lists a deal of another id', async () => {
  await conformingThenDrift('answers.filter-ignored', { conforming: true, drift: false }, async (call, matching) => {
    const r = await call('GET', `/resellers/v6/deals/search?dealId=${IDS.dealId}`);
    const ids = (r.json.deals as { dealId: string }[]).map((d) => d.dealId);
    expect(ids.length).toBeGreaterThan(0);
    expect(
      ids.every((id) => id === IDS.dealId),
      ids.join(', '),
    ).toBe(matching);
  });
});

test('status.accepted-undocumented: a 200 operation answers 202 with the same body', async () => {
  const bodies: unknown[] = [];
  await conformingThenDrift('status.accepted-undocumented', { conforming: 200, drift: 202 }, async (call, status) => {
    const r = await call('GET', DETAILS);
    expect(r.status).toBe(status);
    bodies.push(r.json);
  });
  expect(bodies[1]).toEqual(bodies[0]);
});

test('writes.cancel-ignored: a cancelled order reads back as processing', async () => {
  await conformingThenDrift('writes.cancel-ignored', { conforming: 'CANCELLED', drift: 'PROCESSING' }, async (call, status) => {
    const n = await createdOrder(call);
    expect((await call('DELETE', `/resellers/v6/orders/${n}`)).status).toBe(200);
    expect((await call('GET', `/resellers/v6.1/orders/${n}`)).json.orderStatus).toBe(status);
  });
});

test("writes.modify-ignored: a modified order reads back without the modify's notes", async () => {
  const modify = requestFor(operationById('orders.modify'), 1, 0, IDS).body as Record<string, unknown>;
  await conformingThenDrift('writes.modify-ignored', { conforming: true, drift: false }, async (call, kept) => {
    const n = await createdOrder(call);
    expect((await call('PUT', `/resellers/v6/orders/${n}`, { ...modify, notes: 'Modified notes' })).status).toBe(200);
    expect((await call('GET', `/resellers/v6.1/orders/${n}`)).json.notes === 'Modified notes').toBe(kept);
  });
});

test('routing.sandbox-search-not-served: the sandbox answers deal search 404, production serves it', async () => {
  await conformingThenDrift('routing.sandbox-search-not-served', { conforming: 200, drift: 404 }, async (call, sandbox) => {
    expect((await call('GET', '/resellers/v6/deals/search')).status).toBe(200);
    expect((await call('GET', '/sandbox/resellers/v6/deals/search')).status).toBe(sandbox);
  });
});

test('writes.return-unknown: a created return is unknown to return details by the number its create answer gave', async () => {
  const create = requestFor(operationById('returns.create'), 1, 0, IDS).body;
  await conformingThenDrift('writes.return-unknown', { conforming: 200, drift: 404 }, async (call, status) => {
    const r = await call('POST', '/resellers/v6/returns/create', create);
    expect(r.status).toBe(200);
    const n = (r.json.returnsClaims as { caseRequestNumber: string }[])[0]?.caseRequestNumber;
    expect((await call('GET', `/resellers/v6/returns/${n}`)).status).toBe(status);
  });
});

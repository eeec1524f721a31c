/**
 * A target that closes kept-alive connections while the client is not looking (its keep-alive timeout passed while
 * the client stalled): every connection of the client's pool may be closed, so a request sent again after one of
 * them dropped it goes on a connection of its own, and gets its answer.
 */
import { test, expect } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { NodeFetcher } from '../../clients/fetcher';
import { ApiClient, RequestBudget } from '../../clients/http';

/** Answers the first request of each connection; a later one on the same connection is dropped unanswered. */
async function oneRequestPerConnection(): Promise<{ url: string; server: Server }> {
  const served = new WeakSet<Socket>();
  const server = createServer((req, res) => {
    if (served.has(req.socket)) return void req.socket.destroy();
    served.add(req.socket);
    res.writeHead(200, { 'content-type': 'application/json', connection: 'keep-alive' }).end('{"ok":true}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

test('should send a request again on a new connection when its kept-alive one was dropped, though the pool holds more dropped ones', async () => {
  const { url, server } = await oneRequestPerConnection();
  const fetcher = new NodeFetcher();
  const budget = new RequestBudget(10);
  const api = new ApiClient(fetcher, { baseUrl: url, budget, timeoutMs: 5_000, maxBodyBytes: 1024, extraHeaders: {} });
  try {
    // Two at once: two kept-alive connections in the pool, each of which the target will drop.
    const first = await Promise.all([api.send({ method: 'GET', path: '/a' }), api.send({ method: 'GET', path: '/b' })]);
    expect(first.map((r) => r.status)).toEqual([200, 200]);
    const again = await api.send({ method: 'GET', path: '/c' });
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ ok: true });
    expect(budget.spent, 'the dropped request was sent once more, and counted').toBe(4);
  } finally {
    fetcher.close();
    server.closeAllConnections();
    server.close();
  }
});

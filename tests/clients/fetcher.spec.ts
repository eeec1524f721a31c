/**
 * The certification's transport (node:http, clients/fetcher.ts) sends and reads what Playwright's request context
 * does: the method, the query parameters, a form or a raw body with its Content-Type, every header of the answer
 * (a repeated one joined), and no redirect followed; each names itself in a User-Agent.
 */
import { test, expect, request } from '@playwright/test';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeFetcher, type FetchOptions, type Fetcher } from '../../clients/fetcher';

/** Echoes what it received, with repeated rate-limit headers; /moved redirects. */
async function echoServer(): Promise<{ url: string; server: Server }> {
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      if (req.url === '/moved') return void res.writeHead(302, { location: '/elsewhere' }).end();
      res.setHeader('retry-after', ['1', '2']);
      res.setHeader('x-ratelimit-remaining', ['3', '4']);
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          method: req.method,
          url: req.url,
          contentType: req.headers['content-type'] ?? null,
          custom: req.headers['im-x'],
          named: /\S/.test(req.headers['user-agent'] ?? ''),
          body,
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const REQUESTS: [string, Partial<FetchOptions>][] = [
  ['a GET with query parameters', { method: 'GET', params: { pageSize: '5', q: 'a b&c' } }],
  ['a form', { method: 'POST', form: { grant_type: 'client_credentials', client_id: 'a b' } }],
  ['a JSON body', { method: 'POST', data: '{"x":1}', headers: { 'content-type': 'application/json', 'IM-X': 'y' } }],
];

/** What a transport gives for `o` at `url`: status, the headers the checks read, the body. */
async function answerOf(f: Fetcher, url: string, o: Partial<FetchOptions>) {
  const res = await f.fetch(url, { method: 'GET', headers: {}, timeout: 5_000, failOnStatusCode: false, maxRedirects: 0, ...o });
  const h = res.headers();
  const body = (await res.body()).toString('utf8');
  return { status: res.status(), retryAfter: h['retry-after'], remaining: h['x-ratelimit-remaining'], location: h.location, body };
}

test('should send and read as Playwright request context does: query, form and JSON bodies, repeated headers, no redirect followed', async () => {
  const { url, server } = await echoServer();
  const node = new NodeFetcher();
  const playwright = await request.newContext();
  try {
    for (const [what, o] of REQUESTS) {
      const [mine, theirs] = [await answerOf(node, `${url}/catalog`, o), await answerOf(playwright, `${url}/catalog`, o)];
      expect(mine, what).toEqual(theirs);
      expect(mine.remaining, `${what}: a repeated header keeps every value`).toBe('3, 4');
      expect(JSON.parse(mine.body), `${what}: the request names its client`).toMatchObject({ named: true });
    }
    const moved = await answerOf(node, `${url}/moved`, {});
    expect(moved).toMatchObject({ status: 302, location: '/elsewhere' });
  } finally {
    node.close();
    await playwright.dispose();
    server.close();
  }
});

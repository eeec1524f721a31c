/**
 * RFC 9110: a known path answers 405 with `Allow` to any method it does not serve, whatever the body, before reading it;
 * `Allow` names every method it serves, HEAD wherever GET is (Fastify answers HEAD as the GET route).
 */
import { test, expect } from '@playwright/test';
import { app, authed, token } from './helpers';

const METHODS = ['TRACE', 'OPTIONS', 'QUERY', 'PATCH', 'PUT', 'PROPFIND', 'SEARCH'] as const;

test.describe('methods a known path does not serve', () => {
  test('should answer 405 with Allow to TRACE, OPTIONS, QUERY, PATCH, PUT alike, with or without a body or Content-Type', async () => {
    const a = await app();
    for (const method of METHODS) {
      for (const [what, headers, payload] of [
        ['no body', {}, undefined],
        ['no Content-Type and a body', {}, 'x'],
        ['JSON that does not parse', { 'content-type': 'application/json' }, '{'],
        ['another Content-Type', { 'content-type': 'text/plain' }, 'x'],
      ] as const) {
        const r = await a.inject({ method: method as 'GET', url: '/resellers/v6/orders/search', headers, ...(payload ? { payload } : {}) });
        expect(r.statusCode, `${method} with ${what}: ${r.body}`).toBe(405);
        expect(r.headers.allow, `${method} with ${what}`).toBe('GET, HEAD');
      }
    }
    const r = await a.inject({ method: 'TRACE', url: '/resellers/v6/orders/20-12345' });
    expect([r.statusCode, r.headers.allow]).toEqual([405, 'PUT, DELETE']);
    // The token paths serve POST (the spec) and GET (the published document) unless GET is switched off.
    for (const url of ['/oauth/oauth20/token', '/oauth/oauth30/token', '/sandbox/oauth/oauth20/token']) {
      const tokenPath = await a.inject({ method: 'OPTIONS', url });
      expect([tokenPath.statusCode, tokenPath.headers.allow], url).toEqual([405, 'POST, GET, HEAD']);
    }
    // An unknown path stays 404.
    expect((await a.inject({ method: 'TRACE', url: '/resellers/v6/nowhere' })).statusCode).toBe(404);
    await a.close();
  });

  test('should name POST alone in Allow on the token path when its GET is switched off, to GET and HEAD as to any other method', async () => {
    const a = await app({ tokenGet: 'reject' });
    for (const method of ['GET', 'HEAD', 'OPTIONS', 'PUT'] as const) {
      const r = await a.inject({ method, url: '/oauth/oauth20/token' });
      expect([r.statusCode, r.headers.allow], method).toEqual([405, 'POST']);
    }
    await a.close();
  });

  test('should serve HEAD exactly where Allow names it: answered as GET without a body, else 405', async () => {
    const a = await app();
    const t = authed(await token(a));
    for (const [url, allow] of [
      ['/resellers/v6/orders/search', 'GET, HEAD'],
      ['/resellers/v6/orders/20-12345', 'PUT, DELETE'],
      ['/resellers/v6/catalog/priceandavailability', 'POST'],
      ['/oauth/oauth20/token', 'POST, GET, HEAD'],
    ] as const) {
      const refused = await a.inject({ method: 'TRACE', url });
      expect(refused.headers.allow, url).toBe(allow);
      const head = await a.inject({ method: 'HEAD', url, headers: t });
      const get = await a.inject({ method: 'GET', url, headers: t });
      if (allow.includes('HEAD')) {
        expect([head.statusCode, head.body], `HEAD ${url}`).toEqual([get.statusCode, '']);
        expect(head.statusCode, `HEAD ${url}`).not.toBe(405);
      } else expect([head.statusCode, head.headers.allow], `HEAD ${url}`).toEqual([405, allow]);
    }
    await a.close();
  });
});

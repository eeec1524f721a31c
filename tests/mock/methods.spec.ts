/** RFC 9110: a known path answers 405 with `Allow` to any method it does not serve, whatever the body, before reading it. */
import { test, expect } from '@playwright/test';
import { app } from './helpers';

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
        expect(r.headers.allow, `${method} with ${what}`).toBe('GET');
      }
    }
    const r = await a.inject({ method: 'TRACE', url: '/resellers/v6/orders/20-12345' });
    expect([r.statusCode, r.headers.allow]).toEqual([405, 'PUT, DELETE']);
    // The token paths serve POST (the spec) and GET (the published document) unless GET is switched off.
    for (const url of ['/oauth/oauth20/token', '/oauth/oauth30/token', '/sandbox/oauth/oauth20/token']) {
      const tokenPath = await a.inject({ method: 'OPTIONS', url });
      expect([tokenPath.statusCode, tokenPath.headers.allow], url).toEqual([405, 'POST, GET']);
    }
    // An unknown path stays 404.
    expect((await a.inject({ method: 'TRACE', url: '/resellers/v6/nowhere' })).statusCode).toBe(404);
    await a.close();
  });

  test('should name POST alone in Allow on the token path when its GET is switched off, to GET as to any other method', async () => {
    const a = await app({ tokenGet: 'reject' });
    for (const method of ['GET', 'OPTIONS', 'PUT'] as const) {
      const r = await a.inject({ method, url: '/oauth/oauth20/token' });
      expect([r.statusCode, r.headers.allow], method).toEqual([405, 'POST']);
    }
    await a.close();
  });
});

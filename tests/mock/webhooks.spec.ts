import { test, expect } from '@playwright/test';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signEventId } from '../../mock';
import { validEvent } from '../../fixtures';
import { app, token, authed, expectErrorShape } from './helpers';

test.describe('mock webhooks', () => {
  test('should accept valid events, reject invalid ones with 400, and keep the accepted ones', async () => {
    const a = await app();
    const t = { ...authed(await token(a)), 'content-type': 'application/json' };
    const ok = await a.inject({
      method: 'POST',
      url: '/resellers/v1/webhooks/orderstatusevent',
      headers: t,
      payload: validEvent('orderStatus'),
    });
    expect(ok.statusCode).toBe(200);
    const bad = await a.inject({
      method: 'POST',
      url: '/resellers/v1/webhooks/availabilityupdate',
      headers: t,
      payload: { eventType: 'NOPE' },
    });
    expect(bad.statusCode).toBe(400);
    expect(expectErrorShape(bad.body)).toBe(true);
    const kept = JSON.parse((await a.inject({ method: 'GET', url: '/__mock/webhooks' })).body);
    expect(kept.events).toHaveLength(1);
    await a.close();
  });

  test('should push a signed event to a loopback targeturl and retry a failing receiver', async () => {
    const got: { sig: string | undefined; body: string }[] = [];
    let calls = 0;
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c));
      req.on('end', () => {
        calls += 1;
        if (calls === 1) return void res.writeHead(503).end();
        got.push({ sig: req.headers['x-hub-signature'] as string | undefined, body });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const a = await app();
    const ev = validEvent('availabilityUpdate', 1, 3);
    const t = {
      ...authed(await token(a)),
      'content-type': 'application/json',
      targeturl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    };
    expect((await a.inject({ method: 'POST', url: '/resellers/v1/webhooks/availabilityupdate', headers: t, payload: ev })).statusCode).toBe(
      200,
    );
    await expect.poll(() => got.length, { message: 'the receiver gets the event after one retry', timeout: 5000 }).toBe(1);
    expect(got[0]?.sig).toBe(signEventId(String(ev.eventId), 'demo-reseller-webhook-secret'));
    expect(JSON.parse(got[0]?.body ?? '{}')).toEqual(ev);
    expect(calls).toBe(2);
    await a.close();
    server.close();
  });

  test('should not push to a non-loopback targeturl', async () => {
    const a = await app();
    const t = { ...authed(await token(a)), 'content-type': 'application/json', targeturl: 'http://203.0.113.9/hook' };
    await a.inject({ method: 'POST', url: '/resellers/v1/webhooks/orderstatusevent', headers: t, payload: validEvent('orderStatus') });
    const kept = JSON.parse((await a.inject({ method: 'GET', url: '/__mock/webhooks' })).body);
    expect(kept.deliveries[0].error).toMatch(/not loopback/);
    await a.close();
  });
});

import { test, expect } from '@playwright/test';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signEventId } from '../../mock';
import { validEvent } from '../../fixtures';
import { app, token, authed, expectErrorShape, RESELLER_WEBHOOK_SECRET, webhookHeaders } from './helpers';

test.describe('mock webhooks', () => {
  test('should accept valid events and one without an eventId (the document requires no field), refuse one its schema refuses with 400, and keep the accepted ones', async () => {
    const a = await app();
    const t = { ...authed(await token(a)), 'content-type': 'application/json' };
    const ev = validEvent('orderStatus');
    const ok = await a.inject({
      method: 'POST',
      url: '/resellers/v1/webhooks/orderstatusevent',
      headers: { ...t, ...webhookHeaders(ev) },
      payload: ev,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    // Signed over the empty event id, as an event without one is.
    const bare = await a.inject({
      method: 'POST',
      url: '/resellers/v1/webhooks/availabilityupdate',
      headers: { ...t, ...webhookHeaders({}) },
      payload: { eventType: 'NOPE' },
    });
    expect(bare.statusCode, bare.body).toBe(200);
    const bad = await a.inject({
      method: 'POST',
      url: '/resellers/v1/webhooks/availabilityupdate',
      headers: { ...t, ...webhookHeaders({}) },
      payload: { eventId: 42, resource: 'none' },
    });
    expect(bad.statusCode).toBe(400);
    expect(expectErrorShape(bad.body)).toBe(true);
    const kept = JSON.parse((await a.inject({ method: 'GET', url: '/__mock/webhooks' })).body);
    expect(kept.events).toHaveLength(2);
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
      ...webhookHeaders(ev, `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`),
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
    const ev = validEvent('orderStatus');
    const t = { ...authed(await token(a)), 'content-type': 'application/json', ...webhookHeaders(ev, 'http://203.0.113.9/hook') };
    await a.inject({ method: 'POST', url: '/resellers/v1/webhooks/orderstatusevent', headers: t, payload: ev });
    const kept = JSON.parse((await a.inject({ method: 'GET', url: '/__mock/webhooks' })).body);
    expect(kept.deliveries[0].error).toMatch(/not loopback/);
    await a.close();
  });

  test('should refuse an event without targeturl or x-hub-signature (400 naming the header) and a wrong signature (401)', async () => {
    const a = await app();
    const t = { ...authed(await token(a)), 'content-type': 'application/json' };
    const ev = validEvent('availabilityUpdate', 1, 5);
    const url = '/resellers/v1/webhooks/availabilityupdate';
    const send = (headers: Record<string, string>) => a.inject({ method: 'POST', url, headers: { ...t, ...headers }, payload: ev });
    const { targeturl, ...unsigned } = webhookHeaders(ev);
    for (const [missing, headers] of [
      ['x-hub-signature', { targeturl }],
      ['targeturl', unsigned],
    ] as const) {
      const r = await send(headers);
      expect(r.statusCode, `${missing} absent: ${r.body}`).toBe(400);
      expect(expectErrorShape(r.body)).toBe(true);
      expect(JSON.parse(r.body).errors[0].field).toBe(missing);
    }
    // Signed over another event id, and with another app's secret: both the wrong signature.
    for (const signature of [signEventId('another', RESELLER_WEBHOOK_SECRET), signEventId(String(ev.eventId), 'other-secret')]) {
      const r = await send({ targeturl, 'x-hub-signature': signature });
      expect(r.statusCode, r.body).toBe(401);
      expect(expectErrorShape(r.body)).toBe(true);
      expect(JSON.parse(r.body).errors[0].field).toBe('x-hub-signature');
    }
    const accepted = await app({}, ['finding.webhook-signature-ignored']);
    const r = await accepted.inject({
      method: 'POST',
      url,
      headers: { ...authed(await token(accepted)), 'content-type': 'application/json', targeturl, 'x-hub-signature': 'bad' },
      payload: ev,
    });
    expect(r.statusCode, 'the drift mode accepts a wrong signature').toBe(200);
    expect((await send(webhookHeaders(ev))).statusCode, 'the right signature').toBe(200);
    await a.close();
    await accepted.close();
  });
});

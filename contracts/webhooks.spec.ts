import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { validEvent } from '../fixtures';
import { evidenceOf } from '../clients/http';
import { signatureHeaders, signEventId } from '../clients/webhook-signature';
import { test, expect, harnessConfig, label, planned, selectedOperations } from './session/test';
import { firstScope, selectedScope, webhookReceiverScope, webhookSecretScope, writesScope } from './plan/scope';
import { recordFinding } from './record/finding-recorder';

const cfg = harnessConfig();
const hooks = selectedOperations(cfg).filter((o) => o.webhook);
const env = cfg.environments[0] ?? 'production';
const ROUND_TRIP_TIMEOUT_MS = 5_000;

/** A webhook check's plan: one call; webhook calls change state, and are signed unless the check signs them itself. */
const webhookCall = (unit: string, signs: 'with the secret' | 'itself', ...more: Parameters<typeof firstScope>) =>
  planned({
    unit,
    requests: 1,
    outOfScope: firstScope(
      selectedScope(hooks.length ? [] : ['a webhook operation']),
      writesScope(cfg, 'a webhook call'),
      signs === 'itself' ? undefined : webhookSecretScope(cfg),
      ...more,
    ),
  });

test.describe('webhooks', { tag: ['@webhooks'] }, () => {
  for (const op of hooks) {
    const kind = op.id === 'webhooks.orderStatus' ? 'orderStatus' : 'availabilityUpdate';
    test(`should accept a valid ${op.id} event (${env})`, webhookCall(op.id, 'with the secret'), async ({ session }) => {
      label(test.info(), op, env, 'valid-event');
      const res = await session.call(op, env, { body: validEvent(kind, cfg.mock.seed, Date.now() % 100000) });
      expect(res, `Broken fact: ${op.path} accepts a valid event\nExpected: 2xx\nReceived: ${evidenceOf(res)}`).toHaveStatusIn(200, 299);
      expect(res).toBeJsonResponse();
    });

    test(
      `should record whether a ${op.id} event its schema refuses is refused (${env})`,
      webhookCall(op.id, 'with the secret'),
      async ({ session }) => {
        label(test.info(), op, env, 'invalid-event');
        // The document types eventId as a string; it requires no field, so an event without one is not invalid.
        const res = await session.call(op, env, { body: { eventId: 42, resource: 'none' }, deliberatelyInvalid: true });
        const refused = res.status >= 400 && res.status < 500;
        recordFinding('webhooks.invalid-event', refused ? 'refused' : 'accepted', `eventId 42, resource "none" → ${evidenceOf(res)}`, {
          environment: env,
          operationId: op.id,
          family: op.family,
          policyFile: cfg.policyFile,
        });
        if (refused) expect(res).toBeErrorBody();
      },
    );
  }

  test(
    `should record whether an event with a wrong x-hub-signature is refused (${env})`,
    webhookCall(hooks[0]?.id ?? 'webhooks', 'itself'),
    async ({ session }) => {
      const op = hooks[0];
      label(test.info(), op?.id ?? 'webhooks', env, 'signature');
      if (!op) throw new Error('no webhook operation');
      const event = validEvent(op.id === 'webhooks.orderStatus' ? 'orderStatus' : 'availabilityUpdate', cfg.mock.seed, 11);
      // Signed with another secret: the right shape, the wrong key.
      const wrong = signatureHeaders(event, `not-the-secret-of-${cfg.credentials.reseller?.clientId ?? 'the-app'}`);
      const res = await session.call(op, env, { body: event, headers: wrong, deliberatelyInvalid: true });
      const refused = res.status >= 400 && res.status < 500;
      recordFinding('webhooks.signature', refused ? 'verified' : 'not-verified', `wrong x-hub-signature → ${evidenceOf(res)}`, {
        environment: env,
        operationId: op.id,
        family: op.family,
        policyFile: cfg.policyFile,
      });
      if (refused) expect(res).toBeErrorBody();
    },
  );

  const roundTrip = webhookCall(hooks[0]?.id ?? 'webhooks', 'with the secret', webhookReceiverScope(cfg));
  test(`should record whether an event sent with targeturl is pushed to the receiver, signed (${env})`, roundTrip, async ({ session }) => {
    const op = hooks[0];
    label(test.info(), op?.id ?? 'webhooks', env, 'round-trip');
    if (!op) throw new Error('no webhook operation');
    const received: { headers: IncomingMessage['headers']; body: string }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const localUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
      const targetUrl = session.target.isMock ? localUrl : (cfg.webhookReceiverUrl as string);
      const event = validEvent(op.id === 'webhooks.orderStatus' ? 'orderStatus' : 'availabilityUpdate', cfg.mock.seed, 7);
      const res = await session.call(op, env, { body: event, headers: { targeturl: targetUrl } });
      expect(res.status, `the event itself must be accepted; ${evidenceOf(res)}`).toBeLessThan(300);
      const deadline = Date.now() + ROUND_TRIP_TIMEOUT_MS;
      while (!received.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const got = received[0];
      if (!got) {
        recordFinding('webhooks.push', 'not-pushed', `no push within ${ROUND_TRIP_TIMEOUT_MS} ms to ${targetUrl}`, {
          environment: env,
          policyFile: cfg.policyFile,
        });
        return;
      }
      const sig = got.headers['x-hub-signature'];
      const expected = cfg.webhookSecret ? signEventId(String(event.eventId), cfg.webhookSecret) : undefined;
      const signed = typeof sig === 'string' && sig === expected;
      recordFinding(
        'webhooks.push',
        signed ? 'pushed-signed' : 'pushed-unsigned',
        `push arrived with x-hub-signature ${sig ? 'present' : 'absent'}${signed ? ' (HMAC-SHA512 base64 over the event id verified)' : ''}; body ${got.body.slice(0, 200)}`,
        { environment: env, policyFile: cfg.policyFile },
      );
      expect(JSON.parse(got.body)).toEqual(event);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

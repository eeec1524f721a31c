/**
 * Received webhook events, their signature check, and pushes to a `targeturl` receiver.
 *
 * ASSUMPTION (the spec does not show signing): the distributor's public documentation describes an
 * `x-hub-signature` header made with the app's webhook secret over the event id. We sign with
 * HMAC-SHA512, base64-encoded, over the event id string (clients/webhook-signature.ts).
 */
import { signatureMatches, signEventId } from '../../clients/webhook-signature';
import { WEBHOOK_HEADERS, demoWebhookSecret } from '../../catalogue';
import type { MockApp } from '../../catalogue/apps';
import { errorOf, type ErrorBody } from '../ground/errors';

export interface ReceivedEvent {
  operationId: string;
  environment: string;
  clientId: string | null;
  event: unknown;
  receivedAtMs: number;
}

export interface Delivery {
  target: string;
  eventId: string;
  attempts: number;
  status: number | null;
  error?: string;
}

/** Pushes are retried this many times in all, with a growing pause, each with this timeout. */
export const PUSH_ATTEMPTS = 3;
export const PUSH_BACKOFF_MS = 100;
export const PUSH_TIMEOUT_MS = 2000;
/** Kept events and deliveries, newest last; older ones are dropped. */
export const MAX_KEPT = 1000;

export { signEventId };

/** The webhook secret of an app: its own, else `<clientId>-webhook-secret` (the mock's demo rule). */
export function webhookSecretOf(apps: ReadonlyMap<string, MockApp>, clientId: string | null | undefined): string {
  const app = clientId ? apps.get(clientId) : undefined;
  return app?.webhookSecret ?? demoWebhookSecret(app?.clientId ?? clientId ?? 'anonymous');
}

/** The 401 of a webhook call whose x-hub-signature is not the event's signature with the app's secret; null when it is. */
export function signatureRefusal(signature: unknown, body: unknown, secret: string): ErrorBody | null {
  if (typeof signature === 'string' && signatureMatches(signature, body, secret)) return null;
  return errorOf('badSignature', {
    field: WEBHOOK_HEADERS.signature,
    message: `${WEBHOOK_HEADERS.signature} is not the HMAC-SHA512 (base64) of the event id with the app's webhook secret`,
  });
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/i;

export class WebhookOutbox {
  readonly received: ReceivedEvent[] = [];
  readonly deliveries: Delivery[] = [];
  private readonly inflight = new Set<AbortController>();

  constructor(private readonly opts: { allowRemote: boolean }) {}

  receive(e: ReceivedEvent): void {
    this.received.push(e);
    if (this.received.length > MAX_KEPT) this.received.shift();
  }

  push(target: string, eventId: string, event: unknown, secret: string): void {
    const delivery: Delivery = { target, eventId, attempts: 0, status: null };
    this.deliveries.push(delivery);
    if (this.deliveries.length > MAX_KEPT) this.deliveries.shift();
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      delivery.error = `targeturl is not a URL: ${target.slice(0, 100)}`;
      return;
    }
    if (!this.opts.allowRemote && !LOOPBACK.test(url.hostname)) {
      delivery.error = `targeturl host ${url.hostname} is not loopback; pushes go to loopback only unless allowRemoteWebhookTargets is set`;
      return;
    }
    void this.deliver(url, delivery, JSON.stringify(event), signEventId(eventId, secret));
  }

  private async deliver(url: URL, delivery: Delivery, body: string, signature: string): Promise<void> {
    for (let attempt = 1; attempt <= PUSH_ATTEMPTS; attempt++) {
      const ctrl = new AbortController();
      this.inflight.add(ctrl);
      const timer = setTimeout(() => ctrl.abort(), PUSH_TIMEOUT_MS);
      delivery.attempts = attempt;
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-hub-signature': signature, 'x-event-id': delivery.eventId },
          body,
          signal: ctrl.signal,
        });
        delivery.status = res.status;
        await res.arrayBuffer().catch(() => undefined);
        if (res.status < 500) return;
      } catch (e) {
        delivery.error = (e as Error).message;
        if (ctrl.signal.aborted && this.closed) return;
      } finally {
        clearTimeout(timer);
        this.inflight.delete(ctrl);
      }
      await new Promise((r) => setTimeout(r, PUSH_BACKOFF_MS * attempt));
      if (this.closed) return;
    }
  }

  private closed = false;

  clear(): void {
    this.received.length = 0;
    this.deliveries.length = 0;
  }

  close(): void {
    this.closed = true;
    for (const c of this.inflight) c.abort();
  }
}

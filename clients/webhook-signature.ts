/**
 * The `x-hub-signature` of a webhook call. ASSUMPTION (the spec does not show signing; the distributor's
 * document says "a signature token by use of a secret key + Event ID"): HMAC-SHA512 of the event id
 * string with the app's webhook secret, base64-encoded, as the catalogue assumes. One home for the rule:
 * the mock verifies with it, the suite and the load plan sign with it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_HEADERS } from '../catalogue/rules';

export function signEventId(eventId: string, secret: string): string {
  return createHmac('sha512', secret).update(eventId).digest('base64');
}

/** The event id of a webhook body ('' when it has none: the body check refuses such an event first). */
export function eventIdOfBody(body: unknown): string {
  const id = body && typeof body === 'object' ? (body as { eventId?: unknown }).eventId : undefined;
  return typeof id === 'string' ? id : '';
}

/** The signature header of a webhook body. */
export function signatureHeaders(body: unknown, secret: string): Record<string, string> {
  return { [WEBHOOK_HEADERS.signature]: signEventId(eventIdOfBody(body), secret) };
}

/** True when `signature` is the body's signature with `secret` (compared in constant time). */
export function signatureMatches(signature: string, body: unknown, secret: string): boolean {
  const want = Buffer.from(signEventId(eventIdOfBody(body), secret));
  const got = Buffer.from(signature);
  return got.length === want.length && timingSafeEqual(got, want);
}

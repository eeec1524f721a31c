import type { FastifyInstance } from 'fastify';
import { buildMockApp, DriftLayer, type MockOptions } from '../../mock';
import { signatureHeaders } from '../../clients/webhook-signature';
import { NO_RECEIVER_TARGET_URL } from '../../catalogue';

export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
export const RESELLER = 'grant_type=client_credentials&client_id=demo-reseller&client_secret=demo-reseller-secret';
export const RESELLER_B = 'grant_type=client_credentials&client_id=demo-reseller-b&client_secret=demo-reseller-b-secret';
export const VENDOR = 'grant_type=client_credentials&client_id=demo-vendor&client_secret=demo-vendor-secret';

/** The mock with its control API, and a drift layer the control API may switch (`drift`: the modes on at start). */
export async function app(opts: MockOptions = {}, drift: readonly string[] = []): Promise<FastifyInstance> {
  return buildMockApp({ control: true, layer: new DriftLayer(drift, true), ...opts });
}

export async function token(a: FastifyInstance, form = RESELLER, path = '/oauth/oauth20/token'): Promise<string> {
  const r = await a.inject({ method: 'POST', url: path, headers: FORM, payload: form });
  if (r.statusCode !== 200) throw new Error(`token ${r.statusCode} ${r.body}`);
  return (JSON.parse(r.body) as { access_token: string }).access_token;
}

export const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

export function expectErrorShape(body: string): boolean {
  const b = JSON.parse(body) as { errors?: { field?: unknown; message?: unknown }[] };
  return (
    Array.isArray(b.errors) &&
    b.errors.length > 0 &&
    b.errors.every((e) => (e.field === null || typeof e.field === 'string') && typeof e.message === 'string')
  );
}

/** The published IM-* headers every business call carries (the mock refuses calls without the required ones). */
export const IM = {
  'IM-CustomerNumber': '20-222222',
  'IM-CountryCode': 'US',
  'IM-CorrelationID': '00000000000040008000000000000001',
  'IM-CustomerContact': 'certification@example.com',
  'IM-ApplicationID': 'distributor-harness',
  'IM-SenderID': 'distributor-harness',
} as const;

/** Bearer token plus the IM-* headers. */
export const authed = (t: string) => ({ ...bearer(t), ...IM });

/** The demo reseller app's webhook secret (the mock's rule: `<client id>-webhook-secret`). */
export const RESELLER_WEBHOOK_SECRET = 'demo-reseller-webhook-secret';

/** The headers a webhook call needs: `targeturl` (nobody receives it unless given) and the event's signature. */
export const webhookHeaders = (event: unknown, targeturl: string = NO_RECEIVER_TARGET_URL) => ({
  targeturl,
  ...signatureHeaders(event, RESELLER_WEBHOOK_SECRET),
});

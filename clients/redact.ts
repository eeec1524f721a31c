/**
 * Secrets (client secrets, access tokens) never appear in output. Every string the harness logs,
 * attaches or writes goes through `redact`. Pure: usable from Node and from k6 bundles.
 */
export const REDACTED = '[REDACTED]';

const secrets = new Set<string>();

/** Registers a secret value (client secret or issued token) to be masked everywhere. */
export function registerSecret(value: string | undefined | null): void {
  if (value && value.length >= 4) secrets.add(value);
}

// Shapes that carry secrets even when the value was never registered (e.g. a token from a target
// that answered a request we did not expect): bearer headers, token JSON fields, form fields.
const PATTERNS: ReadonlyArray<[RegExp, string]> = [
  [/(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi, `$1${REDACTED}`],
  [/("access_token"\s*:\s*")[^"]*(")/gi, `$1${REDACTED}$2`],
  [/("client_secret"\s*:\s*")[^"]*(")/gi, `$1${REDACTED}$2`],
  [/((?:^|[?&\s])client_secret=)[^&\s]*/gi, `$1${REDACTED}`],
  [/((?:^|[?&\s])access_token=)[^&\s]*/gi, `$1${REDACTED}`],
  // A webhook signature: whoever holds one can replay its event.
  [/(x-hub-signature"?\s*[:=]\s*"?)[A-Za-z0-9+/=_-]+/gi, `$1${REDACTED}`],
];

/** Headers whose whole value is a secret (a webhook signature); Authorization keeps its scheme (the patterns). */
const SECRET_HEADERS: ReadonlySet<string> = new Set(['x-hub-signature']);

/** A header's value as output may show it: masked whole for a secret header, else redacted as any text. */
export function redactHeader(name: string, value: string): string {
  return SECRET_HEADERS.has(name.toLowerCase()) ? REDACTED : redact(value);
}

/** Whether `value` is a registered secret (an issued token, a client secret), not merely text shaped like one. */
export const isRegisteredSecret = (value: string): boolean => secrets.has(value);

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Returns `text` with every registered secret and every secret-bearing pattern masked. */
export function redact(text: string): string {
  let out = text;
  for (const s of secrets) {
    out = out.replace(new RegExp(escapeRegExp(s), 'g'), REDACTED);
    const enc = encodeURIComponent(s);
    if (enc !== s) out = out.replace(new RegExp(escapeRegExp(enc), 'g'), REDACTED);
  }
  for (const [re, rep] of PATTERNS) out = out.replace(re, rep);
  return out;
}

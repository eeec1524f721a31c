/**
 * One exchange of a certification as a HAR 1.2 entry (http://www.softwareishard.com/blog/har-12-spec/): the
 * request as sent (full URL, headers, body), the answer (status, headers, body as read, at most MAX_BODY_BYTES),
 * timings, and the harness's own fields, which HAR allows when their names start with `_`: the check the
 * exchange belongs to, its spec file and its IM-CorrelationID. Every value is redacted as all output is
 * (clients/redact.ts): tokens in Authorization and in token answers, client secrets in forms, webhook signatures.
 */
import type { ApiResponse } from '../../clients/http';
import { isRegisteredSecret, redact, redactHeader } from '../../clients/redact';
import type { HarEntry, HarNameValue } from '../../reporting/har-shapes';

export type { HarEntry } from '../../reporting/har-shapes';

/** The check an exchange belongs to; none for an exchange outside any test (a worker's set-up). */
export interface ExchangeOwner {
  check: string;
  file: string;
}

/** The harness speaks HTTP/1.1 (clients/fetcher.ts). */
const HTTP_VERSION = 'HTTP/1.1';

const headerList = (headers: Record<string, string>): HarNameValue[] =>
  Object.entries(headers).map(([name, value]) => ({ name, value: redactHeader(name, value) }));

const contentTypeOf = (headers: Record<string, string>): string =>
  Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';

/** A URL with each query parameter redacted (as `name=value`, the form the patterns know) and encoded again. */
function redactedUrl(url: string): URL {
  const u = new URL(url);
  const pairs = [...u.searchParams.entries()].map(([name, value]) => [name, redact(`${name}=${value}`).slice(name.length + 1)]);
  u.search = new URLSearchParams(pairs).toString();
  return u;
}

/** What kind of bearer token a request carried, when it carried one. */
function tokenKind(headers: Record<string, string>): Pick<HarEntry, '_token'> {
  const auth = Object.entries(headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
  const bearer = auth && /^Bearer\s+(.+)$/i.exec(auth)?.[1];
  return bearer ? { _token: isRegisteredSecret(bearer) ? 'issued' : 'made-up' } : {};
}

/** What kind of client secret a request carried in its URL or body, when it carried one. */
function clientSecretKind(text: string): Pick<HarEntry, '_clientSecret'> {
  const value = /client_secret(?:=|"\s*:\s*")([^&"\s]*)/.exec(text)?.[1];
  if (value === undefined) return {};
  const decoded = ((v: string) => {
    try {
      return decodeURIComponent(v.replace(/\+/g, ' '));
    } catch {
      return v;
    }
  })(value);
  return { _clientSecret: isRegisteredSecret(decoded) ? 'configured' : 'made-up' };
}

/** The HAR entry of an answer and the request that got it (redacted). */
export function harEntryOf(res: ApiResponse, owner: ExchangeOwner | undefined): HarEntry {
  const sent = res.request ?? { url: res.url, headers: {} };
  const url = redactedUrl(sent.url);
  const body = sent.body;
  const answerType = res.headers['content-type'] ?? '';
  return {
    startedDateTime: new Date(res.sentAtMs).toISOString(),
    time: res.durationMs,
    request: {
      method: res.method,
      url: url.toString(),
      httpVersion: HTTP_VERSION,
      cookies: [],
      headers: headerList(sent.headers),
      queryString: [...url.searchParams.entries()].map(([name, value]) => ({ name, value })),
      ...(body !== undefined ? { postData: { mimeType: contentTypeOf(sent.headers), text: redact(body) } } : {}),
      headersSize: -1,
      bodySize: body === undefined ? 0 : Buffer.byteLength(body),
    },
    response: {
      status: res.status,
      statusText: '',
      httpVersion: HTTP_VERSION,
      cookies: [],
      headers: headerList(res.headers),
      content: { size: Buffer.byteLength(res.text), mimeType: answerType, text: redact(res.text) },
      redirectURL: res.headers.location ?? '',
      headersSize: -1,
      bodySize: Buffer.byteLength(res.text),
    },
    cache: {},
    // The client times the whole exchange; HAR's phases it cannot tell apart are counted as waiting.
    timings: { send: 0, wait: res.durationMs, receive: 0 },
    // Redacted as the summary redacts its titles, so an entry names its check as summary.json does.
    ...(owner ? { _check: redact(owner.check), _file: owner.file } : {}),
    _correlationId: res.correlationId,
    ...tokenKind(sent.headers),
    ...clientSecretKind(`${sent.url} ${body ?? ''}`),
  };
}

/** The HAR entry of a request that got no usable answer: status 0 and no body, with the failure (redacted). */
export function failedEntryOf(
  sent: Pick<ApiResponse, 'method' | 'url' | 'correlationId' | 'sentAtMs' | 'request'>,
  failure: Error,
  owner: ExchangeOwner | undefined,
): HarEntry {
  const durationMs = Math.max(0, Date.now() - sent.sentAtMs);
  const res: ApiResponse = { ...sent, status: 0, headers: {}, text: '', json: undefined, durationMs, receivedAtMs: Date.now() };
  return { ...harEntryOf(res, owner), _failure: redact(failure.message) };
}

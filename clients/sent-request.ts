/**
 * A request as it was sent (its full URL with the query, final headers, body as text) and its one-line form for
 * evidence. The HTTP client (http.ts) builds it for every answer; evidence lines, the run's HAR and the
 * reproductions read it.
 */
import { redact } from './redact';

/** What of a request decides how it goes out beyond its headers and body (http.ts's ApiRequest). */
interface RequestParts {
  query?: Record<string, string>;
  form?: Record<string, string>;
}

/** An answer with the request that got it (http.ts's ApiResponse). */
interface Exchanged {
  method: string;
  url: string;
  request?: SentRequestRecord;
}

/** An answer as evidence quotes it (http.ts's ApiResponse). */
interface Answered extends Exchanged {
  status: number;
  headers: Record<string, string>;
  text: string;
  correlationId: string;
}

/** A request as it was sent: its full URL (query included), its final headers and its body as text. */
export interface SentRequestRecord {
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** The request as the transport sends it: the query on the URL, a form URL-encoded (fetcher.ts does the same). */
export function sentRequestOf(
  url: string,
  req: RequestParts,
  headers: Record<string, string>,
  data: string | undefined,
): SentRequestRecord {
  const full = new URL(url);
  for (const [k, v] of Object.entries(req.query ?? {})) full.searchParams.set(k, v);
  const form = req.form && new URLSearchParams(req.form).toString();
  const hasType = Object.keys(headers).some((k) => k.toLowerCase() === 'content-type');
  const sentHeaders = form && !hasType ? { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' } : { ...headers };
  const body = form ?? data;
  return { url: full.toString(), headers: sentHeaders, ...(body !== undefined ? { body } : {}) };
}

/** Characters of a request body an evidence line quotes. */
const EVIDENCE_REQUEST_BODY_CHARS = 160;

/** A request body in one short line: whitespace collapsed, cut at EVIDENCE_REQUEST_BODY_CHARS with an ellipsis. */
export function shortBody(body: string): string {
  const flat = body.replace(/\s+/g, ' ').trim();
  return flat.length > EVIDENCE_REQUEST_BODY_CHARS ? `${flat.slice(0, EVIDENCE_REQUEST_BODY_CHARS)}…` : flat;
}

/** The request of an answer in one line: method, the full URL with its query, and a short form of its body. */
export function requestLine(res: Exchanged): string {
  const body = res.request?.body;
  return `${res.method} ${res.request?.url ?? res.url}${body ? ` with body ${shortBody(body)}` : ''}`;
}

/** A short, redacted excerpt of an exchange for evidence: the whole request (query, short body) and the answer. */
export function evidenceOf(res: Answered, extra = ''): string {
  const rl = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']
    .map((k) => `${k}: ${res.headers[k] ?? '(absent)'}`)
    .join('; ');
  return redact(
    `${requestLine(res)} → ${res.status}; IM-CorrelationID: ${res.correlationId || '(none)'}; ${rl}; content-type: ${res.headers['content-type'] ?? '(absent)'}; body: ${res.text.slice(0, 300)}${extra ? `; ${extra}` : ''}`,
  );
}

/**
 * How the mock treats a request that breaks a constraint of the published document.
 *
 * - `strict` (default): refused with 400 and the documented error body naming the header, query parameter or
 *   body field, as the document says.
 * - `warn`: served as if it conformed, and every broken rule reported: one log line per violation with the
 *   request's IM-CorrelationID, and the `sl-violations` response header (Prism's validation proxy's header and
 *   format: a JSON array of `{ location, severity, code, message }`).
 *
 * What `warn` serves (document constraints): a required IM-* header absent, an IM-* header value that
 * breaks its maxLength / minLength / pattern / enum, a required query parameter absent or a query value its
 * constraints refuse (type, format, enum, maxLength, range), a JSON body its request
 * schema does not allow (every schema error listed). The operation then answers as it answers a conforming call:
 * a body without the id it should name finds nothing (404).
 *
 * What it still refuses, as `strict` does (the call cannot be served): no or a bad token, a body that is not JSON
 * or too large, a JSON operation called with another Content-Type, a webhook call with a wrong signature, an unknown
 * route or method, the rate limit. A webhook event its schema refuses is a body like any other: served and noted. Conflicts between the distributor's client and its document keep their own switch
 * (`strictDocument`, mock/checks/document-conflicts.ts).
 */
import type { FastifyReply } from 'fastify';
import type { ErrorBody } from '../ground/errors';

export const REQUEST_MODES = ['strict', 'warn'] as const;
export type RequestMode = (typeof REQUEST_MODES)[number];
/** The default: as strict as the document. */
export const DEFAULT_REQUEST_MODE: RequestMode = 'strict';

/** The response header listing a served request's violations (Prism's name). */
export const VIOLATIONS_HEADER = 'sl-violations';
/** Longest header value sent, as Prism: beyond, the value is cut and prefixed with "Too many violations! ". */
export const MAX_VIOLATIONS_HEADER_LENGTH = 8 * 1024 - 100;

/** Where in the request a broken rule sits (the second element of a violation's location). */
export type RequestPart = 'header' | 'path' | 'query' | 'body';

/** One broken rule, in Prism's format. */
export interface Violation {
  /** `['request', part, ...name or path]`, e.g. `['request', 'header', 'IM-CorrelationID']`, `['request', 'body', 'lines', '0', 'quantity']`. */
  location: string[];
  severity: 'Error';
  /** The id of the error the strict mode answers with (mock/ground/errors.ts): missingHeader, invalidHeader, missingQuery, invalidQuery, invalidBody. */
  code: string;
  message: string;
}

/** Parses a mode name (CLI flag, MOCK_REQUESTS); a user error names the accepted values. */
export function parseRequestMode(value: string | undefined, source: string): RequestMode {
  if (value === undefined || value === '') return DEFAULT_REQUEST_MODE;
  if ((REQUEST_MODES as readonly string[]).includes(value)) return value as RequestMode;
  throw new Error(`${source} must be one of ${REQUEST_MODES.join(', ')}, received "${value}"`);
}

/** The violations of a refusal body: one per error entry, located by its field (a dotted body path is split). */
export function violationsOf(part: RequestPart, body: ErrorBody): Violation[] {
  return body.errors.map((e) => ({
    location: ['request', part, ...(e.field ? (part === 'body' ? e.field.split('.') : [e.field]) : [])],
    severity: 'Error',
    code: e.id ?? 'invalid',
    message: e.message,
  }));
}

/** The `sl-violations` value of a list, cut as Prism cuts it. */
export function violationsHeaderValue(violations: readonly Violation[]): string {
  const value = JSON.stringify(violations);
  return value.length > MAX_VIOLATIONS_HEADER_LENGTH ? `Too many violations! ${value.slice(0, MAX_VIOLATIONS_HEADER_LENGTH)}` : value;
}

/** One log line of a violation: the call, its correlation id (as sent, cut to 64 characters), where and why. */
export function violationLine(call: string, correlationId: unknown, v: Violation): string {
  const id = typeof correlationId === 'string' && correlationId !== '' ? correlationId.slice(0, 64) : '(none)';
  return `request violation served: ${call} IM-CorrelationID ${id}: ${v.location.join('.')} [${v.code}] ${v.message}`;
}

/**
 * The violations noted on one request (warn mode): each call adds a refusal's violations, logs one line per
 * violation and sets the header to every violation so far, so an answer sent later (the handler's, or a refusal
 * the mode does not serve) carries them all.
 */
export function noteViolations(
  noted: Violation[] | null,
  part: RequestPart,
  body: ErrorBody,
  to: { reply: FastifyReply; call: string; correlationId: unknown; log: (line: string) => void },
): Violation[] {
  const added = violationsOf(part, body);
  const all = noted ? noted.concat(added) : added;
  for (const v of added) to.log(violationLine(to.call, to.correlationId, v));
  to.reply.header(VIOLATIONS_HEADER, violationsHeaderValue(all));
  return all;
}

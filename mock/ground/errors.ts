/**
 * Coded errors of the mock. Every entry has a code, a status and a message; every error body has
 * the spec's shape `{ errors: [{ field, message }] }`, each entry also carrying the published
 * document's `id` (our code), `type` and `fields[]`, so a client of either reads it.
 */
export interface ErrorEntry {
  field: string | null;
  message: string;
  id?: string;
  type?: string;
  fields?: { field: string; value: string; message: string }[];
}
export interface ErrorBody {
  errors: ErrorEntry[];
}

export interface ErrorCode {
  readonly status: number;
  readonly message: string;
  /** The field concerned, when the code always names one. */
  readonly field?: string;
}

export const ERRORS = {
  tooManyRequests: { status: 429, message: 'Too many requests' },
  missingToken: { status: 401, message: 'Missing access token: send Authorization: Bearer <ACCESS_TOKEN>', field: 'Authorization' },
  invalidToken: { status: 401, message: 'Invalid or expired access token', field: 'Authorization' },
  wrongFamily: { status: 401, message: 'Access token was issued for another API family', field: 'Authorization' },
  invalidClient: { status: 401, message: 'Invalid client credentials', field: 'client_id' },
  missingField: { status: 400, message: 'Missing required field' },
  missingHeader: { status: 400, message: 'Missing required header' },
  invalidHeader: { status: 400, message: 'Invalid header value' },
  badSignature: { status: 401, message: 'x-hub-signature does not match the event', field: 'x-hub-signature' },
  documentConflict: { status: 400, message: 'The request follows the distributor client, not the published document' },
  missingQuery: { status: 400, message: 'Missing required query parameter' },
  invalidQuery: { status: 400, message: 'Invalid query parameter value' },
  invalidPath: { status: 400, message: 'Invalid path parameter value' },
  unsupportedGrant: { status: 400, message: 'grant_type must be client_credentials', field: 'grant_type' },
  formRequired: { status: 415, message: 'Content-Type must be application/x-www-form-urlencoded', field: 'Content-Type' },
  jsonRequired: { status: 415, message: 'Content-Type must be application/json', field: 'Content-Type' },
  malformedJson: { status: 400, message: 'Request body is not valid JSON' },
  tooLarge: { status: 413, message: 'Request body is too large' },
  invalidBody: { status: 400, message: 'Invalid request body' },
  notFound: { status: 404, message: 'not found' },
  conflict: { status: 409, message: 'Conflict' },
  noRoute: { status: 404, message: 'No such resource' },
  methodNotAllowed: { status: 405, message: 'Method not allowed' },
  uriTooLong: { status: 414, message: 'A path parameter is longer than the mock reads' },
  badUrl: { status: 400, message: 'The path is not a valid URL component (its percent-encoding does not decode)' },
  badControl: { status: 400, message: 'Invalid control request' },
  internal: { status: 500, message: 'Internal error of the mock' },
} as const satisfies Record<string, ErrorCode>;
export type ErrorCodeName = keyof typeof ERRORS;

const TYPE_OF_STATUS: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  414: 'URITooLong',
  415: 'UnsupportedMediaType',
  429: 'TooManyRequests',
  500: 'InternalError',
};

/** One error entry of a code; `message` replaces the code's message, `field` names the field concerned. */
export function entryOf(code: ErrorCodeName, o: { field?: string | null; message?: string; value?: string } = {}): ErrorEntry {
  const c: ErrorCode = ERRORS[code];
  const field = o.field !== undefined ? o.field : (c.field ?? null);
  const message = o.message ?? c.message;
  return {
    field,
    message,
    id: code,
    type: TYPE_OF_STATUS[c.status] ?? 'Error',
    ...(field ? { fields: [{ field, value: o.value ?? '', message }] } : {}),
  };
}

/** The error body of one code. */
export function errorOf(code: ErrorCodeName, o: { field?: string | null; message?: string } = {}): ErrorBody {
  return { errors: [entryOf(code, o)] };
}

/** The HTTP status of an error code. */
export const errorStatusOf = (code: ErrorCodeName): number => ERRORS[code].status;

/** A free-form error body (control API). */
export const errorBody = (message: string, field: string | null = null): ErrorBody => ({ errors: [{ field, message }] });

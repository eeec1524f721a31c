/** Coded errors of the mock: every error body has the spec's shape `{ errors: [{ field, message }] }`. */
export interface ErrorEntry {
  field: string | null;
  message: string;
}
export interface ErrorBody {
  errors: ErrorEntry[];
}

export const errorBody = (message: string, field: string | null = null): ErrorBody => ({ errors: [{ field, message }] });

export const ERRORS = {
  tooManyRequests: () => errorBody('Too many requests'),
  missingToken: () => errorBody('Missing access token: send Authorization: Bearer <ACCESS_TOKEN>', 'Authorization'),
  invalidToken: () => errorBody('Invalid or expired access token', 'Authorization'),
  wrongFamily: () => errorBody('Access token was issued for another API family', 'Authorization'),
  invalidClient: () => errorBody('Invalid client credentials', 'client_id'),
  missingField: (field: string) => errorBody(`Missing required field ${field}`, field),
  unsupportedGrant: () => errorBody('grant_type must be client_credentials', 'grant_type'),
  formRequired: () => errorBody('Content-Type must be application/x-www-form-urlencoded', 'Content-Type'),
  jsonRequired: () => errorBody('Content-Type must be application/json', 'Content-Type'),
  malformedJson: () => errorBody('Request body is not valid JSON'),
  tooLarge: () => errorBody('Request body is too large'),
  notFound: (what: string) => errorBody(`${what} not found`),
  noRoute: () => errorBody('No such resource'),
  methodNotAllowed: (allowed: string) => errorBody(`Method not allowed; allowed: ${allowed}`),
  invalidBody: (field: string | null, message: string) => errorBody(message, field),
} as const;

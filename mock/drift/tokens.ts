/** Drift of the token endpoints: the token response's fields, its headers, what a token request may be. */
import type { Answer } from './answer';
import type { DriftEffect, DriftId } from './index';

/** A successful token response, rewritten. */
const tokenBody =
  (edit: (body: Record<string, unknown>) => void) =>
  (a: Answer): void => {
    if (a.token && a.status === 200) a.editObject(edit);
  };

export const TOKEN_DRIFT = {
  'token.type-not-bearer': {
    answer: tokenBody((b) => {
      b.token_type = 'MAC';
    }),
  },
  'token.expires-in-string': {
    answer: tokenBody((b) => {
      b.expires_in = String(b.expires_in);
    }),
  },
  'token.access-token-missing': {
    answer: tokenBody((b) => {
      delete b.access_token;
    }),
  },
  'token.wrong-secret-accepted': { leniency: 'wrong-client-secret' },
  'token.json-body-accepted': { leniency: 'json-token-request' },
  'token.no-ratelimit-headers': {
    answer: (a) => {
      if (a.token) a.removeRateLimitHeaders();
    },
  },
} as const satisfies { [id in DriftId]?: DriftEffect };

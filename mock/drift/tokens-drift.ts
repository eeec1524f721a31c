/** Drift of the token endpoints: the token response's fields, its headers, what a token request may be. */
import { errorOf } from '../ground/errors';
import type { Answer, AnswerTransform } from './answer';
import type { DriftEffect, DriftId } from './index';

/** How long after its first use a token is refused, expires_in and the 24 h guidance notwithstanding. */
export const REFUSED_EARLY_AFTER_MS = 3_000;

/** A call whose bearer token was first used more than REFUSED_EARLY_AFTER_MS ago (mock clock) answers 401. */
function refusedEarly(): AnswerTransform {
  const firstUse = new Map<string, number>();
  return (a) => {
    const bearer = a.authorization;
    if (a.token || bearer === undefined || a.status === 401) return;
    const first = firstUse.get(bearer) ?? a.nowMs;
    firstUse.set(bearer, first);
    if (a.nowMs - first <= REFUSED_EARLY_AFTER_MS) return;
    a.status = 401;
    a.setJson(errorOf('invalidToken'));
  };
}

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
  'token.refused-early': { answer: refusedEarly() },
  'token.no-ratelimit-headers': {
    answer: (a) => {
      if (a.token) a.removeRateLimitHeaders();
    },
  },
} as const satisfies { [id in DriftId]?: DriftEffect };

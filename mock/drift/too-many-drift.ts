/** Drift of the 429 answer: its body and its headers. */
import { TOO_MANY_REQUESTS_MESSAGE } from '../../catalogue/rules';
import { HDR, type Answer } from './answer';
import type { DriftEffect, DriftId } from './index';

/** A 429 answer, rewritten. */
const refusal =
  (rewrite: (a: Answer) => void) =>
  (a: Answer): void => {
    if (a.status === 429) rewrite(a);
  };

export const TOO_MANY_DRIFT = {
  '429.no-errors': { answer: refusal((a) => a.setJson({ message: TOO_MANY_REQUESTS_MESSAGE })) },
  '429.message-missing': { answer: refusal((a) => a.setJson({ errors: [{ field: null }] })) },
  '429.field-missing': { answer: refusal((a) => a.setJson({ errors: [{ message: TOO_MANY_REQUESTS_MESSAGE }] })) },
  '429.remaining-positive': {
    answer: refusal((a) => {
      if (a.header(HDR.remaining) !== undefined) a.setHeader(HDR.remaining, 1);
    }),
  },
  '429.limit-differs': {
    // Names one call more than the limit the accepted calls advertised.
    answer: refusal((a) => {
      const limit = a.header(HDR.limit);
      if (limit !== undefined) a.setHeader(HDR.limit, Number(limit) + 1);
    }),
  },
  '429.no-headers': { answer: refusal((a) => a.removeRateLimitHeaders()) },
  '429.non-json': { answer: refusal((a) => a.setText('text/plain', TOO_MANY_REQUESTS_MESSAGE)) },
} as const satisfies { [id in DriftId]?: DriftEffect };

/**
 * Drift of the X-RateLimit headers on accepted and refused calls alike (the 429 answer's own drift is
 * in too-many-drift.ts). Each rewrites the headers the mock wrote; an answer without them is left alone.
 */
import { HDR, type Answer } from './answer';
import type { DriftEffect, DriftId } from './index';

/** The advertised limit and remaining calls of an answer that carries both. */
function counts(a: Answer): { limit: number; remaining: number } | undefined {
  const limit = a.header(HDR.limit);
  const remaining = a.header(HDR.remaining);
  return limit === undefined || remaining === undefined ? undefined : { limit: Number(limit), remaining: Number(remaining) };
}

/** X-RateLimit-Remaining of an allowed call, rewritten from the advertised counts. */
const remainingOfAllowed =
  (rewrite: (c: { limit: number; remaining: number }) => number) =>
  (a: Answer): void => {
    const c = counts(a);
    if (c && a.decision?.allowed) a.setHeader(HDR.remaining, rewrite(c));
  };

/** The reset header rewritten where the mock wrote one. */
const reset =
  (rewrite: (a: Answer, windowEndMs: number) => string) =>
  (a: Answer): void => {
    const d = a.decision;
    if (d && a.header(HDR.reset) !== undefined) a.setHeader(HDR.reset, rewrite(a, d.windowEndMs));
  };

export const HEADER_DRIFT = {
  'headers.limit-missing-2xx': {
    answer: (a) => {
      if (a.status < 300) a.removeHeader(HDR.limit);
    },
  },
  'headers.all-missing-4xx': {
    answer: (a) => {
      if (a.status >= 400 && a.status < 500 && a.status !== 429) a.removeRateLimitHeaders();
    },
  },
  'headers.remaining-not-decreasing': { answer: remainingOfAllowed(({ limit }) => limit - 1) },
  'headers.remaining-rising': { answer: remainingOfAllowed(({ limit, remaining }) => limit - remaining) },
  'headers.remaining-step-two': {
    answer: remainingOfAllowed(({ limit, remaining }) => (remaining >= 2 && remaining <= limit - 3 ? remaining - 1 : remaining)),
  },
  'headers.remaining-after-zero': { answer: remainingOfAllowed(({ remaining }) => Math.max(0, remaining - 1)) },
  'headers.reset-in-past': { answer: reset((a) => String(Math.floor(a.nowMs / 1000) - 30)) },
  'headers.reset-not-integer': { answer: reset((_a, windowEndMs) => (windowEndMs / 1000 + 0.25).toFixed(3)) },
} as const satisfies { [id in DriftId]?: DriftEffect };

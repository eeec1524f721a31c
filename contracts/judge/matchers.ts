/**
 * Custom matchers: a failure says which documented fact broke, what was expected and what was received.
 */
import { expect as base } from '@playwright/test';
import { DEFAULT_WINDOW_MS } from '../../catalogue';
import { intHeader } from '../../catalogue/rules';
import type { ApiResponse } from '../../clients/http';
import { evidenceOf } from '../../clients/http';
import { schemaErrors } from './schema-errors';
import { quietPasses } from './quiet-passes';
import { rateLimitValue, headerInvariantProblem, remainingSequenceProblem } from './rate-limit-sequence';

const HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'] as const;

export interface RateLimitHeaderOptions {
  /**
   * Now on the target's clock, epoch ms (the mock's frozen clock). Default: the exchange's own times, so
   * that a Reset read seconds after its answer (a slow batch, a loaded machine) is not judged late.
   */
  nowMs?: number;
  /** Longest plausible window in ms (Reset no later than now + window). */
  windowMs?: number;
}

/**
 * Checks Reset against both readings of the spec (epoch second, or seconds to wait). The target decided
 * between `fromMs` and `toMs` (the request sent, its answer read): Reset may not come before the first
 * nor more than a window after the second.
 */
export function resetProblem(reset: number, fromMs: number, toMs: number, windowMs: number): string | null {
  const maxS = Math.ceil(windowMs / 1000) + 2;
  // One time given (the target's clock): "now"; else which end of the exchange the Reset was judged against.
  const when = (what: 'sent' | 'answered', ms: number) => `${fromMs === toMs ? 'now' : `the call was ${what} at`} ${Math.floor(ms / 1000)}`;
  if (reset > 1_000_000_000) {
    if (reset < Math.floor(fromMs / 1000) - 1) return `X-RateLimit-Reset ${reset} is in the past (${when('sent', fromMs)})`;
    if (reset > toMs / 1000 + maxS)
      return `X-RateLimit-Reset ${reset} is more than one window (${maxS} s) ahead (${when('answered', toMs)})`;
    return null;
  }
  if (reset < 0) return `X-RateLimit-Reset ${reset} is negative`;
  if (reset > maxS) return `X-RateLimit-Reset ${reset} (read as seconds to wait) exceeds one window (${maxS} s)`;
  return null;
}

/** The fact the Remaining sequence of a bucket's exhaustion keeps. */
export const REMAINING_SEQUENCE_FACT =
  'X-RateLimit-Remaining is the number of requests the app can still send: one less per accepted call, and no call is accepted after Remaining 0';

/** The fact the X-RateLimit-Limit of a 429 keeps. */
export const LIMIT_ON_429_FACT = 'the X-RateLimit-Limit of a 429 is the limit the endpoint advertised and enforced in that window';

/**
 * Over an exhaustion ending in a 429 (oldest first): the 429's X-RateLimit-Limit against the limit the
 * last accepted call before it advertised, naming both answers by IM-CorrelationID; null when they agree
 * or when either header is absent or not an integer (the header checks judge those).
 */
export function limitOn429Problem(seq: readonly ApiResponse[]): string | null {
  const refused = seq[seq.length - 1];
  if (!refused || refused.status !== 429) return null;
  const onRefusal = rateLimitValue(refused, 'limit');
  const accepted = seq.filter((r) => r.status < 300);
  const advertiser = [...accepted].reverse().find((r) => rateLimitValue(r, 'limit') !== null);
  const advertised = advertiser ? rateLimitValue(advertiser, 'limit') : null;
  if (onRefusal === null || advertised === null || onRefusal === advertised) return null;
  return (
    `X-RateLimit-Limit ${onRefusal} on the 429 (IM-CorrelationID ${refused.correlationId}), ` +
    `X-RateLimit-Limit ${advertised} on the last accepted call (IM-CorrelationID ${advertiser?.correlationId}); ` +
    `${accepted.length} call(s) accepted before the 429`
  );
}

/** The last answer of a sequence, as evidence. */
const lastOf = (seq: readonly ApiResponse[]): string => (seq.length ? `\nLast: ${evidenceOf(seq[seq.length - 1] as ApiResponse)}` : '');

/** A matcher's result: its name, whether it passed, what `.not` expected, and the broken fact when it failed. */
function verdict(name: string, pass: boolean, expectedBroken: string, brokenFact: () => string) {
  return { pass, name, message: () => (pass ? expectedBroken : brokenFact()) };
}

/** The suite's own matchers: each says which documented fact broke, what was expected and what was received. */
const OWN_MATCHERS = {
  /** Over an exhaustion ending in a 429: the 429 names the limit the accepted calls advertised. */
  toNameTheAdvertisedLimitOn429(seq: readonly ApiResponse[]) {
    const problem = limitOn429Problem(seq);
    return verdict(
      'toNameTheAdvertisedLimitOn429',
      problem === null,
      'Expected the 429 to name another limit than the accepted calls advertised',
      () =>
        `Broken fact: ${LIMIT_ON_429_FACT}\nExpected: the same X-RateLimit-Limit on the 429 as on the accepted calls before it\nReceived: ${problem}`,
    );
  },

  /**
   * Over accepted answers of one bucket sent one after the other (oldest first): Limit constant, Remaining
   * one less per call, Reset stable within a window.
   */
  toKeepRateLimitHeaderInvariants(seq: readonly ApiResponse[]) {
    const problem =
      seq.length < 2 ? (['two answers or more', `only ${seq.length}: nothing to compare`] as const) : headerInvariantProblem(seq);
    return verdict(
      'toKeepRateLimitHeaderInvariants',
      problem === null,
      'Expected the rate-limit headers to break an invariant',
      () =>
        `Broken fact: ${problem?.[0]}\nExpected: over ${seq.length} calls in a row, Limit constant, Remaining one less per call, Reset stable within a window\nReceived: ${problem?.[1]}${lastOf(seq)}`,
    );
  },

  /** Over one bucket's answers, in any order: Remaining one less per counted call, nothing accepted after 0. */
  toCountDownRemaining(seq: readonly ApiResponse[]) {
    const problem = seq.length < 2 ? `only ${seq.length} answer(s): nothing to compare` : remainingSequenceProblem(seq);
    return verdict(
      'toCountDownRemaining',
      problem === null,
      'Expected the Remaining sequence to break',
      () =>
        `Broken fact: ${REMAINING_SEQUENCE_FACT}\nExpected: Remaining one less per 2xx until a 429 (${seq.length} answers)\nReceived: ${problem}${lastOf(seq)}`,
    );
  },

  toMatchSchema(received: unknown, schemaId: string, fact = 'the body matches its schema') {
    const errors = schemaErrors(schemaId, received);
    return verdict(
      'toMatchSchema',
      errors.length === 0,
      `Expected the body not to match ${schemaId}`,
      () =>
        `Broken fact: ${fact}\nExpected: a body matching ${schemaId}\nReceived: ${JSON.stringify(received)?.slice(0, 400)}\nErrors:\n  ${errors.join('\n  ')}`,
    );
  },

  toHaveRateLimitHeaders(res: ApiResponse, opts: RateLimitHeaderOptions = {}) {
    const problems: string[] = [];
    const values: Record<string, number> = {};
    for (const h of HEADERS) {
      const v = res.headers[h];
      const n = intHeader(v);
      if (v === undefined) problems.push(`${h} is absent`);
      else if (n === null) problems.push(`${h} is "${v}", not an integer`);
      else values[h] = n;
    }
    const limit = values['x-ratelimit-limit'];
    const remaining = values['x-ratelimit-remaining'];
    const reset = values['x-ratelimit-reset'];
    if (limit !== undefined && limit <= 0) problems.push(`X-RateLimit-Limit is ${limit}, expected > 0`);
    if (remaining !== undefined && remaining < 0) problems.push(`X-RateLimit-Remaining is ${remaining}, expected >= 0`);
    if (limit !== undefined && remaining !== undefined && remaining > limit)
      problems.push(`X-RateLimit-Remaining ${remaining} exceeds X-RateLimit-Limit ${limit}`);
    const fromMs = opts.nowMs ?? res.sentAtMs;
    const toMs = opts.nowMs ?? res.receivedAtMs;
    if (reset !== undefined && fromMs !== undefined && toMs !== undefined) {
      const p = resetProblem(reset, fromMs, toMs, opts.windowMs ?? DEFAULT_WINDOW_MS);
      if (p) problems.push(p);
    }
    return verdict(
      'toHaveRateLimitHeaders',
      problems.length === 0,
      'Expected the rate-limit headers to be broken',
      () =>
        `Broken fact: every API response carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset as integers\n` +
        `Expected: three integer headers, Remaining <= Limit, Reset within one window\nReceived: ${problems.join('; ')}\nEvidence: ${evidenceOf(res)}`,
    );
  },

  toBeErrorBody(res: ApiResponse, fact = 'error responses carry the error body errors[] with field (string or null) and message (string)') {
    const problems: string[] = [];
    if (res.json === undefined) problems.push(`the body is not JSON (Content-Type ${res.headers['content-type'] ?? 'absent'})`);
    else problems.push(...schemaErrors('https://harness.local/schemas/error-body.json', res.json));
    return verdict(
      'toBeErrorBody',
      problems.length === 0,
      'Expected not an error body',
      () =>
        `Broken fact: ${fact}\nExpected: {"errors":[{"field": string|null, "message": string}]}\nReceived: ${problems.join('; ')}\nEvidence: ${evidenceOf(res)}`,
    );
  },

  /**
   * One assertion (one reported step) for a status range: a range written as two comparisons costs two
   * steps, and each step captures a stack trace, which is much of a worker's time in a certify run.
   */
  toHaveStatusIn(res: ApiResponse, low: number, high: number) {
    const pass = res.status >= low && res.status <= high;
    return {
      pass,
      name: 'toHaveStatusIn',
      // Short: the callers' messages give the fact and the evidence (headers, body) already.
      message: () => `Expected: a status ${pass ? 'outside' : 'within'} ${low}–${high}\nReceived: ${res.status} (${res.method} ${res.url})`,
    };
  },

  toBeJsonResponse(res: ApiResponse) {
    const ct = res.headers['content-type'] ?? '';
    const pass = /^application\/([a-z.+-]*\+)?json/i.test(ct) && res.json !== undefined;
    return {
      pass,
      name: 'toBeJsonResponse',
      message: () =>
        `Broken fact: responses are JSON\nExpected: Content-Type application/json and a JSON body\nReceived: Content-Type ${ct || '(absent)'}\nEvidence: ${evidenceOf(res)}`,
    };
  },
};

/** Playwright's expect with the suite's matchers; an assertion that passes records no step (quiet-passes.ts). */
export const expect = quietPasses(base.extend(OWN_MATCHERS), OWN_MATCHERS);

declare module '@playwright/test' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface Matchers<R, T> {
    toMatchSchema(schemaId: string, fact?: string): R;
    toHaveRateLimitHeaders(opts?: RateLimitHeaderOptions): R;
    toBeErrorBody(fact?: string): R;
    toBeJsonResponse(): R;
    toHaveStatusIn(low: number, high: number): R;
    toCountDownRemaining(): R;
    toKeepRateLimitHeaderInvariants(): R;
    toNameTheAdvertisedLimitOn429(): R;
  }
}

/**
 * The capacity probes' verdicts: the advertised limit honoured (judged by what the probe's reading means: the calls
 * before the first refusal, a window's burst, a bucket's exhaustion with its rate), the 429's documented JSON error
 * body, and what cannot be judged.
 */
import { test, expect } from '@playwright/test';
import { exhaustionReading, fingerprintReading, judgeLimit } from '../../load/lib/limit-verdicts';
import { refusalEvidence, schemaProblems, type RefusalEvidence } from '../../load/lib/refusal-body';
import type { ProbeSample } from '../../load/lib/limit-analysis';
import { errorBodySchema, schemaId } from '../../catalogue/schemas';
import { TOO_MANY_REQUESTS_MESSAGE } from '../../catalogue/rules';
import { schemaErrors } from '../../contracts/judge/schema-errors';

const JSON_429 = refusalEvidence(
  429,
  'application/json',
  JSON.stringify({ errors: [{ field: null, message: TOO_MANY_REQUESTS_MESSAGE }] }),
);

/** An exhaustion: `allowed` calls counting Remaining down from `remaining0` (null: no header), then one refusal. */
function exhaustion(
  advertised: number | null,
  allowed: number,
  o: { remaining0?: number | null; refused?: boolean; msPerCall?: number } = {},
): ProbeSample[] {
  const r0 = o.remaining0 === undefined ? (advertised ?? 0) - 1 : o.remaining0;
  const step = o.msPerCall ?? 1;
  const calls = Array.from({ length: allowed }, (_, i) => ({
    tMs: 1000 + i * step,
    status: 200,
    limit: advertised,
    remaining: r0 === null ? null : Math.max(0, r0 - i),
    reset: null,
  }));
  const refusal = { tMs: 1000 + allowed * step, status: 429, limit: advertised, remaining: r0 === null ? null : 0, reset: null };
  return o.refused === false ? calls : [...calls, refusal];
}

/** Calls one after another: each sent 1 ms before its answer. */
const callsOf = (samples: ProbeSample[], refusal: RefusalEvidence | null = JSON_429) => ({
  samples,
  sentMs: samples.map((x) => x.tMs - 1),
  refusal,
});

const byExhaustion = (samples: ProbeSample[], refusal: RefusalEvidence | null = JSON_429, windowMs = 60_000) =>
  judgeLimit(exhaustionReading(callsOf(samples, refusal), windowMs));

test.describe('the 429 body judged with the catalogue schema', () => {
  const bodies: Record<string, unknown> = {
    documented: { errors: [{ field: null, message: TOO_MANY_REQUESTS_MESSAGE }] },
    'with the published extras': { errors: [{ field: 'x', message: 'm', id: 'a', type: 'b', fields: [] }] },
    'no errors[]': { message: TOO_MANY_REQUESTS_MESSAGE },
    'errors empty': { errors: [] },
    'message missing': { errors: [{ field: null }] },
    'field missing': { errors: [{ message: 'm' }] },
    'field a number': { errors: [{ field: 3, message: 'm' }] },
    'a list': [{ field: null, message: 'm' }],
  };
  for (const [name, body] of Object.entries(bodies))
    test(`should agree with the suite's validator on a body ${name}`, () => {
      const ours = schemaProblems(errorBodySchema, body);
      expect(ours.length === 0, ours.join('; ')).toBe(schemaErrors(schemaId('error-body'), body).length === 0);
    });

  test('should refuse a body that is not JSON, whatever it says', () => {
    expect(refusalEvidence(429, 'text/plain', TOO_MANY_REQUESTS_MESSAGE).bodyProblems).toEqual(['Content-Type text/plain, not JSON']);
    expect(refusalEvidence(429, undefined, '{}').bodyProblems[0]).toMatch(/Content-Type \(absent\)/);
    expect(refusalEvidence(429, 'application/json', 'Too many').bodyProblems).toEqual(['the body does not parse as JSON']);
    expect(JSON_429.bodyProblems).toEqual([]);
  });

  test('should judge the whole body, though the evidence keeps an excerpt', () => {
    const long = JSON.stringify({ errors: [{ field: null, message: 'x'.repeat(500) }] });
    const r = refusalEvidence(429, 'application/json; charset=utf-8', long);
    expect(r.body.length).toBe(200);
    expect(r.bodyProblems).toEqual([]);
  });

  test('should keep no token a refusal echoes in its evidence', () => {
    const r = refusalEvidence(429, 'text/plain', 'refused: Authorization: Bearer abc.def-123');
    expect(r.body).not.toContain('abc.def-123');
    expect(r.body).toContain('[REDACTED]');
  });

  test('should fail a 429 in text/plain, naming the evidence', () => {
    const v = byExhaustion(exhaustion(60, 60), refusalEvidence(429, 'text/plain', TOO_MANY_REQUESTS_MESSAGE));
    expect(v.verdict).toBe('failed');
    expect(v.breaches).toEqual([expect.objectContaining({ fact: 'refusal-body', advertised: 60, observed: 60 })]);
    expect(v.breaches[0]?.evidence).toContain('Content-Type text/plain, not JSON');
    expect(v.breaches[0]?.evidence).toContain('"Too many requests"');
  });

  test('should leave a refusal by a status the user named unjudged, as a note', () => {
    const v = byExhaustion(exhaustion(60, 60), refusalEvidence(503, 'text/html', '<html>'));
    expect(v.verdict).toBe('passed');
    expect(v.notes.join()).toMatch(/status 503 \(--refused-status\)/);
  });
});

test.describe('the advertised limit, by the exhaustion (probe-limits)', () => {
  test('should pass a limiter that allows exactly what it advertises', () => {
    expect(byExhaustion(exhaustion(60, 60)).verdict).toBe('passed');
    expect(byExhaustion(exhaustion(150, 150)).verdict).toBe('passed');
  });

  test('should fail a limit advertised as 500 that refuses the 101st call', () => {
    const v = byExhaustion(exhaustion(500, 100));
    expect(v.verdict).toBe('failed');
    expect(v.breaches[0]).toMatchObject({
      fact: 'limit-honoured',
      broken: 'refused before its advertised limit',
      advertised: 500,
      observed: 100,
    });
    expect(v.breaches[0]?.evidence).toMatch(/100 calls allowed in 100 ms .* X-RateLimit-Limit 500 and the first Remaining 499 allow 500;/);
  });

  test('should hold an earlier spend to the first Remaining, not to the limit', () => {
    expect(byExhaustion(exhaustion(60, 40, { remaining0: 39 })).verdict).toBe('passed');
    expect(byExhaustion(exhaustion(60, 30, { remaining0: 39 })).breaches[0]).toMatchObject({ observed: 30 });
  });

  test('should not judge an early refusal without Remaining (an earlier spend looks the same)', () => {
    const v = byExhaustion(exhaustion(60, 40, { remaining0: null }));
    expect(v.verdict).toBe('not judged');
    expect(v.notJudged[0]).toMatch(/no X-RateLimit-Remaining/);
  });

  test('should fail a call served past the limit when no refill or new window explains it', () => {
    const v = byExhaustion(exhaustion(60, 61));
    expect(v.breaches[0]).toMatchObject({ broken: 'served past its advertised limit', advertised: 60, observed: 61 });
    const toCap = byExhaustion(exhaustion(60, 62, { refused: false }), null);
    expect(toCap.breaches[0]?.evidence).toMatch(/reached its cap without a refusal.*none refused/);
  });

  test('should not judge calls past the limit that a bucket refilling the limit per window could have refilled', () => {
    // 61 calls in 1.2 s: a bucket of 60 per 60 s refills one call a second.
    const v = byExhaustion(exhaustion(60, 61, { msPerCall: 20 }));
    expect(v.verdict).toBe('not judged');
    expect(v.notJudged[0]).toMatch(/could have refilled 1 in the 1201 ms/);
    // 62 in 1.2 s at 60 per 60 s: one call more than a refill explains.
    expect(byExhaustion(exhaustion(60, 62, { msPerCall: 20 })).breaches[0]).toMatchObject({ observed: 62 });
    // The same calls at a 2 s window of a bucket of 60: 30 a second.
    expect(byExhaustion(exhaustion(60, 62, { msPerCall: 20 }), JSON_429, 2000).verdict).toBe('not judged');
  });

  test('should not judge calls past the limit without Remaining, nor across a window that rolled over', () => {
    expect(byExhaustion(exhaustion(60, 61, { remaining0: null })).notJudged[0]).toMatch(/new window cannot be told/);
    const rolled = exhaustion(60, 61);
    (rolled[30] as ProbeSample).remaining = 59;
    expect(byExhaustion(rolled).notJudged[0]).toMatch(/Remaining rose from 30 to 59 at call 31/);
  });

  test('should not judge an exhaustion that ended otherwise than by a refusal', () => {
    const s = exhaustion(60, 10, { refused: false });
    s.push({ tMs: 2000, status: 503, limit: null, remaining: null, reset: null });
    expect(byExhaustion(s, null).notJudged[0]).toMatch(/ended on status 503/);
  });

  test('should say nothing of a target that advertises no limit', () => {
    const v = byExhaustion(exhaustion(null, 12, { remaining0: null }));
    expect(v.verdict).toBe('passed');
    expect(v.notes[0]).toMatch(/no X-RateLimit-Limit/);
  });
});

test.describe('the advertised limit, by the fingerprint (probe-reset)', () => {
  type Alg = 'fixed-window' | 'sliding-window' | 'token-bucket' | 'unknown';
  const fp = (algorithm: Alg, burst: number | null, more = {}) => ({
    algorithm,
    burst,
    sustainedPerSecond: 30,
    verdict: null,
    uncertain: null,
    ...more,
  });
  const judged = (samples: ProbeSample[], f: ReturnType<typeof fp>) => judgeLimit(fingerprintReading(callsOf(samples), f));

  test('should pass a window whose burst is its advertised limit, though its exhaustion straddled two windows', () => {
    const straddled = exhaustion(60, 90);
    (straddled[30] as ProbeSample).remaining = 59;
    for (const a of ['fixed-window', 'sliding-window'] as const) expect(judged(straddled, fp(a, 60)).verdict, a).toBe('passed');
  });

  test('should fail a window whose burst is below or above the advertised limit', () => {
    const early = judged(exhaustion(60, 55), fp('fixed-window', 55));
    expect(early.breaches[0]).toMatchObject({ broken: 'refused before its advertised limit', advertised: 60, observed: 55 });
    expect(early.breaches[0]?.evidence).toMatch(/a fixed-window of burst 55 refilling 30\/s, as the fingerprint read it: its burst/);
    expect(judged(exhaustion(60, 61), fp('sliding-window', 61)).breaches[0]).toMatchObject({ broken: 'served past its advertised limit' });
  });

  // A bucket of 150 refilling 30/s: 600 ms of calls draw 150 + 18.
  test('should pass a bucket whose exhaustion its burst and rate explain, though a stall made its burst read low', () => {
    expect(judged(exhaustion(150, 168, { msPerCall: 600 / 168 }), fp('token-bucket', 148)).verdict).toBe('passed');
    // The last allowed call answered after a stall of 500 ms (decided before it): the refill it allows only widens.
    const samples = exhaustion(150, 168, { msPerCall: 600 / 168 });
    const calls = callsOf(samples);
    (samples[167] as ProbeSample).tMs += 500;
    expect(judgeLimit(fingerprintReading(calls, fp('token-bucket', 140))).verdict).toBe('passed');
  });

  test('should fail a bucket that allows fewer calls than its advertised limit and least refill, or more than its most', () => {
    // Advertises 155 but holds 150: 150 + 18 calls in 600 ms, where 155 + 16 (90 % of 30/s) are due.
    const early = judged(exhaustion(155, 168, { msPerCall: 600 / 168 }), fp('token-bucket', 150));
    expect(early.breaches[0]).toMatchObject({ broken: 'refused before its advertised limit', advertised: 155, observed: 168 });
    expect(early.breaches[0]?.evidence).toMatch(/allow 155 and at least 16 refilled/);
    // 150 + 25 in 600 ms: more than 110 % of 30/s refills (19).
    expect(judged(exhaustion(150, 175, { msPerCall: 600 / 175 }), fp('token-bucket', 150)).breaches[0]).toMatchObject({
      broken: 'served past its advertised limit',
    });
  });

  test('should not judge a fingerprint without a result or uncertain', () => {
    const calls = exhaustion(60, 60);
    expect(judged(calls, fp('unknown', null, { verdict: 'refused calls appear to count' })).notJudged[0]).toMatch(
      /no result: refused calls appear to count/,
    );
    expect(judged(calls, fp('sliding-window', 58, { uncertain: ['rates disagree'] })).verdict).toBe('not judged');
  });
});

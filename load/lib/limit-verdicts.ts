/**
 * The capacity probes' verdicts (pure TypeScript, no k6 imports): an operation honours its advertised limit (it
 * neither refuses before it nor serves past it) and refuses with the documented 429 (spec, Errors 1: "a JSON error
 * body of the shape errors[] with field (string or null) and message (string)"). A broken fact fails the run
 * (exit 1); a fact the probe could not judge says why.
 */
import type { RefusalEvidence } from './refusal-body';
import type { RateLimitFingerprint } from './fingerprint/types';
import type { ProbeSample } from './limit-analysis';

export type LimitFact = 'limit-honoured' | 'refusal-body';

/** One broken fact of one operation: what was advertised, what was observed, and what shows it. */
export interface LimitBreach {
  fact: LimitFact;
  /** In words: "refused before its advertised limit", … */
  broken: string;
  advertised: number | null;
  observed: number | null;
  evidence: string;
}

/** The verdict on one operation: failed with its breaches, passed, or a fact not judged with its reason. */
export interface LimitVerdict {
  verdict: 'passed' | 'failed' | 'not judged';
  breaches: LimitBreach[];
  /** Why a fact in scope could not be judged (a non-zero exit all the same). */
  notJudged: string[];
  /** What was left out and why it does not count (a refusal status the user named, no advertised limit). */
  notes: string[];
}

/** Least and most of a quantity the probe can only bracket. */
export interface Bracket {
  least: number;
  most: number;
}

/** What the probe measured of one operation's limit: its exhaustion, from the probe's first call to its first refusal. */
export interface LimitReading {
  /** X-RateLimit-Limit of the first answer, or null. */
  advertised: number | null;
  /** X-RateLimit-Remaining of the first answer, or null. */
  firstRemaining: number | null;
  /** Calls the exhaustion allowed before its first refusal (all it sent when none was refused). */
  allowed: number | null;
  refused: boolean;
  /** ms the limiter had to refill between its decisions on the first and the last allowed call. */
  spanMs: Bracket;
  /** Calls per ms the limiter may have refilled meanwhile. */
  refillPerMs: Bracket;
  /**
   * How the refill was known: 'fingerprint' (the probe read the limiter, calls past the limit that its refill
   * explains are its due), or 'unseen' (a bound for a bucket the probe cannot tell from a window: calls past the
   * limit that it could explain are not judged).
   */
  refillFrom: 'fingerprint' | 'unseen';
  /** What the limiter is, in words, for the evidence. */
  limiter: string;
  /** Why the exhaustion is no measurement (the window rolled over, the fingerprint has no result), or null. */
  unmeasured: string | null;
  /** The first refusal, or null when none came. */
  refusal: RefusalEvidence | null;
}

type Judged = { breach?: LimitBreach; notJudged?: string };

const breachOf = (r: LimitReading, broken: string, allows: string): Judged => ({
  breach: {
    fact: 'limit-honoured',
    broken,
    advertised: r.advertised,
    observed: r.allowed,
    evidence: `${r.allowed} calls allowed in ${Math.round(r.spanMs.most)} ms (${r.limiter}) where X-RateLimit-Limit ${r.advertised} and the first Remaining ${r.firstRemaining ?? '(absent)'} allow ${allows}${r.refused ? `; then refused with status ${r.refusal?.status ?? 429}` : '; none refused'}`,
  },
});

/**
 * The advertised limit honoured, whatever the limiter: from the probe's first call an honest limiter allows its first
 * Remaining plus the call that answered it (an earlier spend in the same window lowers both alike), at most the
 * advertised limit, plus whatever it refilled while the calls ran (a window's new calls, a bucket's tokens). Fewer
 * than that with the least refill is a refusal before the limit; more than the limit with the most refill is serving
 * past it. Between the two, the limiter's refill explains the calls (or, unseen, may).
 */
function limitJudged(r: LimitReading): Judged {
  const a = r.advertised;
  if (a === null) return {};
  if (r.unmeasured) return { notJudged: `advertised limit not judged: ${r.unmeasured}` };
  if (r.allowed === null) return { notJudged: 'advertised limit not judged: no count of the calls allowed' };
  const refilledMost = Math.floor(r.refillPerMs.most * r.spanMs.most);
  if (r.allowed > a + refilledMost)
    return r.firstRemaining === null
      ? {
          notJudged: `advertised limit not judged: ${r.allowed} calls allowed for ${a} advertised, but without X-RateLimit-Remaining a new window cannot be told`,
        }
      : breachOf(r, 'served past its advertised limit', refilledMost ? `${a} and at most ${refilledMost} refilled` : `${a}`);
  if (r.allowed > a && r.refillFrom === 'unseen')
    return {
      notJudged: `advertised limit not judged: ${r.allowed} calls allowed for ${a} advertised, but a bucket refilling ${a} calls per window could have refilled ${r.allowed - a} in the ${Math.round(r.spanMs.most)} ms the exhaustion took (probe-reset reads a bucket's burst)`,
    };
  const expected = r.firstRemaining === null ? null : Math.min(a, r.firstRemaining + 1);
  if (expected === null)
    return r.allowed < a
      ? {
          notJudged: `advertised limit not judged: ${r.allowed} calls allowed for ${a} advertised, and no X-RateLimit-Remaining to tell an earlier spend from an early refusal`,
        }
      : {};
  const refilledLeast = Math.floor(r.refillPerMs.least * r.spanMs.least);
  if (r.allowed < expected + refilledLeast)
    return breachOf(
      r,
      'refused before its advertised limit',
      refilledLeast ? `${expected} and at least ${refilledLeast} refilled` : `${expected}`,
    );
  return {};
}

function bodyBreach(r: LimitReading): { breach?: LimitBreach; note?: string } {
  if (!r.refusal) return {};
  if (r.refusal.status !== 429)
    return { note: `refused with status ${r.refusal.status} (--refused-status): the 429's body is not judged there` };
  const problems = r.refusal.bodyProblems;
  if (!problems.length) return {};
  return {
    breach: {
      fact: 'refusal-body',
      broken: 'its 429 is not the documented JSON error body (errors[] with field and message)',
      advertised: r.advertised,
      observed: r.allowed,
      evidence: `${problems.join('; ')}; status 429, body ${JSON.stringify(r.refusal.body)}`,
    },
  };
}

/** The verdict on one operation's limit and refusal. */
export function judgeLimit(r: LimitReading): LimitVerdict {
  const limit = limitJudged(r);
  const body = bodyBreach(r);
  const breaches = [limit.breach, body.breach].filter((b): b is LimitBreach => b !== undefined);
  const notJudged = limit.notJudged ? [limit.notJudged] : [];
  const notes = [
    ...(r.advertised === null ? ['no X-RateLimit-Limit: no advertised limit to hold the target to'] : []),
    ...(body.note ? [body.note] : []),
  ];
  return { verdict: breaches.length ? 'failed' : notJudged.length ? 'not judged' : 'passed', breaches, notJudged, notes };
}

/** One line per breach: the operation, the fact, advertised, observed and the evidence. */
export function breachLines(id: string, v: Pick<LimitVerdict, 'breaches'>): string[] {
  return v.breaches.map(
    (b) => `${id}: ${b.broken}: advertised ${b.advertised ?? '(none)'}, observed ${b.observed ?? '(none)'}; evidence: ${b.evidence}`,
  );
}

/** The calls of a probe: its samples with when each was sent, and the first refusal. */
export interface ProbeCalls {
  samples: readonly ProbeSample[];
  /** Epoch ms each call was sent (a volley's calls alike). */
  sentMs: readonly number[];
  refusal: RefusalEvidence | null;
}

/** Where Remaining rose among the calls before `upTo` (a new window or a refill), in words; null when it never did. */
function remainingRose(samples: readonly ProbeSample[], upTo: number): string | null {
  for (let i = 1; i < upTo; i++) {
    const a = samples[i - 1]?.remaining;
    const b = samples[i]?.remaining;
    if (a !== null && a !== undefined && b !== null && b !== undefined && b > a)
      return `Remaining rose from ${a} to ${b} at call ${i + 1}: the window rolled over or the bucket refilled during the exhaustion`;
  }
  return null;
}

/**
 * The exhaustion: the calls before the first refusal, and the time the limiter had between its decisions on the first
 * and the last allowed one (each decided between its sending and its answer: at least from the first answer to the
 * last sending, at most from the first sending to the last answer).
 */
function exhaustionOf(c: ProbeCalls): Pick<LimitReading, 'advertised' | 'firstRemaining' | 'allowed' | 'refused' | 'spanMs' | 'refusal'> & {
  endedOtherwise: string | null;
  rose: string | null;
} {
  const first429 = c.samples.findIndex((s) => s.status === 429);
  const last = c.samples[c.samples.length - 1];
  const endedOtherwise = first429 === -1 && last !== undefined && (last.status === 0 || last.status >= 400);
  const allowed = first429 === -1 ? c.samples.filter((s) => s.status > 0 && s.status < 400).length : first429;
  const firstAnswer = c.samples[0]?.tMs ?? 0;
  const firstSent = c.sentMs[0] ?? firstAnswer;
  const lastAnswer = c.samples[Math.max(0, allowed - 1)]?.tMs ?? firstAnswer;
  const lastSent = c.sentMs[Math.max(0, allowed - 1)] ?? firstSent;
  return {
    advertised: c.samples[0]?.limit ?? null,
    firstRemaining: c.samples[0]?.remaining ?? null,
    allowed,
    refused: first429 !== -1,
    spanMs: { least: Math.max(0, lastSent - firstAnswer), most: Math.max(0, lastAnswer - firstSent) },
    endedOtherwise: endedOtherwise ? `the exhaustion ended on status ${last?.status}, not a refusal` : null,
    rose: remainingRose(c.samples, first429 === -1 ? c.samples.length : first429),
    refusal: c.refusal,
  };
}

/**
 * probe-limits: the exhaustion alone. The limiter is unseen: a window refills nothing while the calls run (a new
 * window shows in Remaining), a bucket of the advertised limit per window (`windowMs`, the documented refresh
 * period) at most that rate.
 */
export function exhaustionReading(c: ProbeCalls, windowMs: number): LimitReading {
  const { endedOtherwise, rose, ...e } = exhaustionOf(c);
  return {
    ...e,
    unmeasured: endedOtherwise ?? rose,
    refillPerMs: { least: 0, most: (e.advertised ?? 0) / windowMs },
    refillFrom: 'unseen',
    limiter: e.refused ? 'before the first refusal of the exhaustion' : 'the exhaustion reached its cap without a refusal',
  };
}

/** Share of a fingerprint's rate its reading may be off by (a right reading is within 10 %). */
const RATE_TOLERANCE = 0.1;

/**
 * probe-reset: judged by what the fingerprint says the limiter is. A window's burst is a count of the calls one
 * window allows (the fingerprint's, read across windows: an exhaustion that straddled two proves nothing). A bucket's
 * burst is an estimate (its exhaustion less a refill timed by answers a stall may delay), so a bucket is judged by its
 * exhaustion and its rate, within the reading's tolerance (at least 90 %, at most 110 % of it refilled meanwhile).
 */
export function fingerprintReading(
  c: ProbeCalls,
  fp: Pick<RateLimitFingerprint, 'algorithm' | 'burst' | 'sustainedPerSecond' | 'verdict' | 'uncertain'>,
): LimitReading {
  const { endedOtherwise, rose: _bucketsRefill, ...e } = exhaustionOf(c);
  const unmeasured = fp.verdict
    ? `the fingerprint has no result: ${fp.verdict}`
    : fp.uncertain?.length
      ? `the fingerprint is uncertain: ${fp.uncertain.join('; ')}`
      : fp.algorithm === 'unknown' || fp.burst === null
        ? 'the fingerprint read no limiter'
        : endedOtherwise;
  const rate = fp.sustainedPerSecond === null ? '' : ` refilling ${fp.sustainedPerSecond}/s`;
  const limiter = `a ${fp.algorithm} of burst ${fp.burst}${rate}, as the fingerprint read it`;
  if (fp.algorithm !== 'token-bucket')
    return {
      ...e,
      allowed: fp.burst,
      unmeasured,
      refillPerMs: { least: 0, most: 0 },
      refillFrom: 'fingerprint',
      limiter: `${limiter}: its burst`,
    };
  const perMs = (fp.sustainedPerSecond ?? 0) / 1000;
  return {
    ...e,
    unmeasured,
    refillPerMs: { least: perMs * (1 - RATE_TOLERANCE), most: perMs * (1 + RATE_TOLERANCE) },
    refillFrom: 'fingerprint',
    limiter: `${limiter}: its exhaustion`,
  };
}

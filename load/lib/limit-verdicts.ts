/**
 * The capacity probes' verdicts (pure TypeScript, no k6 imports): an operation honours its advertised limit (it
 * neither refuses before it nor serves past it) and refuses with the documented 429 (spec, Errors 1: "a JSON error
 * body of the shape errors[] with field (string or null) and message (string)"). A broken fact fails the run
 * (exit 1); a fact the probe could not judge says why.
 */
import { errorBodySchema, type JsonSchema } from '../../catalogue/schemas';
import type { RateLimitFingerprint } from './fingerprint/types';
import type { ProbeSample } from './limit-analysis';

/** The first refusal the probe drew, as the target sent it: the body cut to an excerpt, judged whole. */
export interface RefusalEvidence {
  status: number;
  contentType: string | null;
  body: string;
  /** Why the whole body is not the documented JSON error body; [] when it is. */
  bodyProblems: string[];
}

/** Longest body excerpt a refusal's evidence keeps. */
export const REFUSAL_EXCERPT_CHARS = 200;

/** The evidence of a refusal from its status, Content-Type and body. */
export function refusalEvidence(status: number, contentType: string | null | undefined, body: string | null | undefined): RefusalEvidence {
  const text = String(body ?? '');
  const ct = contentType ?? null;
  return { status, contentType: ct, body: text.slice(0, REFUSAL_EXCERPT_CHARS), bodyProblems: refusalBodyProblems(ct, text) };
}

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

const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v);

function typeMatches(want: unknown, v: unknown): boolean {
  const wants = Array.isArray(want) ? (want as string[]) : [want as string];
  const t = typeOf(v);
  return wants.includes(t) || (t === 'integer' && wants.includes('number'));
}

/**
 * `path: message` for each way `v` breaks `schema`, for the keywords the error body's schema uses (type,
 * properties, required, items, minItems): the schema in catalogue/schemas.ts stays the one home of the shape, and
 * the k6 scripts judge with it without a validator that compiles code at run time.
 */
export function schemaProblems(schema: JsonSchema, v: unknown, path = ''): string[] {
  if (schema.type !== undefined && !typeMatches(schema.type, v)) return [`${path || '/'}: must be ${String(schema.type)}, is ${typeOf(v)}`];
  const out: string[] = [];
  if (typeOf(v) === 'object') {
    const o = v as Record<string, unknown>;
    for (const k of (schema.required as string[] | undefined) ?? []) if (!(k in o)) out.push(`${path || '/'}: must have ${k}`);
    for (const [k, s] of Object.entries((schema.properties as Record<string, JsonSchema> | undefined) ?? {}))
      if (k in o) out.push(...schemaProblems(s, o[k], `${path}/${k}`));
  }
  if (Array.isArray(v)) {
    const min = schema.minItems as number | undefined;
    if (min !== undefined && v.length < min) out.push(`${path || '/'}: must have at least ${min} item(s), has ${v.length}`);
    if (schema.items) v.forEach((item, i) => out.push(...schemaProblems(schema.items as JsonSchema, item, `${path}/${i}`)));
  }
  return out;
}

/** Why a refusal's body is not the documented JSON error body, or [] when it is. */
export function refusalBodyProblems(contentType: string | null, body: string): string[] {
  if (!/json/i.test(contentType ?? '')) return [`Content-Type ${contentType ?? '(absent)'}, not JSON`];
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return ['the body does not parse as JSON'];
  }
  return schemaProblems(errorBodySchema, json);
}

/** What the probe measured of one operation's limit. */
export interface LimitReading {
  /** X-RateLimit-Limit of the first answer, or null. */
  advertised: number | null;
  /** X-RateLimit-Remaining of the first answer, or null. */
  firstRemaining: number | null;
  /**
   * Calls the target allowed: the fingerprint's burst (probe-reset: what the advertised limit means for the
   * algorithm it found), else the calls before the first refusal (probe-limits).
   */
  allowed: number | null;
  /** The allowed calls were counted from a full bucket (the fingerprint's burst), not from the probe's first answer. */
  fromFullBucket: boolean;
  /** How the allowed count was read, in words, for the evidence. */
  how: string;
  /**
   * Why calls allowed past the advertised limit prove nothing (a bucket could have refilled them, the window may
   * have rolled over unseen), or null when they would.
   */
  pastUnproven: string | null;
  /** Why the allowed count is no measurement (the window rolled over, the fingerprint has no result), or null. */
  unmeasured: string | null;
  /** The first refusal, or null when none came. */
  refusal: RefusalEvidence | null;
}

type Judged = { breach?: LimitBreach; notJudged?: string };

const breachOf = (r: LimitReading, broken: string, allows: number): Judged => ({
  breach: {
    fact: 'limit-honoured',
    broken,
    advertised: r.advertised,
    observed: r.allowed,
    evidence: `${r.allowed} calls allowed (${r.how}) where X-RateLimit-Limit ${r.advertised} and the first Remaining ${r.firstRemaining ?? '(absent)'} allow ${allows}${r.refusal ? `; then refused with status ${r.refusal.status}` : '; none refused'}`,
  },
});

/**
 * The advertised limit honoured: an honest limiter allows from the probe's start its first Remaining plus the call
 * that answered it (an earlier spend in the same window lowers both alike), at most the advertised limit; from a
 * full bucket, the advertised limit. Fewer is a refusal before the limit; more than the limit is serving past it,
 * unless a refill or a new window could explain the extra calls.
 */
function limitJudged(r: LimitReading): Judged {
  const a = r.advertised;
  if (a === null) return {};
  if (r.unmeasured) return { notJudged: `advertised limit not judged: ${r.unmeasured}` };
  if (r.allowed === null) return { notJudged: 'advertised limit not judged: no count of the calls allowed' };
  if (r.allowed > a)
    return r.pastUnproven
      ? { notJudged: `advertised limit not judged: ${r.allowed} calls allowed for ${a} advertised, but ${r.pastUnproven}` }
      : breachOf(r, 'served past its advertised limit', a);
  const expected = r.fromFullBucket ? a : r.firstRemaining === null ? null : Math.min(a, r.firstRemaining + 1);
  if (expected === null && r.allowed < a)
    return {
      notJudged: `advertised limit not judged: ${r.allowed} calls allowed for ${a} advertised, and no X-RateLimit-Remaining to tell an earlier spend from an early refusal`,
    };
  if (expected !== null && r.allowed < expected) return breachOf(r, 'refused before its advertised limit', expected);
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

/** The readings both probes take from their calls: the first answer's headers and the first refusal. */
interface ProbeCalls {
  samples: readonly ProbeSample[];
  refusal: RefusalEvidence | null;
}

const firstHeaders = (samples: readonly ProbeSample[]) => ({
  advertised: samples[0]?.limit ?? null,
  firstRemaining: samples[0]?.remaining ?? null,
});

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
 * Why calls past the advertised limit prove nothing in an exhaustion: without Remaining a new window cannot be
 * seen; a bucket refilling the advertised limit per window could have refilled that many calls in the time the
 * exhaustion took (its burst is probe-reset's to tell); null when neither could explain them.
 */
function pastUnprovenOf(c: ProbeCalls & { windowMs: number; firstSentMs: number }, allowed: number, advertised: number): string | null {
  const last = c.samples[allowed - 1];
  if (c.samples.slice(0, allowed).some((s) => s.remaining === null)) return 'without X-RateLimit-Remaining a new window cannot be told';
  const spanMs = Math.max(0, (last?.tMs ?? c.firstSentMs) - c.firstSentMs);
  const refill = Math.floor((spanMs * advertised) / c.windowMs);
  return allowed - advertised <= refill
    ? `a bucket refilling ${advertised} calls per ${c.windowMs} ms window could have refilled ${allowed - advertised} in the ${Math.round(spanMs)} ms the exhaustion took (probe-reset reads a bucket's burst)`
    : null;
}

/** probe-limits: the calls the exhaustion drew before its first refusal, or all of them when none was refused. */
export function exhaustionReading(c: ProbeCalls & { windowMs: number; firstSentMs: number }): LimitReading {
  const { advertised, firstRemaining } = firstHeaders(c.samples);
  const first429 = c.samples.findIndex((s) => s.status === 429);
  const last = c.samples[c.samples.length - 1];
  const endedOtherwise = first429 === -1 && last !== undefined && (last.status === 0 || last.status >= 400);
  const allowed = first429 === -1 ? c.samples.filter((s) => s.status > 0 && s.status < 400).length : first429;
  const rose = remainingRose(c.samples, first429 === -1 ? c.samples.length : first429);
  return {
    advertised,
    firstRemaining,
    allowed,
    fromFullBucket: false,
    how: first429 === -1 ? 'the exhaustion reached its cap without a refusal' : 'before the first refusal of the exhaustion',
    pastUnproven: advertised === null || allowed <= advertised ? null : pastUnprovenOf(c, allowed, advertised),
    unmeasured: endedOtherwise ? `the exhaustion ended on status ${last?.status}, not a refusal` : rose,
    refusal: c.refusal,
  };
}

/** probe-reset: the fingerprint's burst, which is what the advertised limit means whatever the algorithm. */
export function fingerprintReading(
  c: ProbeCalls,
  fp: Pick<RateLimitFingerprint, 'algorithm' | 'burst' | 'verdict' | 'uncertain'>,
): LimitReading {
  const unmeasured = fp.verdict
    ? `the fingerprint has no result: ${fp.verdict}`
    : fp.uncertain?.length
      ? `the fingerprint is uncertain: ${fp.uncertain.join('; ')}`
      : fp.algorithm === 'unknown' || fp.burst === null
        ? 'the fingerprint read no burst'
        : null;
  return {
    ...firstHeaders(c.samples),
    allowed: fp.burst,
    fromFullBucket: true,
    how: `the burst of a full ${fp.algorithm} the fingerprint read`,
    pastUnproven: null,
    unmeasured,
    refusal: c.refusal,
  };
}

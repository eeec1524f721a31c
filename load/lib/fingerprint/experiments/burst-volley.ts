/**
 * Burst volley (continuous refill only): the exhaustion's calls came one after another, so the bucket
 * refilled while they ran, and its count less the refill is only as good as the calls' timing (a loaded
 * machine stretches them). A volley from a rested bucket, all calls at once, leaves no time to refill: it
 * counts the bucket itself.
 *
 * Plan: one call more than the bucket (the exhaustion's count less its refill, or the advertised limit if larger),
 * sent at once after a rest that fills the bucket; when every call passed (the target took them one by one and the
 * bucket refilled meanwhile), calls back to back until the first refusal. What refilled meanwhile is taken off by
 * the answers' spread. A stall before the first answer hides that spread: when the time from the send to the last
 * allowed answer leaves room for more refill than the spread says, the volley is sent once more after a rest, and
 * the one whose answers came sooner after their send counts the bucket; not when the advertised limit, or the
 * exhaustion less its refill, lies within what the first allows (from all its allowed calls down to less every call
 * refilled since the send).
 * Reading: the burst (calls a full bucket holds).
 */
import type { RateLimitHints } from '../../rate-limit-hints';
import { allowedOf, drain, volley, type Lab, type Experiment } from '../lab';
import type { LabObservation } from '../types';
import type { Drain } from '../types';

/** The exhaustion's count less what a continuous refill added while it ran (±1), or the advertised limit if consistent. */
export function refillCorrectedBurst(
  lab: Lab,
  exhaust: Drain,
  rate: number,
  advertised: RateLimitHints | null,
  rested: { drain: Drain; fromMs: number } | null,
): number {
  const counted = exhaust.allowed;
  const lastAllowed = lab.observations[Math.max(0, exhaust.allowed - 1)]?.tMs ?? exhaust.firstMs;
  // From the first call sent: its evaluation may have come long before a slow first answer.
  const refill = rate * (lastAllowed - exhaust.firstSentMs);
  const limit = advertised?.limit ?? null;
  if (limit !== null && counted >= limit && counted <= limit + Math.ceil(refill) + 1) return limit;
  const fromExhaustion = counted - Math.floor(refill);
  // The drain after a rest started from a full bucket too; its calls came faster (warm), so it refilled less.
  // Only a rest long enough to refill the whole bucket makes its drain a burst.
  const restedDrain = rested?.drain;
  const restMs = restedDrain ? restedDrain.firstMs - (rested as { fromMs: number }).fromMs : 0;
  const full = restedDrain !== undefined && restedDrain.refusedMs !== null && restMs * rate >= 1.1 * fromExhaustion;
  const fromRest = full ? restedDrain.allowed - Math.floor(rate * ((restedDrain.refusedMs as number) - restedDrain.firstMs)) : Infinity;
  return Math.max(1, Math.min(fromExhaustion, fromRest));
}

/** The first of the advertised limit and the exhaustion less its refill within lo..hi. */
const agreeing = (xs: (number | null)[], lo: number, hi: number): number | undefined =>
  xs.find((x): x is number => x !== null && x >= lo && x <= hi);

const agreementLine = (line: string, lo: number, hi: number, x: number, advertised: number | null): string =>
  `burst volley: ${line}; ${lo}..${hi} with the refill since the send, so ${x} (${x === advertised ? 'the advertised limit' : 'the exhaustion less its refill'})`;

interface VolleyCount {
  passed: number;
  /** The least it can be: every call refilled from the send to the last allowed answer taken off. */
  least: number;
  sinceSentMs: number;
  line: string;
}

/** The burst a volley counted, and the calls the last volley passed (a rested burst, whatever refilled meanwhile). */
export interface VolleyReading {
  burst: number;
  passed: number;
  /** Calls the last volley drew refused: where refused calls count, each is a call the bucket owes. */
  refused: number;
}

/**
 * `observed`: the exhaustion's count; `corrected`: the count less its refill; `restMs(fullMs)`: the rest that
 * fills a bucket emptied `fullMs` ago. The burst is `corrected` when no volley counted one.
 */
export function* burstVolley(
  lab: Lab,
  fromMs: number,
  rate: number,
  observed: number,
  corrected: number,
  restMs: (fullMs: number) => number,
  advertised: number | null = null,
): Experiment<VolleyReading> {
  const n = Math.min(observed, Math.max(corrected, advertised ?? 0)) + 1;
  let first: VolleyCount | null = null;
  let at = fromMs + restMs(observed / rate);
  for (;;) {
    const answers = yield* emptyingVolley(lab, at, n);
    const got = answers.filter(allowedOf).length;
    const sentMs = (answers[0] as { sentMs: number }).sentMs;
    const firstMs = (answers[0] as { tMs: number }).tMs;
    const lastOkMs = answers.filter(allowedOf).reduce((m, o) => o.tMs, firstMs);
    const spreadMs = lastOkMs - firstMs;
    const sinceSentMs = lastOkMs - sentMs;
    const passed = got - Math.floor(rate * spreadMs);
    const sent = answers.length === n ? `${n} calls sent at once` : `${answers.length} calls (${n} sent at once, the rest one by one)`;
    const line =
      got !== passed
        ? `${got} of ${sent} passed within ${Math.round(spreadMs)} ms, ${passed} without the refill`
        : `${passed} of ${sent} passed`;
    const least = got - Math.floor(rate * sinceSentMs);
    // A volley with a refusal holds the bucket within least..got: the advertised limit, or the exhaustion less its
    // refill, inside that range agrees with it, and no second volley is needed.
    const agrees = got < answers.length ? agreeing([advertised, corrected], least, got) : undefined;
    if (!first && agrees !== undefined) {
      lab.note(agreementLine(line, least, got, agrees, advertised));
      return { burst: agrees, passed: got, refused: answers.length - got };
    }
    if (!first && Math.floor(rate * sinceSentMs) > Math.floor(rate * spreadMs) && lab.requests + n <= lab.cfg.maxRequests) {
      lab.note(
        `burst volley: ${line}, but its last allowed answer came ${Math.round(sinceSentMs)} ms after the send (room for ${Math.floor(rate * sinceSentMs)} refilled): sent again`,
      );
      first = { passed, least, sinceSentMs, line };
      at = lab.lastMs + restMs(observed / rate);
      continue;
    }
    const chosen = first && first.sinceSentMs < sinceSentMs ? first : { passed, least, sinceSentMs, line };
    if (chosen.passed < 1 || chosen.passed > observed) return { burst: corrected, passed: got, refused: answers.length - got };
    // The volley holds the bucket within least..passed: the advertised limit, or the exhaustion less its refill,
    // inside that range agrees with it and is the sharper reading.
    const agreed = agreeing([advertised, corrected], chosen.least, chosen.passed);
    if (agreed !== undefined && agreed !== chosen.passed) {
      lab.note(agreementLine(line, chosen.least, chosen.passed, agreed, advertised));
      return { burst: agreed, passed: got, refused: answers.length - got };
    }
    const again = first
      ? `burst volley again: ${line}; counted from the one answered sooner after its send (${Math.round(chosen.sinceSentMs)} ms): ${chosen.line}`
      : `burst volley: ${line}`;
    lab.note(again + (chosen.passed !== corrected ? ` (the exhaustion less its refill gave ${corrected})` : ''));
    return { burst: chosen.passed, passed: got, refused: answers.length - got };
  }
}

/** `n` calls at once, then calls back to back until the first refusal when all of them passed. */
function* emptyingVolley(lab: Lab, at: number, n: number): Experiment<LabObservation[]> {
  const answers = yield* volley(lab, at, 'burst volley', n);
  if (answers.some((o) => !allowedOf(o))) return answers;
  const more = yield* drain(lab, lab.lastMs, 'burst volley', lab.drainCap());
  return lab.observations.slice(-(answers.length + more.allowed + (more.refusedMs === null ? 0 : 1)));
}

/**
 * Whose bucket a call is counted in, read from Remaining without spending the bucket: one caller's
 * Remaining around three calls of another (other, first x3, other). Counted together, the other's
 * Remaining drops by the four calls between its readings (three with a refill of one); counted apart, by its
 * own call alone. A limiter that refills faster than the calls come, or a window that rolls over between
 * the readings, leaves the reading unclear: the check is then not run or blocked with the readings, never
 * failed on an exact equality a sliding window or a token bucket need not keep.
 */
import { test } from '@playwright/test';
import { evidenceOf, type ApiResponse } from '../../clients/http';
import { mustInt } from './bucket-exhaustion';
import { blocked, notRun } from '../outcomes/outcomes';
import { startsNewWindow } from '../judge/rate-limit-sequence';

/** How the calls of `first` showed in the Remaining of `other`. */
export type Counting = 'together' | 'apart';

export interface CountReading {
  counting: Counting;
  /** The readings in words, each call named by IM-CorrelationID. */
  evidence: string;
}

const COUNT_FACT = 'X-RateLimit-Remaining is the number of requests the app can still send';
/** Calls of `first` between the other's two readings. */
const FIRST_CALLS = 3;

/** What one reading shows: the counting, a window that rolled over between its calls, or why it is unclear. */
export type Judgement = CountReading | { newWindow: true } | { unclear: string };

/**
 * Judges one reading: the other's answers before and after, the first's answers in between (in the order
 * sent). A window rolled over when Reset moved later with Remaining up; the first's Remaining must step down
 * by one between its calls (else the limiter refills at this pace and nothing can be told); the other's drop
 * tells together (at least FIRST_CALLS) from apart (at most one).
 */
export function judgeCounting(before: ApiResponse, firsts: readonly ApiResponse[], after: ApiResponse): Judgement {
  const [r0, r1] = [mustInt(before, 'remaining', COUNT_FACT), mustInt(after, 'remaining', COUNT_FACT)];
  const steps = firsts.map((r) => mustInt(r, 'remaining', COUNT_FACT));
  const rolled = startsNewWindow(before, after) || firsts.some((r, i) => i > 0 && startsNewWindow(firsts[i - 1] as ApiResponse, r));
  if (rolled) return { newWindow: true };
  const evidence = `Remaining of the other: ${r0} (IM-CorrelationID ${before.correlationId}) then ${r1} (IM-CorrelationID ${after.correlationId}); of the first's ${firsts.length} calls in between: ${steps.join(', ')}; last: ${evidenceOf(after)}`;
  if (steps.some((r, i) => i > 0 && (steps[i - 1] as number) - r !== 1))
    return { unclear: `Remaining did not step down by one between calls in a row (a limiter refilling at this pace): ${evidence}` };
  const drop = r0 - r1;
  if (drop >= firsts.length) return { counting: 'together', evidence };
  if (drop <= 1) return { counting: 'apart', evidence };
  return { unclear: `Remaining dropped by ${drop}: neither ${firsts.length + 1} (counted together) nor 1 (apart): ${evidence}` };
}

/** One reading: the other's Remaining before and after three calls of the first; null when a window rolled over between them. */
async function readOnce(first: () => Promise<ApiResponse>, other: () => Promise<ApiResponse>): Promise<CountReading | null> {
  const before = await other();
  const firsts: ApiResponse[] = [];
  for (let i = 0; i < FIRST_CALLS; i++) firsts.push(await first());
  const judged = judgeCounting(before, firsts, await other());
  if ('newWindow' in judged) return null;
  if ('unclear' in judged) notRun(test.info(), judged.unclear);
  return judged;
}

/**
 * Whether the calls of `first` count in the bucket `other` is counted in: read once, and again when a
 * window rolled over between the readings; a second rollover blocks the check with the reason.
 */
export async function readCounting(first: () => Promise<ApiResponse>, other: () => Promise<ApiResponse>): Promise<CountReading> {
  const reading = (await readOnce(first, other)) ?? (await readOnce(first, other));
  if (!reading)
    blocked(test.info(), 'a window rolled over between the readings twice in a row: whose bucket a call is counted in cannot be read');
  return reading;
}

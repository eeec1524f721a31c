/** Drives the fingerprint experiments against the mock's limiter algorithms on a manual clock. */
import { ManualClock } from '../../mock/clock';
import { createLimiter, rateLimitHeaders, type HeaderFamily, type LimiterAlgorithm } from '../../mock/limiter-algorithms';
import { Fingerprinter, type FingerprintConfig } from '../../load/lib/fingerprint';
import { readRateLimitHeaders } from '../../load/lib/rate-limit-headers';

export interface SimOptions {
  limit: number;
  windowMs: number;
  countRefused?: boolean;
  resetUnit?: 'epoch' | 'seconds';
  /** ms each call takes (or a function of the call's index). Default 2. */
  latencyMs?: number | ((call: number) => number);
  startMs?: number;
  /** ms between two calls of a volley at the limiter (default 0.05; a loaded target takes them one by one). */
  volleyCallMs?: number;
  /** ms between the limiter's decision and the client reading the answer (a loaded machine), by call index. */
  responseDelayMs?: (call: number) => number;
  /** The first volley's answers are all read together, this many ms after the limiter's last decision (a stalled client). */
  firstVolleyReadLateMs?: number;
  config?: Partial<FingerprintConfig>;
}

export function simulate(algorithm: LimiterAlgorithm, family: HeaderFamily, o: SimOptions) {
  const clock = new ManualClock(o.startMs ?? 1_800_000_000_123);
  const limiter = createLimiter(algorithm, clock, o.windowMs, { countRefused: o.countRefused ?? false });
  const fp = new Fingerprinter({
    burstCap: o.limit + 2,
    maxRequests: 20 * o.limit + 100,
    maxDurationMs: 30 * o.windowMs,
    maxWaitMs: 5 * o.windowMs,
    ...o.config,
  });
  const latency = typeof o.latencyMs === 'function' ? o.latencyMs : () => (o.latencyMs as number | undefined) ?? 2;
  let volleys = 0;
  for (let guard = 0; guard < 10_000; guard++) {
    const at = fp.nextAt();
    if (at === null) break;
    if (at > clock.now()) clock.set(at);
    const sentMs = clock.now();
    clock.advance(latency(guard));
    // A volley's calls are sent together: they reach the limiter a few microseconds apart.
    const n = fp.nextCount();
    const outcomes = Array.from({ length: n }, (_, i) => {
      if (i > 0) clock.advance(o.volleyCallMs ?? 0.05);
      return { d: limiter.consume('k', o.limit), now: clock.now() };
    });
    let delay = o.responseDelayMs?.(guard) ?? 0;
    const readTogether = n > 1 && volleys++ === 0 && o.firstVolleyReadLateMs !== undefined;
    if (readTogether) delay += o.firstVolleyReadLateMs as number;
    const lastDecision = clock.now();
    for (const { d, now } of outcomes) {
      const status = d.allowed ? 200 : 429;
      const headers = rateLimitHeaders(d, family, { nowMs: now, status, windowMs: o.windowMs, resetUnit: o.resetUnit ?? 'epoch' });
      const tMs = (readTogether ? lastDecision : now) + delay;
      fp.record({ sentMs, tMs, status, hints: readRateLimitHeaders(headers, tMs) });
    }
    // The client sends its next call after it read this answer.
    clock.advance(delay);
  }
  return fp.result();
}

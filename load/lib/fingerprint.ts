/**
 * Identifies the limiter of one operation with designed experiments, each bounded in requests and
 * time. Pure TypeScript (no k6, no Node): the k6 probe drives it over HTTP, the unit tests drive it
 * against the mock's limiter algorithms with a manual clock.
 *
 * The experiments, in order:
 * 1. exhaustion: calls back to back until the first refusal (at most cap) → burst;
 * 2. reopening: waits for the first allowed call, following Retry-After and every new Reset value,
 *    backing off without them; gives up with a verdict at the wait cap;
 * 3. refill sampling: drains (calls until refused) spaced to measure the refill rather than the
 *    first reopening: zeros then a full bucket = a window, steady counts = continuous refill;
 * 4. refine (windows): polls finely around the next predicted reopening → window length, bracketed by
 *    the send of the last refusal and the answer of the first allowed call (once more in the next
 *    window when a stall left the bracket wide);
 * 5. split: half the burst, half a window later the other half, then drains one window after the
 *    start: a fixed window gives a full burst, a sliding window only the first half;
 * 6. refused calls: the same cycle twice, the second with extra calls while refused: fewer calls
 *    allowed afterwards means refused calls consume quota.
 *
 * Usage: `nextAt()` is when the next call is due (null when finished); `record()` its outcome.
 */
import type { RateLimitHints } from './rate-limit-headers';
import type { ResetUnit } from './probe';

export type Algorithm = 'fixed-window' | 'sliding-window' | 'token-bucket' | 'unknown';

export interface Observation {
  /** Epoch ms when the call was sent (for a batch, when the batch was sent). */
  sentMs: number;
  /** Epoch ms when the response arrived. The target decided between the two. */
  tMs: number;
  status: number;
  hints: RateLimitHints;
}

export interface TimelinePoint {
  /** ms since the probe's first call. */
  tMs: number;
  status: number;
  allowed: boolean;
  phase: string;
}

export interface BottleneckConfig {
  reservoir: number | null;
  reservoirRefreshAmount: number | null;
  reservoirRefreshInterval: number | null;
  /** Token bucket: Bottleneck's reservoirIncrease* settings refill one call at a time. */
  reservoirIncreaseAmount?: number;
  reservoirIncreaseInterval?: number;
  reservoirIncreaseMaximum?: number;
  minTime: number;
  maxConcurrent: number;
}

export interface K6ArrivalRate {
  executor: 'constant-arrival-rate';
  rate: number;
  timeUnit: string;
  preAllocatedVUs: number;
}

export interface Pacing {
  /** The fastest schedule that never draws a 429, in words. */
  schedule: string;
  kind: 'burst-per-window' | 'even' | 'burst-then-even';
  /** Calls sent back to back at the start (and, for windows, at the start of each period). */
  burst: number;
  /** ms between the single calls after the burst (even / burst-then-even). */
  intervalMs: number | null;
  /** ms between bursts (burst-per-window). */
  periodMs: number | null;
  /** Share of the measured sustained rate this pacing uses. */
  share: number;
  bottleneck: BottleneckConfig;
  k6: K6ArrivalRate;
}

/** What the probes add to each operation of the limits manifest. */
export interface RateLimitFingerprint {
  algorithm: Algorithm;
  evidence: string[];
  burst: number | null;
  sustainedPerSecond: number | null;
  windowMs: number | null;
  refusedCallsCount: boolean | null;
  headers: string[];
  resetUnit: ResetUnit;
  resetMoves: boolean | null;
  pacing: Pacing | null;
  /** Set when the probe stopped without a result: why, in words. */
  verdict: string | null;
  requestsSpent: number;
  durationMs: number;
}

export interface FingerprintConfig {
  /** Most calls the exhaustion may send (advertised limit + 2, or a fallback). */
  burstCap: number;
  /** Most requests for the whole fingerprint of this operation. */
  maxRequests: number;
  /** Longest time the whole fingerprint may take, ms. */
  maxDurationMs: number;
  /** Longest wait for a reopening after a refusal, ms. */
  maxWaitMs: number;
  /** Spacing of fine polls, ms. Default 20. */
  fineMs?: number;
  /** First back-off gap without rate-limit headers, ms (doubles each poll). Default 25. */
  backoffStartMs?: number;
  /** Share of the measured rate the recommended pacing uses. Default 0.95. */
  pacingShare?: number;
}

interface Drain {
  firstMs: number;
  /** When the first call was sent: the target decided on it between this and `firstMs`. */
  firstSentMs: number;
  allowed: number;
  /** Time of the refusal that ended it (bucket empty then), or null if the cap ended it. */
  refusedMs: number | null;
  refusedFirst: boolean;
}

type Action =
  | { kind: 'drain'; at: number; phase: string; cap: number; then: (d: Drain) => void; d?: Drain }
  | { kind: 'spend'; at: number; phase: string; n: number; then: (allowed: number, refused: number) => void; sent?: number; ok?: number }
  | { kind: 'poll'; at: number; phase: string; then: (o: Observation) => void }
  /** n calls sent at once (no refill between them): the driver sends them in one batch. */
  | {
      kind: 'volley';
      at: number;
      phase: string;
      n: number;
      /**
       * allowed: calls that passed; spreadMs: from the first answer to the last allowed one; sinceSentMs:
       * from the volley's send to the last allowed answer (the target decided on every passed call within it).
       */
      then: (allowed: number, spreadMs: number, sinceSentMs: number) => void;
      sent?: number;
      ok?: number;
      sentMs?: number;
      firstMs?: number;
      lastOkMs?: number;
    };

const SECOND = 1000;
/** A window known to lie in (lo, hi] ms, measured from a start sent at `startSentMs`. */
interface WindowBracket {
  lo: number;
  hi: number;
  startSentMs: number;
}
/** A window bracket wider than this many fine gaps means a call or its answer stalled. */
const TIGHT_FINE_GAPS = 3;

export class Fingerprinter {
  private action: Action | null;
  private startMs: number | null = null;
  private lastMs = 0;
  private requests = 0;
  private readonly timeline: TimelinePoint[] = [];
  private readonly observations: Observation[] = [];
  private readonly evidence: string[] = [];
  private verdict: string | null = null;
  private finished = false;
  private readonly fineMs: number;
  // Measurements.
  private burstObserved: number | null = null;
  /** Continuous refill: the burst less the calls refilled during the exhaustion. */
  private burstRefilled: number | null = null;
  /** A drain after a rest long enough to fill the bucket (after a partial reopening). */
  private restedDrain: Drain | null = null;
  private restFromMs: number | null = null;
  private exhaust: Drain | null = null;
  private firstHints: RateLimitHints | null = null;
  private refusedMovesHint: boolean | null = null;
  private reopenMs: number | null = null;
  private reopenDrain: Drain | null = null;
  private readonly samples: { gapMs: number; drain: Drain }[] = [];
  private sampleGapMs = 0;
  private maxSampleGapMs = 0;
  private windowLike: boolean | null = null;
  /** The drains that show a window: a full bucket (ref), the last empty drain, the next full bucket. */
  private windowRef: { ref: Drain; before: Drain; boundary: Drain } | null = null;
  private rateMeasured: number | null = null;
  private refillPausedMs: number | null = null;
  private rateSpan: { allowed: number; elapsedMs: number; refusals: number } | null = null;
  private windowMeasured: number | null = null;
  private windowPrecise = false;
  private splitResult: { drained: number; h1: number; h2: number; burst: number } | null = null;
  private refusedTest: { control: number; test: number; extraRefused: number } | null = null;
  /** The window model was dropped once for a continuous refill (see the split). */
  private reclassified = false;
  /** The empty drains of a window-like sampling later dropped for a continuous refill: how long no call came back, ms. */
  private windowPauseMs: number | null = null;
  /** Sliding counter: the burst from empty aligned windows (no straddling exhaustion). */
  private restedBurst: number | null = null;

  constructor(private readonly cfg: FingerprintConfig) {
    this.fineMs = cfg.fineMs ?? 20;
    this.action = { kind: 'drain', at: 0, phase: 'exhaustion', cap: cfg.burstCap, then: (d) => this.afterExhaustion(d) };
  }

  /** Epoch ms at which the next call is due; null once finished. */
  nextAt(): number | null {
    if (this.finished || !this.action) return null;
    return this.action.at;
  }

  get done(): boolean {
    return this.finished;
  }

  /** How many calls are due at `nextAt()` together (a volley is sent at once, in one batch); 1 otherwise. */
  nextCount(): number {
    const a = this.action;
    return a?.kind === 'volley' ? a.n - (a.sent ?? 0) : 1;
  }

  record(o: Observation): void {
    const a = this.action;
    if (!a || this.finished) return;
    if (this.startMs === null) this.startMs = o.tMs;
    this.lastMs = o.tMs;
    this.requests += 1;
    const allowed = o.status !== 429;
    this.observations.push(o);
    this.timeline.push({ tMs: o.tMs - this.startMs, status: o.status, allowed, phase: a.phase });
    if (o.status === 0 || o.status === 401 || o.status === 404 || o.status >= 500) {
      // A gateway may refuse with another status (nginx limit_req: 503 by default) once some calls passed.
      const hint =
        o.status >= 500 && this.requests > 1
          ? `; if ${o.status} is how it refuses calls (nginx limit_req answers 503 by default), probe with --refused-status ${o.status}`
          : '';
      this.stop(`the target answered ${o.status} during the ${a.phase} experiment: the limiter cannot be probed on this operation${hint}`);
      return;
    }
    if (a.kind === 'poll') {
      a.then(o);
    } else if (a.kind === 'volley') {
      a.sent = (a.sent ?? 0) + 1;
      a.ok = (a.ok ?? 0) + (allowed ? 1 : 0);
      a.sentMs ??= o.sentMs;
      a.firstMs ??= o.tMs;
      if (allowed) a.lastOkMs = o.tMs;
      if (a.sent >= a.n) a.then(a.ok, (a.lastOkMs ?? a.firstMs) - a.firstMs, (a.lastOkMs ?? a.firstMs) - a.sentMs);
    } else if (a.kind === 'spend') {
      a.sent = (a.sent ?? 0) + 1;
      a.ok = (a.ok ?? 0) + (allowed ? 1 : 0);
      if (a.sent >= a.n) a.then(a.ok, a.sent - a.ok);
      else a.at = o.tMs;
    } else {
      const d = a.d ?? { firstMs: o.tMs, firstSentMs: o.sentMs, allowed: 0, refusedMs: null, refusedFirst: !allowed };
      a.d = d;
      if (allowed) d.allowed += 1;
      else d.refusedMs = o.tMs;
      if (!allowed || d.allowed >= a.cap) a.then(d);
      else a.at = o.tMs;
    }
    if (!this.finished && this.requests >= this.cfg.maxRequests)
      this.stop(`request cap of ${this.cfg.maxRequests} reached during the ${this.action?.phase ?? a.phase} experiment`);
    if (!this.finished && this.action && this.startMs !== null && this.action.at - this.startMs > this.cfg.maxDurationMs)
      this.stop(`time cap of ${this.cfg.maxDurationMs} ms reached before the ${this.action.phase} experiment`);
  }

  /** Ends the experiments from outside (the run's budget or time is spent). */
  abandon(verdict: string): void {
    if (!this.finished) this.stop(verdict);
  }

  private stop(verdict: string): void {
    this.verdict = verdict;
    this.finished = true;
    this.action = null;
  }

  private finish(): void {
    this.finished = true;
    this.action = null;
  }

  private at(ms: number): number {
    return Math.max(ms, this.lastMs);
  }

  // 1. Exhaustion -------------------------------------------------------------------------
  private afterExhaustion(d: Drain): void {
    this.exhaust = d;
    this.burstObserved = d.allowed;
    if (d.refusedMs === null) {
      const last = this.observations[this.observations.length - 1];
      if (last && d.allowed < 2 * this.cfg.burstCap) {
        // A bucket refilling during the exhaustion may pass more calls than the cap: drain on, to twice the cap.
        this.action = {
          kind: 'drain',
          at: last.tMs,
          phase: 'exhaustion',
          cap: 2 * this.cfg.burstCap,
          d,
          then: (r) => this.afterExhaustion(r),
        };
        return;
      }
      this.stop(`no 429 after ${d.allowed} calls: the limit is above ${d.allowed} or there is none`);
      return;
    }
    const refusal = this.observations[this.observations.length - 1] as Observation;
    this.firstHints = this.observations[0]?.hints ?? null;
    this.evidence.push(`exhaustion: ${d.allowed} calls allowed, then 429`);
    this.startReopen(refusal);
  }

  // 2. Reopening --------------------------------------------------------------------------
  private startReopen(refusal: Observation): void {
    const refusedAt = refusal.tMs;
    const deadline = refusedAt + this.cfg.maxWaitMs;
    let gap = this.cfg.backoffStartMs ?? 25;
    let lastHint: number | null = null;
    let promised: number | null = null;
    let moved = false;
    let polls = 0;
    const schedule = (o: Observation): void => {
      // The full reset first (a full bucket gives a clean drain), else the time of the next call.
      const hint = o.hints.resetAtMs ?? o.hints.retryAtMs;
      // The first advertised time passed and the call was still refused, or the advertised time jumped.
      const broken = promised !== null && o.status === 429 && o.tMs >= promised;
      if (hint !== null && lastHint !== null && (hint - lastHint >= SECOND || broken) && !moved) {
        moved = true;
        this.evidence.push(
          `the advertised reopening moved from +${lastHint - refusedAt} ms to +${hint - refusedAt} ms after refused calls: they count`,
        );
      }
      if (hint !== null) lastHint = hint;
      if (promised === null) promised = hint;
      // One poll at the advertised time (it is rounded up, so never early); the refill sampling
      // measures the timing, not this poll. Without a usable hint: back off, doubling the gap.
      let next: number;
      if (hint === null || hint <= o.tMs) {
        next = o.tMs + gap;
        gap *= 2;
      } else next = hint + 5;
      if (next > deadline) {
        const why = moved || hint !== null ? 'refused calls appear to count' : 'refused calls appear to count, or the window is longer';
        this.refusedMovesHint = moved || null;
        this.stop(
          `did not reopen within ${Math.round(this.cfg.maxWaitMs / 1000)} s (${polls} polls${hint === null ? `, spaced up to ${gap / 2} ms` : ', following the advertised reset'}); ${why}`,
        );
        return;
      }
      this.action = { kind: 'poll', at: this.at(next), phase: 'reopening', then: onPoll };
    };
    const onPoll = (o: Observation): void => {
      polls += 1;
      if (o.status === 429) return schedule(o);
      this.refusedMovesHint = moved;
      this.reopenMs = o.tMs;
      this.evidence.push(`reopened ${o.tMs - refusedAt} ms after the 429 (${polls} polls)`);
      // The allowed poll is the first call of a drain.
      const d: Drain = { firstMs: o.tMs, firstSentMs: o.sentMs, allowed: 1, refusedMs: null, refusedFirst: false };
      this.action = { kind: 'drain', at: o.tMs, phase: 'reopening', cap: 2 * this.cfg.burstCap, d, then: (r) => this.afterReopenDrain(r) };
    };
    schedule(refusal);
  }

  // 3. Refill sampling ---------------------------------------------------------------------
  private afterReopenDrain(d: Drain, redrained = false): void {
    const B = this.burstObserved as number;
    const ex = this.exhaust as Drain;
    // Time the bucket took from empty to this drain.
    const S = d.firstMs - (redrained ? ((this.reopenDrain as Drain).refusedMs as number) : (ex.refusedMs as number));
    this.reopenDrain = d;
    if (!redrained && d.allowed < B / 2 && d.refusedMs !== null) {
      // A partial reopening (a sliding log freeing the slots of a slow exhaustion one by one): rest
      // until all of them are free and drain again, so the calls after it start from a clustered full bucket.
      const spread = ex.refusedMs === null ? 0 : ex.refusedMs - ex.firstMs;
      const first = d;
      this.evidence.push(`partial reopening (${d.allowed} calls): resting ${Math.round(S + 2 * spread)} ms for a full bucket`);
      this.action = {
        kind: 'drain',
        at: this.at((d.refusedMs as number) + S + 2 * spread),
        phase: 'reopening',
        cap: 2 * this.cfg.burstCap,
        then: (again) => {
          this.reopenDrain = first;
          this.restedDrain = again;
          this.restFromMs = first.refusedMs;
          this.afterReopenDrain(again, true);
        },
      };
      return;
    }
    const r0 = d.allowed / Math.max(S, 1);
    // Spaced so that a continuous refill brings ~3 calls per drain, and a window shows empty drains.
    // S may overstate the refill time by the hint's rounding (up to 1 s): start short, and widen
    // the gap while drains come back (nearly) empty.
    this.sampleGapMs = Math.max(this.fineMs, Math.min(3 / r0, S / 8));
    this.maxSampleGapMs = Math.max(this.sampleGapMs, Math.max(S, B / r0) / 2);
    this.evidence.push(`reopening drain: ${d.allowed} calls; sampling every ${Math.round(this.sampleGapMs)} ms`);
    if (d.refusedMs === null) return this.stop(`the bucket did not empty after ${d.allowed} calls on reopening`);
    this.nextSample(d.refusedMs);
  }

  private nextSample(fromMs: number): void {
    const gap = this.sampleGapMs;
    this.action = {
      kind: 'drain',
      at: this.at(fromMs + gap),
      phase: 'refill sampling',
      cap: 2 * this.cfg.burstCap,
      then: (d) => {
        this.samples.push({ gapMs: gap, drain: d });
        if (d.refusedMs === null) return this.stop(`a refill drain did not empty after ${d.allowed} calls`);
        // Too little refill per drain to measure: widen the gap (a window keeps showing empty drains).
        if (d.allowed <= 1) this.sampleGapMs = Math.min(this.sampleGapMs * 1.6, this.maxSampleGapMs);
        const decided = this.classifySamples(false);
        if (decided) this.afterSampling();
        else this.nextSample(d.refusedMs);
      },
    };
  }

  /** Decides window-like or continuous from the sampling drains; null while undecided. */
  private classifySamples(force: boolean): boolean {
    const B = this.burstObserved as number;
    const counts = this.samples.map((s) => s.drain.allowed);
    const full = Math.max(2, Math.ceil(0.7 * B));
    // A window: a full bucket drained, only empty drains, then a full bucket again.
    const drains = [this.reopenDrain as Drain, ...this.samples.map((x) => x.drain)];
    for (let i = 2; i < drains.length && !this.windowRef && !this.reclassified; i++) {
      if ((drains[i] as Drain).allowed < full || (drains[i - 1] as Drain).allowed !== 0) continue;
      let j = i - 1;
      while (j > 0 && (drains[j] as Drain).allowed === 0) j--;
      if ((drains[j] as Drain).allowed >= full || (j === 0 && (drains[0] as Drain).allowed >= 1))
        this.windowRef = { ref: drains[j] as Drain, before: drains[i - 1] as Drain, boundary: drains[i] as Drain };
    }
    if (this.windowRef) {
      this.windowLike = true;
      return true;
    }
    const total = counts.reduce((a, b) => a + b, 0);
    if (counts.length >= 4 && total >= Math.max(15, 1.5 * B) && counts.filter((c) => c > 0).length >= counts.length / 2) {
      this.windowLike = false;
      return true;
    }
    if (force || counts.length >= 20) {
      this.windowLike = false;
      return true;
    }
    return false;
  }

  private afterSampling(): void {
    const counts = this.samples.map((s) => s.drain.allowed);
    this.evidence.push(`refill sampling: ${counts.join(', ')} calls per drain`);
    if (this.windowLike) this.refineWindow();
    else this.measureRate();
  }

  // 3b. Continuous refill: the rate from the sampling drains --------------------------------
  private measureRate(): void {
    // Leading empty drains are a pause before the refill starts (a sliding counter's current
    // aligned window): measure from the last of them.
    const lead = this.samples.findIndex((s) => s.drain.allowed > 0);
    const measured = lead === -1 ? [] : this.samples.slice(lead);
    const start = (lead > 0 ? this.samples[lead - 1]?.drain.refusedMs : (this.reopenDrain as Drain).refusedMs) as number;
    const last = measured[measured.length - 1]?.drain;
    const allowed = measured.reduce((a, s) => a + s.drain.allowed, 0);
    if (!last || last.refusedMs === null || last.refusedMs <= start || allowed === 0) {
      this.evidence.push('no refill seen between drains');
      return this.finish();
    }
    // Both ends are an empty bucket: allowed calls / elapsed is the refill rate (±1 call).
    this.rateSpan = { allowed, elapsedMs: last.refusedMs - start, refusals: measured.length };
    this.rateMeasured = allowed / (last.refusedMs - start);
    // A token bucket refills from the moment it empties; a sliding counter not before its next aligned window.
    // The last empty drain bounds the pause from below.
    const lastEmpty = lead > 0 ? (this.samples[lead - 1]?.drain.firstMs ?? start) : start;
    const emptied = (this.reopenDrain as Drain).refusedMs as number;
    if (lastEmpty - emptied > 2 / this.rateMeasured) {
      this.refillPausedMs = lastEmpty - emptied;
      this.evidence.push(
        `the refill paused for ${Math.round(this.refillPausedMs)} ms after the bucket emptied (a token bucket refills at once)`,
      );
    } else if (this.windowPauseMs !== null && this.windowPauseMs > 2 / this.rateMeasured) {
      // Sampled again after the split, from a counter already refilling: no pause here, but the empty drains
      // of the window-like sampling were one (a stall cannot empty a drain, only fill it).
      this.refillPausedMs = this.windowPauseMs;
      this.evidence.push(
        `the refill paused for ${Math.round(this.refillPausedMs)} ms in the window-like sampling (a token bucket refills at once)`,
      );
    }
    this.evidence.push(
      `continuous refill: ${allowed} calls in ${last.refusedMs - start} ms = ${(this.rateMeasured * 1000).toFixed(2)}/s between empty buckets`,
    );
    this.burstRefilled = this.refillCorrectedBurst();
    if (this.burstRefilled !== this.burstObserved)
      this.evidence.push(`a full bucket holds ${this.burstRefilled} calls: the exhaustion's ${this.burstObserved} include its refill`);
    const rate = this.rateMeasured;
    const observed = this.burstObserved as number;
    const restMs = (fullMs: number): number => fullMs * 1.1 + this.margin(fullMs);
    // The exhaustion's calls came one after another, so the bucket refilled while they ran: the count
    // less the refill is only as good as the calls' timing (a loaded machine stretches them). A volley
    // from a rested bucket, all calls at once, leaves no time to refill: it counts the bucket itself.
    this.burstVolley(this.at(last.refusedMs + restMs(observed / rate)), rate, observed, restMs, null);
  }

  /**
   * A volley from a rested bucket: `observed + 2` calls sent at once. Calls sent together still reach a
   * loaded target one after another, so what refilled meanwhile is taken off by the answers' spread. A
   * stall before the first answer hides that spread: when the time from the send to the last allowed
   * answer leaves room for more refill than the spread says, the volley is sent once more after a rest,
   * and the one whose answers came sooner after their send counts the bucket.
   */
  private burstVolley(
    at: number,
    rate: number,
    observed: number,
    restMs: (fullMs: number) => number,
    first: { passed: number; sinceSentMs: number; line: string } | null,
  ): void {
    this.action = {
      kind: 'volley',
      at,
      phase: 'burst volley',
      n: observed + 2,
      then: (got, spreadMs, sinceSentMs) => {
        const passed = got - Math.floor(rate * spreadMs);
        const line =
          got !== passed
            ? `${got} of ${observed + 2} calls sent at once passed within ${Math.round(spreadMs)} ms, ${passed} without the refill`
            : `${passed} of ${observed + 2} calls sent at once passed`;
        if (
          !first &&
          Math.floor(rate * sinceSentMs) > Math.floor(rate * spreadMs) &&
          this.requests + observed + 2 <= this.cfg.maxRequests
        ) {
          this.evidence.push(
            `burst volley: ${line}, but its last allowed answer came ${Math.round(sinceSentMs)} ms after the send (room for ${Math.floor(rate * sinceSentMs)} refilled): sent again`,
          );
          return this.burstVolley(this.at(this.lastMs + restMs(observed / rate)), rate, observed, restMs, { passed, sinceSentMs, line });
        }
        const chosen = first && first.sinceSentMs < sinceSentMs ? first : { passed, sinceSentMs, line };
        if (chosen.passed >= 1 && chosen.passed <= observed) {
          this.evidence.push(
            `${first ? `burst volley again: ${line}; counted from the one answered sooner after its send (${Math.round(chosen.sinceSentMs)} ms): ${chosen.line}` : `burst volley: ${line}`}` +
              (chosen.passed !== this.burstRefilled ? ` (the exhaustion less its refill gave ${this.burstRefilled})` : ''),
          );
          this.burstRefilled = chosen.passed;
        }
        const fullMs = (this.burstRefilled as number) / rate;
        this.split(this.at(this.lastMs + restMs(fullMs)), fullMs);
      },
    };
  }

  // 4. Refine the window -------------------------------------------------------------------
  private refineWindow(): void {
    const { ref, before, boundary: b } = this.windowRef as { ref: Drain; before: Drain; boundary: Drain };
    const boundary = { drain: b };
    const windowStart = ref.firstMs;
    const lo = before.firstMs - windowStart;
    const hi = boundary.drain.firstMs - windowStart;
    this.windowMeasured = hi;
    this.evidence.push(`window-like refill: a full bucket ${lo}..${hi} ms after the previous reopening`);
    if (this.refusedMovesHint)
      return this.stop(
        `refused calls count (the advertised reopening moved after refused calls): stopped before the window refine and split tests, which need refused calls; window ${lo}..${hi} ms`,
      );
    const t0 = boundary.drain.firstMs;
    // What the sampling proves: the empty drain was refused after it was sent, the full one allowed before it answered.
    const proven = { lo: before.firstSentMs - ref.firstMs, hi: b.firstMs - ref.firstSentMs, startSentMs: ref.firstSentMs };
    // A drain whose first answer came late would start the polls after the reopening: start from the sends then.
    const late = (d: Drain): boolean => d.firstMs - d.firstSentMs > this.fineMs;
    const from = late(before) || late(b) ? b.firstSentMs + proven.lo : t0 + lo;
    const until = t0 + (late(ref) ? proven.hi : hi);
    this.refineFrom(boundary.drain, from - this.fineMs, until + 2 * this.fineMs, proven, false);
  }

  /**
   * Fine polls from `from` for the reopening one window after `start` (the first call of a full bucket).
   * A refused call proves the reopening came after it was sent (the target decided between send and
   * answer), an allowed one that it came before its answer arrived; the window start lies between the
   * send and the answer of `start` too. So the window lies in (last refusal sent − start answered,
   * allowed answered − start sent]. A tight bracket (one fine gap and the calls' own answer times)
   * reads as before: the allowed answer less the start's. A wide one (a stalled call or answer) is
   * measured once more in the next window, and the two brackets are intersected.
   */
  private refineFrom(start: Drain, from: number, until: number, known: WindowBracket, again: boolean): void {
    let polls = 0;
    let lastRefusedSentMs: number | null = null;
    const poll = (at: number): void => {
      this.action = {
        kind: 'poll',
        at: this.at(at),
        phase: 'window refine',
        then: (o) => {
          polls += 1;
          if (o.status !== 429) return this.afterRefine(start, o, lastRefusedSentMs, known, again, polls);
          if (o.tMs + this.fineMs > until) {
            return this.stop(
              `no reopening ${Math.round(from - start.firstMs)}..${Math.round(until - start.firstMs)} ms after the previous full bucket although ${again ? 'the previous window reopened' : 'the sampling saw one'} within ${Math.round(known.lo)}..${Math.round(known.hi)} ms (${polls} polls); refused calls appear to count`,
            );
          }
          lastRefusedSentMs = o.sentMs;
          poll(o.tMs + this.fineMs);
        },
      };
    };
    poll(from);
  }

  /** `known`: the bracket before these polls (the sampling's, or the previous window's when `again`). */
  private afterRefine(
    start: Drain,
    o: Observation,
    lastRefusedSentMs: number | null,
    known: WindowBracket,
    again: boolean,
    polls: number,
  ): void {
    const hi = o.tMs - start.firstSentMs;
    // The first poll allowed (it came late): no refusal bounds the window from below, what was known still does.
    const lo = lastRefusedSentMs === null ? known.lo : lastRefusedSentMs - start.firstMs;
    // Without a refusal only a stalled first poll is measured again; an early reopening (a limiter the window model
    // fits badly, a sliding counter read as a window) reads as before: the split tells.
    const stalled = (o.tMs - o.sentMs > this.fineMs || start.firstMs - start.firstSentMs > this.fineMs) && lo <= hi;
    const tight = lastRefusedSentMs === null ? !stalled : hi - lo <= TIGHT_FINE_GAPS * this.fineMs;
    const repeat = again ? ' in the next window' : '';
    if (tight) {
      this.windowMeasured = Math.round(o.tMs - start.firstMs);
      this.windowPrecise = true;
      this.evidence.push(`window ${this.windowMeasured} ms: reopened again after the previous full bucket${repeat} (${polls} fine polls)`);
      return this.splitFrom(o.tMs, this.windowMeasured, 1);
    }
    const why = `a stalled call or answer left it within ${Math.round(hi - lo)} ms`;
    if (!again) {
      // The allowed call opened the next window: empty it and poll for its end within the same bracket.
      this.evidence.push(`window ${Math.round(lo)}..${Math.round(hi)} ms (${why}, ${polls} fine polls): measured again in the next window`);
      const d: Drain = { firstMs: o.tMs, firstSentMs: o.sentMs, allowed: 1, refusedMs: null, refusedFirst: false };
      this.action = {
        kind: 'drain',
        at: o.tMs,
        phase: 'window refine',
        cap: 2 * this.cfg.burstCap,
        d,
        then: (next) => {
          // Only a full bucket from that call ends one window after it (a sliding log may still hold older calls).
          if (next.refusedMs === null || next.allowed < (this.burstObserved as number))
            return this.windowAfterRest({ lo, hi }, `${why}; the next window held ${next.allowed} calls, not a full bucket`);
          const bracket = { lo, hi, startSentMs: start.firstSentMs };
          this.refineFrom(next, next.firstSentMs + lo - this.fineMs, next.firstMs + hi + 2 * this.fineMs, bracket, true);
        },
      };
      return;
    }
    // Both brackets hold the window: their overlap. The call that opened this window came after the
    // previous one closed, so two windows fit between the previous start's send and this answer.
    const both = { lo: Math.max(lo, known.lo), hi: Math.min(hi, known.hi, (o.tMs - known.startSentMs) / 2) };
    // Reopened before the first poll, or outside the previous bracket (the model does not hold): the previous one stays.
    if (lastRefusedSentMs === null || both.lo > both.hi)
      return this.windowAfterRest(known, `the next window reopened outside ${Math.round(known.lo)}..${Math.round(known.hi)} ms`);
    this.reportWindow(both, `${why}${repeat}, ${polls} fine polls`);
    this.splitFrom(o.tMs, both.hi, 1);
  }

  /** The window from a bracket, then the split from a bucket rested full (the refine left it partly spent). */
  private windowAfterRest(b: { lo: number; hi: number }, why: string): void {
    this.reportWindow(b, why);
    this.split(this.at(this.lastMs + b.hi + this.margin(b.hi)), b.hi);
  }

  /**
   * A window known only within a bracket: its middle, ± half of it. The split then waits for the
   * bracket's end: a period too short would read a sliding window's calls as still inside it.
   */
  private reportWindow(b: { lo: number; hi: number }, why: string): void {
    const half = (b.hi - b.lo) / 2;
    this.windowMeasured = Math.round(b.lo + half);
    this.windowPrecise = 2 * half <= TIGHT_FINE_GAPS * this.fineMs;
    this.evidence.push(`window ${this.windowMeasured} ms ±${Math.round(half)} ms (${why}): reopened again after the previous full bucket`);
  }

  private margin(periodMs: number): number {
    const B = this.burstObserved ?? 1;
    // Continuous refill: room for an odd half and the rate's error.
    return Math.max(2 * this.fineMs, Math.ceil(this.windowLike ? 0.05 * periodMs : Math.max(0.1, 1.5 / B) * periodMs));
  }

  // 5. Split pattern -----------------------------------------------------------------------
  private split(at: number, periodMs: number): void {
    this.action = {
      kind: 'spend',
      at,
      phase: 'split',
      n: 1,
      then: (ok) => {
        if (ok === 0) {
          this.evidence.push('split: the bucket was not full at the start of the split test');
          return this.finish();
        }
        this.splitFrom(this.lastMs, periodMs, 1);
      },
    };
  }

  /** The bucket was full at `startMs` and `spent` calls were already made from it. */
  private splitFrom(startMs: number, periodMs: number, spent: number): void {
    const B = (this.burstRefilled ?? this.burstObserved) as number;
    if (B < 2) return this.finish();
    const h1 = Math.floor(B / 2);
    const h2 = B - h1;
    const second = (): void => {
      this.action = {
        kind: 'spend',
        at: this.at(startMs + periodMs / 2),
        phase: 'split',
        n: h2,
        then: () => {
          this.action = {
            kind: 'drain',
            at: this.at(startMs + periodMs + this.margin(periodMs)),
            phase: 'split',
            cap: 2 * this.cfg.burstCap,
            then: (d) => {
              this.splitResult = { drained: d.allowed, h1, h2, burst: B };
              this.evidence.push(
                `split: ${h1} calls at 0, ${h2} at +${Math.round(periodMs / 2)} ms, then ${d.allowed} allowed at +${Math.round(periodMs + this.margin(periodMs))} ms (a full bucket is ${B})`,
              );
              if (d.refusedMs === null) return this.finish();
              if (this.windowLike && d.allowed > 0 && d.allowed < h1 - 1 && !this.reclassified) {
                // Some calls back, but fewer than a window gives: a continuous refill whose sampling looked
                // like a window (a sliding counter drained late in its aligned window looks full). Measure it
                // as one; a limiter whose refused calls count gives nothing back at all.
                this.reclassified = true;
                const { ref, before } = this.windowRef as { ref: Drain; before: Drain };
                this.windowPauseMs = before.firstMs - (ref.refusedMs ?? ref.firstMs);
                this.evidence.push(`split: ${d.allowed} calls back where a window gives ${h1}: sampled again as a continuous refill`);
                this.samples.length = 0;
                this.reopenDrain = d;
                this.windowLike = null;
                this.windowRef = null;
                this.windowMeasured = null;
                this.splitResult = null;
                return this.nextSample(d.refusedMs);
              }
              if (this.windowLike && d.allowed < h1 - 1)
                return this.stop(
                  `split: ${d.allowed} calls allowed one window after the start although ${h1} calls had left any window by then: the window model does not hold; refused calls appear to count`,
                );
              if (!this.windowLike && (d.allowed < B - 1 || this.refillPausedMs !== null)) {
                // A weighted sliding counter: its refill depends on where the calls fall in its
                // aligned windows, so two cycles are not comparable.
                this.evidence.push('refused calls: not tested (a sliding counter refills by the phase of its aligned windows)');
                // Without a pause in the sampling (a stall hid it, or the bucket emptied just before an aligned
                // boundary) the split alone does not name it: the first window tells, its calls come back only
                // from the next aligned boundary.
                return this.firstWindowRate(d.refusedMs, periodMs);
              }
              if (this.windowLike && this.splitSaysSliding() && d.allowed !== h1) {
                // A sliding log gives back exactly the calls that left its window; a sliding counter read
                // as a window gives back by the phase of its aligned windows, so two cycles are not comparable.
                this.evidence.push(
                  `refused calls: not tested (the split gave ${d.allowed} back where a sliding log gives ${h1}: a sliding counter refills by the phase of its aligned windows)`,
                );
                return this.finish();
              }
              this.refusedCallTest(d.refusedMs, periodMs);
            },
          };
        },
      };
    };
    if (h1 - spent > 0) this.action = { kind: 'spend', at: this.at(startMs), phase: 'split', n: h1 - spent, then: () => second() };
    else second();
  }

  // 6. Refused-call test -------------------------------------------------------------------
  private refusedCallTest(emptyAtMs: number, periodMs: number): void {
    const B = (this.burstRefilled ?? this.burstObserved) as number;
    const continuous = !this.windowLike;
    // Each cycle starts from a rested bucket (two periods clear a sliding counter's weighted
    // window), empties it, and drains again one period later. The test cycle adds k calls while
    // the bucket is empty: right away (continuous refill) or mid-window (still inside a sliding
    // window at the second drain).
    // Two periods also clear a sliding counter's weighted window; a fixed window needs one.
    const rest = (continuous || this.splitSaysSliding() ? 2.1 : 1.1) * periodMs;
    const extraAt = continuous ? 0 : 0.6 * periodMs;
    const k = Math.max(2, Math.min(5, Math.floor(B / 2)));
    const cycle = (at: number, extras: number, done: (allowed: number, refused: number) => void): void => {
      this.action = {
        kind: 'drain',
        at: this.at(at),
        phase: 'refused calls',
        cap: 2 * this.cfg.burstCap,
        then: (first) => {
          if (first.refusedMs === null) return this.finish();
          const t = first.refusedMs;
          const last = (okExtra: number, refusedExtra: number): void => {
            this.action = {
              kind: 'drain',
              at: this.at(t + (continuous ? 0.6 : 1.5) * periodMs),
              phase: 'refused calls',
              cap: 2 * this.cfg.burstCap,
              then: (d) => (d.refusedMs === null ? this.finish() : done(d.allowed + okExtra, refusedExtra)),
            };
          };
          if (extras === 0) return last(0, 0);
          this.action = { kind: 'spend', at: this.at(t + extraAt), phase: 'refused calls', n: extras, then: last };
        },
      };
    };
    const controlAt = emptyAtMs + rest;
    cycle(controlAt, 0, (control) => {
      // Nothing at all after a quiet cycle: every algorithm that ignores refused calls gives some back.
      const expected = continuous ? 0.6 * B : B;
      if (control === 0)
        return this.stop(
          `refused calls: a quiet cycle gave ${control} calls where the model gives ${Math.round(expected)}: refused calls appear to count`,
        );
      if (!continuous && control < B - 1) {
        // A window gives a full bucket back after a quiet cycle; less is a limiter the window model does not
        // hold for (a sliding counter whose sampling looked like a window): two cycles would not compare.
        this.evidence.push(`refused calls: not tested (a quiet cycle gave ${control} calls back where a window gives ${B})`);
        return this.finish();
      }
      // A whole number of periods after the control cycle: a sliding counter refills by the phase of its
      // aligned windows, and at the same phase the two cycles compare (other limiters do not mind).
      const testAt = controlAt + Math.ceil((this.lastMs + rest - controlAt) / periodMs) * periodMs;
      cycle(testAt, k, (test, extraRefused) => {
        this.refusedTest = { control, test, extraRefused };
        this.evidence.push(`refused calls: ${control} allowed after a quiet cycle, ${test} after one with ${extraRefused} refused calls`);
        this.finish();
      });
    });
  }

  // 7. Sliding counter: the rate in the first window after a full one -----------------------
  /**
   * Drains read a weighted counter low: each drain leaves the current aligned window short of a
   * full bucket, so the next window refills from less. Only the window right after one that holds a
   * full bucket refills at the true rate: its weight falls linearly from a full bucket to none, so
   * one call passes every window / burst. So: rest until both aligned windows are empty, burst, and
   * time the calls that pass in the next window with short drains, up to one less than a full bucket
   * (all of them inside that window), polling every fine gap. Each call back is timed at the middle
   * of the gap in which it came back, so the span is right within one gap (20 ms in ~2 s: 1 %; the
   * pacing keeps 5 % in hand).
   */
  private firstWindowRate(emptyAtMs: number, periodMs: number, attempt = 1): void {
    const expected = Math.min(this.burstObserved as number, this.firstHints?.limit ?? Infinity);
    this.action = {
      kind: 'drain',
      at: this.at(emptyAtMs + 2.1 * periodMs),
      phase: 'first window',
      cap: 2 * this.cfg.burstCap,
      then: (burst) => {
        if (burst.refusedMs === null) {
          this.evidence.push(`first window: the bucket did not empty after ${burst.allowed} calls`);
          return this.finish();
        }
        if (burst.allowed > expected && attempt < 3) {
          // The burst straddled an aligned boundary: the next window starts from less than a full bucket.
          this.evidence.push(
            `first window: a rested burst of ${burst.allowed} > ${expected} straddled a boundary; again, a third of a window later`,
          );
          return this.firstWindowRate(burst.refusedMs + periodMs / 3, periodMs, attempt + 1);
        }
        this.restedBurst = burst.allowed;
        const target = Math.max(2, Math.min(burst.allowed, expected) - 1);
        const gap = this.fineMs;
        const deadline = burst.refusedMs + 2.2 * periodMs;
        let passed = 0;
        // Each crossing of a threshold (one call back) lies between a refusal and the next drain's first
        // call: its midpoint, ± half a poll gap. The first crossing is the aligned boundary.
        let startMs: number | null = null;
        let endMs = 0;
        const emptiedMs = burst.refusedMs;
        let lastRefusedMs = emptiedMs;
        const drain = (at: number): void => {
          this.action = {
            kind: 'drain',
            at: this.at(at),
            phase: 'first window',
            cap: target + 1,
            then: (d) => {
              if (d.allowed > 0) {
                const crossedMs = (lastRefusedMs + d.firstMs) / 2;
                if (startMs === null) this.firstWindowPause(emptiedMs, crossedMs, d.firstMs - lastRefusedMs);
                startMs ??= crossedMs;
                endMs = crossedMs;
                passed += d.allowed;
              }
              if (d.refusedMs !== null) lastRefusedMs = d.refusedMs;
              if (passed >= target || this.lastMs + gap > deadline) return this.afterFirstWindow(burst.allowed, startMs, passed, endMs);
              drain(this.lastMs + gap);
            },
          };
        };
        drain(burst.refusedMs + gap);
      },
    };
  }

  /**
   * A token bucket gives a call back one interval after it empties; a sliding counter none before its next
   * aligned boundary. Only a crossing timed within a fine gap counts: a stalled poll leaves it anywhere.
   */
  private firstWindowPause(emptiedMs: number, crossedMs: number, gapMs: number): void {
    const rate = this.rateMeasured;
    if (this.refillPausedMs !== null || this.windowLike || !rate || gapMs > 2 * this.fineMs) return;
    if (crossedMs - emptiedMs <= 2 / rate) return;
    this.refillPausedMs = crossedMs - emptiedMs;
    this.evidence.push(
      `first window: no call back for ${Math.round(this.refillPausedMs)} ms after a rested burst emptied the bucket (a token bucket refills at once)`,
    );
  }

  private afterFirstWindow(burst: number, startMs: number | null, passed: number, lastCrossedMs: number): void {
    // passed - 1 thresholds were crossed between the first crossing and the last one.
    if (startMs === null || passed < 2 || lastCrossedMs <= startMs) {
      this.evidence.push(`first window: ${passed} calls passed after a rested burst of ${burst}; the drains' rate stays`);
      return this.finish();
    }
    const rate = (passed - 1) / (lastCrossedMs - startMs);
    this.evidence.push(
      `first window: after a rested burst of ${burst}, ${passed} calls passed in ${Math.round(lastCrossedMs - startMs)} ms from the boundary = ${(rate * 1000).toFixed(2)}/s (the drains read ${((this.rateMeasured ?? 0) * 1000).toFixed(2)}/s)`,
    );
    // Never below what the drains already got through.
    if (this.rateMeasured === null || rate > this.rateMeasured) this.rateMeasured = rate;
    this.finish();
  }

  private splitSaysSliding(): boolean {
    const s = this.splitResult;
    return s !== null && s.drained <= s.burst - Math.max(1, s.h2 / 2);
  }

  // Result ---------------------------------------------------------------------------------
  result(): RateLimitFingerprint & { timeline: TimelinePoint[] } {
    const families = new Set<string>();
    for (const o of this.observations) for (const f of o.hints.families) families.add(f);
    const unit = this.observations.find((o) => o.hints.resetUnit !== 'unknown')?.hints.resetUnit ?? 'unknown';
    // A probe that stopped with a verdict names no algorithm: its partial measurements stay.
    const algorithm = this.verdict === null ? this.algorithm() : 'unknown';
    const refusedCallsCount = this.refusedCallsCount();
    if (refusedCallsCount && this.rateSpan) {
      // Each sampling drain ended with a refusal that consumed a call too.
      const { allowed, elapsedMs, refusals } = this.rateSpan;
      this.rateMeasured = (allowed + refusals) / elapsedMs;
    }
    const burst = this.burst();
    const windowMs = this.windowMs(algorithm);
    const sustained =
      this.rateMeasured !== null
        ? this.rateMeasured * 1000
        : burst !== null && windowMs !== null && algorithm !== 'unknown'
          ? (burst / windowMs) * 1000
          : null;
    const fp: RateLimitFingerprint = {
      algorithm,
      evidence:
        this.windowLike && !this.splitResult
          ? [...this.evidence, 'split test not run: fixed or sliding window undecided']
          : [...this.evidence],
      burst,
      sustainedPerSecond: sustained === null ? null : Math.round(sustained * 1000) / 1000,
      windowMs: windowMs === null ? null : Math.round(windowMs),
      refusedCallsCount,
      headers: [...families],
      resetUnit: unit,
      resetMoves: this.resetMoves(),
      pacing: null,
      verdict: this.verdict,
      requestsSpent: this.requests,
      durationMs: this.startMs === null ? 0 : this.lastMs - this.startMs,
    };
    fp.pacing = pacingFor(fp, this.cfg.pacingShare ?? 0.95);
    return { ...fp, timeline: [...this.timeline] };
  }

  private algorithm(): Algorithm {
    const s = this.splitResult;
    if (this.windowLike === null || !s) return 'unknown';
    // A token bucket is full again too, give or take the rate estimate's error on large buckets.
    const fullAgain = s.drained >= s.burst - (this.windowLike ? 0 : Math.floor(s.burst / 10));
    const halfBack = s.drained <= s.burst - Math.max(1, s.h2 / 2);
    if (this.windowLike) {
      if (fullAgain) return 'fixed-window';
      if (halfBack) return 'sliding-window';
      return 'unknown';
    }
    // A refill that waits for an aligned window is a sliding counter, whatever the split shows.
    if (halfBack || this.refillPausedMs !== null) return 'sliding-window';
    if (fullAgain) return 'token-bucket';
    return 'unknown';
  }

  /** The exhaustion's count less what a continuous refill added while it ran (±1), or the advertised limit if consistent. */
  private refillCorrectedBurst(): number {
    const B = this.burstObserved as number;
    const d = this.exhaust as Drain;
    const lastAllowed = this.observations[Math.max(0, d.allowed - 1)]?.tMs ?? d.firstMs;
    const refill = (this.rateMeasured ?? 0) * (lastAllowed - d.firstMs);
    const advertised = this.firstHints?.limit ?? null;
    if (advertised !== null && B >= advertised && B <= advertised + Math.ceil(refill) + 1) return advertised;
    // The drain after a rest started from a full bucket too; its calls came faster (warm), so it refilled less.
    const fromExhaustion = B - Math.floor(refill);
    const rested = this.restedDrain;
    const r = this.rateMeasured ?? 0;
    // Only a rest long enough to refill the whole bucket makes its drain a burst.
    const restMs = rested ? rested.firstMs - (this.restFromMs ?? rested.firstMs) : 0;
    const full = rested !== null && rested.refusedMs !== null && restMs * r >= 1.1 * fromExhaustion;
    const fromRest = full ? rested.allowed - Math.floor(r * ((rested.refusedMs as number) - rested.firstMs)) : Infinity;
    return Math.max(1, Math.min(fromExhaustion, fromRest));
  }

  private burst(): number | null {
    if (this.burstObserved === null || this.verdict?.startsWith('no 429')) return null;
    const algorithm = this.algorithm();
    // A sliding counter does not refill within its first window: only a token bucket's count is corrected.
    if (algorithm === 'token-bucket' && this.burstRefilled !== null) return this.burstRefilled;
    if (algorithm === 'sliding-window' && !this.windowLike) {
      // A sliding counter's exhaustion may straddle its aligned windows and pass more than a full bucket.
      const advertised = this.firstHints?.limit ?? null;
      if (advertised !== null && advertised <= this.burstObserved) return advertised;
      if (this.restedBurst !== null) return Math.min(this.restedBurst, this.burstObserved);
    }
    return this.burstObserved;
  }

  private windowMs(algorithm: Algorithm): number | null {
    if (algorithm === 'token-bucket' || algorithm === 'unknown') return this.windowLike ? this.windowMeasured : null;
    if (this.windowLike) return this.windowMeasured;
    // A sliding counter measured as a continuous refill: the window is burst / rate.
    const b = this.burst();
    return b !== null && this.rateMeasured ? Math.round(b / this.rateMeasured) : null;
  }

  private refusedCallsCount(): boolean | null {
    if (this.refusedMovesHint) return true;
    const t = this.refusedTest;
    if (t && t.extraRefused >= 2) return t.test <= t.control - Math.max(1, t.extraRefused / 2);
    if (this.verdict?.includes('refused calls appear to count')) return true;
    return null;
  }

  private resetMoves(): boolean | null {
    const d = this.exhaust;
    if (!d) return null;
    const values = this.observations
      .slice(0, d.allowed)
      .map((o) => o.hints.resetAtMs)
      .filter((v): v is number => v !== null);
    if (values.length < 2) return null;
    return Math.max(...values) - Math.min(...values) >= SECOND;
  }

  /** Whether the window estimate came from a fine poll (±fineMs) rather than a sampling gap. */
  get windowIsPrecise(): boolean {
    return this.windowPrecise;
  }
}

/** The fastest schedule that never draws a 429, from a fingerprint. Null when it is not known. */
export function pacingFor(
  fp: Pick<RateLimitFingerprint, 'algorithm' | 'burst' | 'sustainedPerSecond' | 'windowMs'>,
  share = 0.95,
): Pacing | null {
  const B = fp.burst;
  // NaN and absent values never make a pacing.
  if (B === null || !(B >= 1) || fp.sustainedPerSecond === null || !(fp.sustainedPerSecond > 0)) return null;
  const k6 = (rate: number, unitMs: number): K6ArrivalRate => ({
    executor: 'constant-arrival-rate',
    rate,
    timeUnit: `${unitMs}ms`,
    preAllocatedVUs: 2,
  });
  if (fp.algorithm === 'fixed-window' && fp.windowMs !== null) {
    const period = Math.ceil(fp.windowMs / share);
    return {
      schedule: `burst ${B} then wait until Reset (one burst every ${period} ms)`,
      kind: 'burst-per-window',
      burst: B,
      intervalMs: null,
      periodMs: period,
      share,
      bottleneck: { reservoir: B, reservoirRefreshAmount: B, reservoirRefreshInterval: period, minTime: 0, maxConcurrent: 1 },
      k6: k6(B, period),
    };
  }
  const interval = Math.ceil(1000 / fp.sustainedPerSecond / share);
  if (fp.algorithm === 'sliding-window') {
    return {
      schedule: `1 call every ${interval} ms, no burst (a burst is refused until it leaves the sliding window)`,
      kind: 'even',
      burst: 1,
      intervalMs: interval,
      periodMs: null,
      share,
      bottleneck: { reservoir: null, reservoirRefreshAmount: null, reservoirRefreshInterval: null, minTime: interval, maxConcurrent: 1 },
      k6: k6(1, interval),
    };
  }
  if (fp.algorithm === 'token-bucket') {
    return {
      schedule: `burst ${B} then 1 call every ${interval} ms`,
      kind: 'burst-then-even',
      burst: B,
      intervalMs: interval,
      periodMs: null,
      share,
      bottleneck: {
        reservoir: B,
        reservoirRefreshAmount: null,
        reservoirRefreshInterval: null,
        reservoirIncreaseAmount: 1,
        reservoirIncreaseInterval: interval,
        reservoirIncreaseMaximum: B,
        minTime: 0,
        maxConcurrent: 1,
      },
      k6: k6(1, interval),
    };
  }
  return null;
}

/**
 * The driver of one operation's fingerprint: the caller sends the calls it asks for and records their
 * outcomes; it runs the coordinator's experiments and enforces the request and time caps.
 *
 * Usage: `nextAt()` is when the next call is due (null when finished), `nextCount()` how many calls are due
 * then together (a volley, sent in one batch), `record()` each outcome, `result()` at the end.
 */
import { Bench, Runner } from './bench';
import { coordinate, noReadings, type Readings } from './coordinator';
import { pacingFor } from './pacing';
import { algorithmOf, burstOf, rateOf, refusedCountOf, resetMovesOf, windowOf } from './readings';
import type { FingerprintConfig, Observation, RateLimitFingerprint, TimelinePoint } from './types';

export class Fingerprinter {
  private readonly readings: Readings = noReadings();
  private readonly runner: Runner<void>;
  private readonly timeline: TimelinePoint[] = [];
  private startMs: number | null = null;

  constructor(private readonly cfg: FingerprintConfig) {
    this.runner = new Runner(new Bench(cfg), (b) => coordinate(b, this.readings));
  }

  /** Epoch ms at which the next call is due; null once finished. */
  nextAt(): number | null {
    return this.runner.nextAt();
  }

  get done(): boolean {
    return this.runner.finished;
  }

  /** How many calls are due at `nextAt()` together (a volley is sent at once, in one batch); 1 otherwise. */
  nextCount(): number {
    return this.runner.nextCount();
  }

  record(o: Observation): void {
    const a = this.runner.next;
    if (!a) return;
    const b = this.runner.bench;
    if (this.startMs === null) this.startMs = o.tMs;
    this.timeline.push({ tMs: o.tMs - this.startMs, status: o.status, allowed: o.status !== 429, phase: a.phase });
    if (o.status === 0 || o.status === 401 || o.status === 404 || o.status >= 500) {
      b.lastMs = o.tMs;
      b.observations.push(o);
      // A gateway may refuse with another status (nginx limit_req: 503 by default) once some calls passed.
      const hint =
        o.status >= 500 && b.requests > 1
          ? `; if ${o.status} is how it refuses calls (nginx limit_req answers 503 by default), probe with --refused-status ${o.status}`
          : '';
      return this.runner.stop(
        `the target answered ${o.status} during the ${a.phase} experiment: the limiter cannot be probed on this operation${hint}`,
      );
    }
    this.runner.record(o);
    const next = this.runner.next;
    if (!next) return;
    if (b.requests >= this.cfg.maxRequests)
      this.runner.stop(`request cap of ${this.cfg.maxRequests} reached during the ${next.phase} experiment`);
    else if (next.at - this.startMs > this.cfg.maxDurationMs)
      this.runner.stop(`time cap of ${this.cfg.maxDurationMs} ms reached before the ${next.phase} experiment`);
  }

  /** Ends the experiments from outside (the run's budget or time is spent). */
  abandon(verdict: string): void {
    this.runner.stop(verdict);
  }

  result(): RateLimitFingerprint & { timeline: TimelinePoint[] } {
    const r = this.readings;
    const b = this.runner.bench;
    const verdict = this.runner.verdict;
    const families = new Set<string>();
    for (const o of b.observations) for (const f of o.hints.families) families.add(f);
    const unit = b.observations.find((o) => o.hints.resetUnit !== 'unknown')?.hints.resetUnit ?? 'unknown';
    // A probe that stopped with a verdict names no algorithm: its partial measurements stay.
    const named = algorithmOf(r);
    const algorithm = verdict === null ? named : 'unknown';
    const refusedCallsCount = refusedCountOf(r, verdict);
    const burst = burstOf(r, named);
    const rate = rateOf(r, refusedCallsCount);
    const windowMs = windowOf(r, algorithm, burst, rate);
    const sustained =
      rate !== null ? rate * 1000 : burst !== null && windowMs !== null && algorithm !== 'unknown' ? (burst / windowMs) * 1000 : null;
    const fp: RateLimitFingerprint = {
      algorithm,
      evidence: r.windowLike && !r.split ? [...b.evidence, 'split test not run: fixed or sliding window undecided'] : [...b.evidence],
      burst,
      sustainedPerSecond: sustained === null ? null : Math.round(sustained * 1000) / 1000,
      windowMs: windowMs === null ? null : Math.round(windowMs),
      refusedCallsCount,
      headers: [...families],
      resetUnit: unit,
      resetMoves: resetMovesOf(r, b.observations),
      pacing: null,
      verdict,
      requestsSpent: b.requests,
      durationMs: this.startMs === null ? 0 : b.lastMs - this.startMs,
    };
    fp.pacing = pacingFor(fp, this.cfg.pacingShare ?? 0.95);
    return { ...fp, timeline: [...this.timeline] };
  }

  /** Whether the window estimate came from a fine poll (±fineMs) rather than a sampling gap. */
  get windowIsPrecise(): boolean {
    return this.readings.window?.precise ?? false;
  }
}

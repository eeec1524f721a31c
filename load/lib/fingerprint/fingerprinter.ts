/**
 * The driver of one operation's fingerprint: the caller sends the calls it asks for and records their
 * outcomes; it runs the coordinator's experiments, checks their readings (consistency.ts), measures again
 * once when they disagree, stops when a sliding log whose refused calls count explains every call, and enforces
 * the request and time caps (per measurement).
 *
 * Usage: `nextAt()` is when the next call is due (null when finished), `nextCount()` how many calls are due
 * then together (a volley, sent in one batch), `record()` each outcome, `result()` at the end.
 */
import { Lab, Runner, Stalled, Stop, type Experiment } from './lab';
import { countedLogFit, inconsistencies } from './consistency';
import { refusalCeiling } from './counter-checks';
import type { Claim } from './types';
import { coordinate } from './coordinator';
import { cautiousPacing, pacingFor } from './pacing';
import { cautiousClaim, claimOf, noReadings, pacingFloorPerSecond, resetMovesOf, type Readings } from './readings';
import type { FingerprintOptions, LabObservation, RateLimitFingerprint, ReadsNamed, TimelinePoint } from './types';

interface Measurement {
  readings: Readings;
  /** What disagreed; empty when the readings hold together. */
  problems: string[];
}

/**
 * The coordinator's experiments, checked; once more after a rest that fills the bucket when they disagree.
 * A measurement that stops with a verdict ends the fingerprint without a result.
 */
function* measure(lab: Lab, out: Measurement[]): Experiment<void> {
  let startAt = 0;
  for (let attempt = 1; attempt <= 2; attempt++) {
    const m: Measurement = { readings: noReadings(), problems: [] };
    out.push(m);
    try {
      yield* coordinate(lab, m.readings, startAt);
    } catch (e) {
      // A stop a stall may have caused stands only the second time.
      if (!(e instanceof Stalled) || attempt === 2) throw e;
      lab.note(`stalled: ${e.verdict}; measured again after a rest of ${Math.round(lab.cfg.maxWaitMs)} ms`);
      startAt = lab.lastMs + lab.cfg.maxWaitMs;
      lab.restart();
      out.length = 0;
      continue;
    }
    const claim = claimOf(m.readings, null);
    m.problems = inconsistencies(lab, m.readings, claim);
    if (m.problems.length) lab.note(`inconsistent readings: ${m.problems.join('; ')}`);
    refusedCallsCountIn(lab, m.readings, claim);
    if (!m.problems.length) return;
    if (attempt === 2) return;
    const restMs = restBeforeAgain(lab, m.readings, claim);
    lab.note(`measured again after a rest of ${Math.round(restMs)} ms`);
    startAt = lab.lastMs + restMs;
    lab.restart();
  }
}

/**
 * A limiter whose every call a sliding log of its burst, refused calls counting, explains: the fingerprint stops
 * with that verdict, whatever the readings said (its refill sampling and refused-call test read such a log as a
 * bucket, or as a window whose refused calls do not count; measured again, they would read it the same). Of the
 * usual algorithms (the mock's five), only a weighted counter whose refused calls count fits whole timelines too.
 */
function refusedCallsCountIn(lab: Lab, readings: Readings, c: Claim): void {
  const verdict = countedLogVerdict(lab, c.burst ?? lab.observedBurst, c.algorithm);
  if (verdict === null) return;
  readings.refusedCountKnown = true;
  throw new Stop(verdict);
}

/** The refused-calls verdict when a sliding log of `burst`, refused calls counting, explains every call; else null. */
function countedLogVerdict(lab: Lab, burst: number, read: string | null): string | null {
  const fit = burst > 0 ? countedLogFit(lab.observations, burst) : null;
  if (!fit) return null;
  return `refused calls appear to count: a sliding log of ${burst} calls per ${Math.round(fit.lo)}..${Math.round(fit.hi)} ms in which refused calls count explains every call${read ? `, the ${read} read does not` : ''}`;
}

/** Long enough for any of the periods read to give a full bucket back (a weighted counter needs two). */
function restBeforeAgain(lab: Lab, readings: Readings, c: Claim): number {
  const observed = readings.exhaustion?.burst ?? null;
  const periods = [
    c.windowMs,
    readings.samplingBracket?.hi ?? null,
    c.burst !== null && c.rate ? c.burst / c.rate : null,
    // The readings may be what disagreed: the exhaustion's count at the drains' rate too.
    observed !== null && readings.drainsRate ? observed / readings.drainsRate : null,
  ];
  const longest = Math.max(0, ...periods.filter((x): x is number => x !== null && Number.isFinite(x)));
  return longest > 0 ? 2.1 * longest : lab.cfg.maxWaitMs;
}

export class Fingerprinter {
  private readonly measurements: Measurement[] = [];
  private readonly runner: Runner<void>;
  private readonly timeline: TimelinePoint[] = [];
  private startMs: number | null = null;

  constructor(private readonly cfg: FingerprintOptions) {
    this.runner = new Runner(new Lab(cfg), (lab) => measure(lab, this.measurements));
  }

  /** Epoch ms at which the next call is due; null once finished, and while waiting. */
  nextAt(): number | null {
    return this.runner.waiting ? null : this.runner.nextAt();
  }

  /** A write waiting, sending nothing, to be told what the read operations were named (`readsAre`). */
  get waiting(): boolean {
    return this.runner.waiting;
  }

  /** The read operations are done: what they were all named (null: not one limiter). A write waiting goes on. */
  readsAre(named: ReadsNamed | null): void {
    this.runner.lab.readsNamed = named;
    this.runner.resume();
  }

  get done(): boolean {
    return this.runner.finished;
  }

  /** How many calls are due at `nextAt()` together (a volley is sent at once, in one batch); 1 otherwise. */
  nextCount(): number {
    return this.runner.nextCount();
  }

  record(o: LabObservation): void {
    const due = this.runner.next;
    if (!due) return;
    const lab = this.runner.lab;
    if (this.startMs === null) this.startMs = o.tMs;
    this.timeline.push({ tMs: o.tMs - this.startMs, status: o.status, allowed: o.status !== 429, phase: due.phase });
    if (o.status === 0 || o.status === 401 || o.status === 404 || o.status >= 500) {
      lab.lastMs = o.tMs;
      lab.observations.push(o);
      lab.all.push(o);
      // A gateway may refuse with another status (nginx limit_req: 503 by default) once some calls passed.
      const hint =
        o.status >= 500 && lab.requests > 1
          ? `; if ${o.status} is how it refuses calls (nginx limit_req answers 503 by default), probe with --refused-status ${o.status}`
          : '';
      return this.runner.stop(
        `the target answered ${o.status} during the ${due.phase} experiment: the limiter cannot be probed on this operation${hint}`,
      );
    }
    this.runner.record(o);
    const next = this.runner.next;
    // The caps hold for each measurement (due second one after inconsistent readings has its own).
    const since = lab.observations[0]?.tMs ?? null;
    if (!next || since === null) return;
    // A cap ends the experiments without due result; due log whose refused calls count may explain what they saw.
    const capped = (why: string): string => {
      const log = countedLogVerdict(lab, lab.observedBurst, null);
      return log === null ? why : `${log} (${why})`;
    };
    if (lab.observations.length >= this.cfg.maxRequests)
      this.runner.stop(capped(`request cap of ${this.cfg.maxRequests} reached during the ${next.phase} experiment`));
    else if (next.at - since > this.cfg.maxDurationMs)
      this.runner.stop(capped(`time cap of ${this.cfg.maxDurationMs} ms reached before the ${next.phase} experiment`));
  }

  /** Ends the experiments from outside (the run's budget or time is spent). */
  abandon(verdict: string): void {
    this.runner.stop(verdict);
  }

  result(): RateLimitFingerprint & { timeline: TimelinePoint[] } {
    const lab = this.runner.lab;
    const verdict = this.runner.verdict;
    const last = this.measurements[this.measurements.length - 1] ?? { readings: noReadings(), problems: [] };
    const readings = last.readings;
    const styles = new Set<string>();
    for (const o of lab.all) for (const f of o.hints.styles) styles.add(f);
    const unit = lab.all.find((o) => o.hints.resetUnit !== 'unknown')?.hints.resetUnit ?? 'unknown';
    // Uncertain: two measurements, both inconsistent, and no verdict (a verdict names nothing at all).
    const uncertain = verdict === null && this.measurements.length === 2 && this.measurements.every((m) => m.problems.length > 0);
    const claim = uncertain
      ? cautiousClaim(
          this.measurements.map((m) => claimOf(m.readings, null)),
          this.measurements.map((m) => m.readings),
          (burst) => refusalCeiling(lab.all, burst),
        )
      : claimOf(readings, verdict);
    const fp: RateLimitFingerprint = {
      algorithm: claim.algorithm,
      evidence:
        readings.refillShape === 'window' && !readings.split
          ? [...lab.evidence, 'split test not run: fixed or sliding window undecided']
          : [...lab.evidence],
      burst: claim.burst,
      sustainedPerSecond: claim.rate === null ? null : Math.round(claim.rate * 1000 * 1000) / 1000,
      windowMs: claim.windowMs,
      refusedCallsCount: claim.refusedCallsCount,
      headers: [...styles],
      resetUnit: unit,
      resetMoves: resetMovesOf(readings, lab.observations),
      pacing: null,
      verdict,
      uncertain: uncertain ? this.measurements.flatMap((m, i) => m.problems.map((p) => `${i === 0 ? 'first' : 'again'}: ${p}`)) : null,
      requestsSpent: lab.requests,
      durationMs: this.startMs === null ? 0 : lab.lastMs - this.startMs,
    };
    fp.pacing = uncertain
      ? cautiousPacing(fp.sustainedPerSecond, this.cfg.pacingShare ?? 0.95)
      : pacingFor(
          fp,
          this.cfg.pacingShare ?? 0.95,
          claim.algorithm === 'token-bucket' ? pacingFloorPerSecond(readings, claim.refusedCallsCount) : null,
        );
    return { ...fp, timeline: [...this.timeline] };
  }

  /** Whether the window estimate came from a fine poll (±fineMs) rather than a sampling gap. */
  get windowIsPrecise(): boolean {
    return this.measurements[this.measurements.length - 1]?.readings.window?.precise ?? false;
  }
}

/**
 * The lab every experiment runs on: the calls it may make (one call, a volley sent at once, a drain
 * until refused, a number of calls spent), the log of what came back, and the evidence in words.
 *
 * An experiment is a generator: it yields the calls it wants (when, how many at once) and receives
 * their observations, so it reads top to bottom as its plan. It returns its reading, or throws `Stop`
 * with a verdict when the limiter cannot be read this way.
 */
import type { Drain, FingerprintOptions, LabObservation, ReadsNamed } from './types';

/** Calls an experiment wants: `n` of them sent at `at` (epoch ms) in one batch (n > 1: a volley). */
export interface CallRequest {
  at: number;
  n: number;
  phase: string;
}

export type Experiment<T> = Generator<CallRequest, T, LabObservation[]>;

/** Ends the fingerprint without a result: the verdict says why. */
export class Stop extends Error {
  constructor(readonly verdict: string) {
    super(verdict);
  }
}

/** A stop a stalled call or answer may have caused: the measurement is taken again once before it stands. */
export class Stalled extends Stop {}

export class Lab {
  /** The current measurement's observations (a measurement taken again starts a new list). */
  observations: LabObservation[] = [];
  /** When each of them was due (epoch ms). */
  planned: number[] = [];
  /** Every observation of every measurement. */
  readonly all: LabObservation[] = [];
  readonly evidence: string[] = [];
  /** Epoch ms of the latest answer. */
  lastMs = 0;
  readonly fineMs: number;
  /** What the read operations were all named (null: not one limiter); undefined while a write waits to be told. */
  readsNamed: ReadsNamed | null | undefined;

  constructor(readonly cfg: FingerprintOptions) {
    this.fineMs = cfg.fineMs ?? 20;
    this.readsNamed = cfg.awaitReads ? undefined : null;
  }

  get requests(): number {
    return this.all.length;
  }

  /** Calls the exhaustion allowed (a bucket may be larger than the catalogue said). */
  observedBurst = 0;

  /** Most calls a drain may take: twice the larger of the exhaustion's cap and what it allowed. */
  drainCap(): number {
    return 2 * Math.max(this.cfg.burstCap, this.observedBurst);
  }

  /** A new measurement from here: the experiments read only its observations. */
  restart(): void {
    this.observations = [];
    this.planned = [];
  }

  /**
   * The longest any call from `from` (an index into `observations`) was held up: sent after it was due (the
   * client stalled) or answered after it was sent (the target, or the client reading it, stalled).
   */
  worstDelaySince(from: number): number {
    let worst = 0;
    for (let i = from; i < this.observations.length; i++) {
      const o = this.observations[i] as LabObservation;
      worst = Math.max(worst, o.sentMs - (this.planned[i] ?? o.sentMs), o.tMs - o.sentMs);
    }
    return worst;
  }

  note(line: string): void {
    this.evidence.push(line);
  }

  /** A time no earlier than the latest answer: calls are never scheduled in the past. */
  at(ms: number): number {
    return Math.max(ms, this.lastMs);
  }
}

export const allowedOf = (o: LabObservation): boolean => o.status !== 429;

/** A rate in calls per ms, for the evidence: `4.50/s`. */
export const perSecond = (perMs: number): string => `${(perMs * 1000).toFixed(2)}/s`;

/** One call at `at`. */
export function* call(lab: Lab, at: number, phase: string): Experiment<LabObservation> {
  const [o] = yield { at: lab.at(at), n: 1, phase };
  return o as LabObservation;
}

/** `n` calls sent at once (no refill between them): the driver sends them in one batch. */
export function* volley(lab: Lab, at: number, phase: string, n: number): Experiment<LabObservation[]> {
  return yield { at: lab.at(at), n, phase };
}

/** Calls back to back from `at` until the first refusal or `cap` allowed calls; `seed` continues a drain. */
export function* drain(lab: Lab, at: number, phase: string, cap: number, seed?: Drain): Experiment<Drain> {
  let d = seed;
  let next = at;
  for (;;) {
    const o = yield* call(lab, next, phase);
    const allowed = allowedOf(o);
    d ??= { firstMs: o.tMs, firstSentMs: o.sentMs, allowed: 0, refusedMs: null, refusedFirst: !allowed };
    if (allowed) d.allowed += 1;
    else d.refusedMs = o.tMs;
    if (!allowed || d.allowed >= cap) return d;
    next = o.tMs;
  }
}

/** A drain continued from an allowed call (its first). */
export function drainFrom(o: LabObservation): Drain {
  return { firstMs: o.tMs, firstSentMs: o.sentMs, allowed: 1, refusedMs: null, refusedFirst: false };
}

/** What the read operations were all named; a write waits here, sending nothing, until the driver says. */
export function* readsNamed(lab: Lab): Experiment<ReadsNamed | null> {
  if (lab.readsNamed === undefined) yield { at: lab.lastMs, n: 0, phase: 'waiting for the read operations' };
  return lab.readsNamed ?? null;
}

/** `n` calls back to back from `at`, whatever they get. */
export function* spend(lab: Lab, at: number, phase: string, n: number): Experiment<{ allowed: number; refused: number }> {
  let allowed = 0;
  let next = at;
  for (let i = 0; i < n; i++) {
    const o = yield* call(lab, next, phase);
    if (allowedOf(o)) allowed += 1;
    next = o.tMs;
  }
  return { allowed, refused: n - allowed };
}

/**
 * Slack after a period before a call that must find it over: 5 % of a window, or for a continuous refill room
 * for an odd half call and the rate's error. At least two fine gaps.
 */
export function margin(lab: Lab, periodMs: number, windowLike: boolean, burst: number): number {
  return Math.max(2 * lab.fineMs, Math.ceil(windowLike ? 0.05 * periodMs : Math.max(0.1, 1.5 / burst) * periodMs));
}

/**
 * Runs one experiment on a lab: the caller sends the calls it asks for (`nextAt`, `nextCount`) and
 * records their outcomes. The fingerprint runs the coordinator this way; a test can run any experiment alone.
 */
export class Runner<T> {
  private readonly gen: Experiment<T>;
  private pending: CallRequest | null = null;
  private received: LabObservation[] = [];
  /** The experiment's reading once it returned. */
  reading: T | undefined;
  verdict: string | null = null;
  finished = false;

  constructor(
    readonly lab: Lab,
    experiment: (lab: Lab) => Experiment<T>,
  ) {
    this.gen = experiment(lab);
    this.advance([]);
  }

  /** The calls due next; null once finished. */
  get next(): CallRequest | null {
    return this.finished ? null : this.pending;
  }

  nextAt(): number | null {
    return this.next?.at ?? null;
  }

  nextCount(): number {
    return this.pending ? this.pending.n - this.received.length : 1;
  }

  /** Waiting, with no call due, for what the driver is to say (an experiment that asked for no call). */
  get waiting(): boolean {
    return !this.finished && this.pending?.n === 0;
  }

  /** Goes on after a wait. */
  resume(): void {
    if (this.waiting) this.advance([]);
  }

  record(o: LabObservation): void {
    if (this.finished) return;
    this.lab.lastMs = o.tMs;
    this.lab.observations.push(o);
    this.lab.planned.push(this.pending?.at ?? o.sentMs);
    this.lab.all.push(o);
    this.received.push(o);
    if (this.pending && this.received.length >= this.pending.n) {
      const got = this.received;
      this.received = [];
      this.advance(got);
    }
  }

  /** Ends the experiment from outside with a verdict. */
  stop(verdict: string): void {
    if (this.finished) return;
    this.verdict = verdict;
    this.finished = true;
    this.pending = null;
  }

  private advance(got: LabObservation[]): void {
    try {
      const step = this.gen.next(got);
      if (step.done) {
        this.reading = step.value;
        this.finished = true;
        this.pending = null;
      } else this.pending = step.value;
    } catch (e) {
      if (!(e instanceof Stop)) throw e;
      this.stop(e.verdict);
    }
  }
}

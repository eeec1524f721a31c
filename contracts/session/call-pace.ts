/**
 * How many calls a worker sends at once, from what the run measures: the round trip of its calls (a distant
 * target is worth several calls in flight, a near one is not) and each bucket's Remaining (never more calls in
 * flight on a bucket than it has left, less a margin: checks running at once must not cause a 429 no check
 * asked for). CERTIFY_CONCURRENCY caps it; 1 runs every check one call at a time.
 */
import { median } from '../../common/statistics';

/** The round trip each call in flight stands for: at 150 ms, 8 at once; at 20 ms or less, one. */
const RTT_PER_CALL_MS = 20;
/** Calls kept back from a bucket's Remaining when checks share it. */
const REMAINING_MARGIN = 2;
/** Round trips kept to measure the median of. */
const SAMPLES = 50;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class CallPace {
  private readonly rtts: number[] = [];
  private readonly remaining = new Map<string, number>();
  private readonly inFlight = new Map<string, number>();

  /** Settles at the first round trip measured. */
  private readonly firstRtt: Promise<void>;
  private onFirstRtt: () => void = () => undefined;

  /** `cap`: CERTIFY_CONCURRENCY. */
  constructor(private readonly cap: number) {
    this.firstRtt = new Promise((resolve) => (this.onFirstRtt = resolve));
  }

  /** Settles once a round trip has been measured: from then on, `concurrency` says what it is worth. */
  measured(): Promise<void> {
    return this.firstRtt;
  }

  /** Checks to run at once now: from the median round trip, within the cap. */
  concurrency(): number {
    if (this.cap <= 1 || !this.rtts.length) return 1;
    return Math.max(1, Math.min(this.cap, Math.round((median(this.rtts) ?? 0) / RTT_PER_CALL_MS)));
  }

  /** The median round trip so far, in ms; null before the first call. */
  medianRttMs(): number | null {
    return this.rtts.length ? (median(this.rtts) ?? null) : null;
  }

  /** Sends one call of a bucket once the bucket's Remaining leaves room beside the calls in flight, and learns from its answer. */
  async call<T extends { durationMs: number; headers: Record<string, string | undefined> }>(
    bucket: string,
    send: () => Promise<T>,
  ): Promise<T> {
    while (
      (this.inFlight.get(bucket) ?? 0) > 0 &&
      (this.inFlight.get(bucket) ?? 0) >= (this.remaining.get(bucket) ?? Infinity) - REMAINING_MARGIN
    )
      await sleep(5);
    this.inFlight.set(bucket, (this.inFlight.get(bucket) ?? 0) + 1);
    try {
      const res = await send();
      this.rtts.push(res.durationMs);
      this.onFirstRtt();
      if (this.rtts.length > SAMPLES) this.rtts.shift();
      const left = Number(res.headers['x-ratelimit-remaining']);
      if (Number.isInteger(left)) this.remaining.set(bucket, left);
      return res;
    } finally {
      this.inFlight.set(bucket, (this.inFlight.get(bucket) ?? 1) - 1);
    }
  }
}

/** One clock drives token expiry and rate-limit windows, so tests compress time instead of sleeping. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that moves only when told to; starts at `startMs`. */
export class ManualClock implements Clock {
  constructor(private ms: number = Date.now()) {}
  now(): number {
    return this.ms;
  }
  set(ms: number): void {
    this.ms = ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

/**
 * The mock's clock: the system clock, or a manual one once the control API sets the time. Kept
 * as one object so everything holding it sees the switch.
 */
export class SwitchableClock implements Clock {
  private manual: ManualClock | undefined;
  constructor(private readonly base: Clock = systemClock) {}
  now(): number {
    return this.manual ? this.manual.now() : this.base.now();
  }
  setNow(ms: number): void {
    this.manual = new ManualClock(ms);
  }
  advance(ms: number): void {
    if (!this.manual) this.manual = new ManualClock(this.base.now());
    this.manual.advance(ms);
  }
  /** Back to the base clock. */
  useBase(): void {
    this.manual = undefined;
  }
}

/** Limiters of several algorithms behind one: each operation routed to its own algorithm. */
import type { Clock } from '../ground/clock';
import type { ConsumeOptions } from './limiter';
import {
  createLimiter,
  type AlgorithmDecision,
  type AlgorithmLimiter,
  type LimiterAlgorithm,
  type LimiterOptions,
} from './limiter-algorithms';

export interface LimiterSetOptions extends LimiterOptions {
  /** Algorithm of operations without their own. Default 'fixed'. */
  default?: LimiterAlgorithm;
  /** Algorithm per operation id. */
  byOperation?: Readonly<Record<string, LimiterAlgorithm>>;
}

/** One limiter per algorithm in use, each operation routed to its own algorithm. */
export class LimiterSet {
  private readonly limiters = new Map<LimiterAlgorithm, AlgorithmLimiter>();
  constructor(
    private readonly clock: Clock,
    readonly windowMs: number,
    private readonly o: LimiterSetOptions = {},
  ) {}

  algorithmOf(operationId: string | undefined): LimiterAlgorithm {
    return (operationId !== undefined ? this.o.byOperation?.[operationId] : undefined) ?? this.o.default ?? 'fixed';
  }

  consume(key: string, limit: number, opts?: ConsumeOptions): AlgorithmDecision {
    const algorithm = this.algorithmOf(opts?.operationId);
    let l = this.limiters.get(algorithm);
    if (!l) {
      l = createLimiter(algorithm, this.clock, this.windowMs, { countRefused: this.o.countRefused ?? false });
      this.limiters.set(algorithm, l);
    }
    return l.consume(key, limit, opts);
  }

  reset(): void {
    for (const l of this.limiters.values()) l.reset();
  }
}

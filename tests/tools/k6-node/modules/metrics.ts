/** Shim of `k6/metrics` for the k6 double. */
import { rt } from './bridge';
import type { MetricType, Tags } from '../run-state';

class Metric {
  constructor(
    readonly name: string,
    private readonly type: MetricType,
  ) {
    if (rt().phase() !== 'init') throw new Error('metrics must be declared in the init context');
    rt().declareMetric(name, type);
  }
  add(value: number | boolean, tags?: Tags): void {
    if (rt().phase() === 'init') throw new Error('Adding to metrics in the init context is not supported');
    rt().record(this.name, this.type, typeof value === 'boolean' ? (value ? 1 : 0) : value, tags);
  }
}
export class Counter extends Metric {
  constructor(name: string) {
    super(name, 'counter');
  }
}
export class Trend extends Metric {
  constructor(name: string) {
    super(name, 'trend');
  }
}
export class Rate extends Metric {
  constructor(name: string) {
    super(name, 'rate');
  }
}
export class Gauge extends Metric {
  constructor(name: string) {
    super(name, 'gauge');
  }
}
export default { Counter, Trend, Rate, Gauge };

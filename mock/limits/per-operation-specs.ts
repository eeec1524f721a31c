/** The command line's per-operation choices: `--limiter` (algorithm) and `--headers` (header style), each a default with exceptions by operation id. */
import { LIMITER_ALGORITHMS, type LimiterAlgorithm } from './limiter-algorithms';
import { HEADER_STYLES, type HeaderStyle } from './decision-headers';

/** A choice made for every operation, with exceptions per operation id: `default,op=value,...`. */
export interface PerOperation<T extends string> {
  default?: T;
  byOperation: Record<string, T>;
}

/** Parses `value` or `value,<op>=value,...` against the allowed values, naming the flag in its errors. */
function parsePerOperation<T extends string>(spec: string, allowed: readonly T[], flag: string, what: string): PerOperation<T> {
  const out: PerOperation<T> = { byOperation: {} };
  for (const part of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = part.lastIndexOf('=');
    const [op, name] = eq === -1 ? [undefined, part] : [part.slice(0, eq), part.slice(eq + 1)];
    if (!(allowed as readonly string[]).includes(name))
      throw new Error(`${flag}: unknown ${what} "${name}" in "${part}"; expected one of ${allowed.join(', ')}`);
    if (op === undefined) out.default = name as T;
    else out.byOperation[op] = name as T;
  }
  return out;
}

/** Parses `--limiter fixed` or `--limiter orders.create=token-bucket,catalog.search=sliding-log`. */
export const parseLimiterSpec = (spec: string): PerOperation<LimiterAlgorithm> =>
  parsePerOperation(spec, LIMITER_ALGORITHMS, '--limiter', 'algorithm');

/** `--headers x-ratelimit` or per operation: `x-ratelimit,orders.create=ietf,invoices.details=none`. */
export const parseHeaderSpec = (spec: string): PerOperation<HeaderStyle> =>
  parsePerOperation(spec, HEADER_STYLES, '--headers', 'header style');

import { parseDuration } from '../../common/k6-duration';

/** A run's length (`--duration`, `--max-duration`) in k6's syntax, in milliseconds: more than zero. */
export function runLengthMs(d: string): number {
  const ms = parseDuration(d);
  if (!ms) throw new Error(`invalid duration "${d}": expected a length above zero in k6 syntax such as 500ms, 90s, 1m30s, 30m`);
  return ms;
}

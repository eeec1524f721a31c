/**
 * k6's duration syntax: `500ms`, `30s`, `1m30s`, `1.5h`, in milliseconds. Never laxer than k6, which reads a
 * duration with Go's time.ParseDuration (plus `d` for days): this reading refuses a sign, `ns`, `us`, `d`, a
 * bare number, a fraction without digits on both sides of its point and more than Go's duration can hold.
 * Pure: the load scripts (k6 bundles), `npm run load` and the k6 test double read durations with it.
 */

/** The longest duration Go holds: 2^63 - 1 nanoseconds, in milliseconds. */
const MAX_DURATION_MS = 9_223_372_036_854;

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A k6 duration in milliseconds (zero allowed: `0s`); throws, saying the syntax, on anything else. */
export function parseDuration(text: string): number {
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
  let total = 0;
  let matched = '';
  for (let m = re.exec(text); m; m = re.exec(text)) {
    total += Number(m[1]) * (UNIT_MS[m[2] as string] as number);
    matched += m[0];
  }
  if (!matched || matched !== text || total > MAX_DURATION_MS)
    throw new Error(`invalid duration "${text}": expected k6 syntax such as 500ms, 90s, 1m30s, 30m`);
  return total;
}

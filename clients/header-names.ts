/**
 * Header names as k6 gives them to scripts. Pure (no node:*, no k6/*): shared by the load probes and
 * the k6 test double, so both read headers by the same rule.
 */

/** Go's CanonicalMIMEHeaderKey: the header names k6 gives scripts (x-ratelimit-limit → X-Ratelimit-Limit). */
export function canonicalHeader(name: string): string {
  return name
    .toLowerCase()
    .split('-')
    .map((p) => (p ? (p[0] as string).toUpperCase() + p.slice(1) : p))
    .join('-');
}

/**
 * Greps of the certification's grouped checks, as their titles and tags write them: a grep that selects the
 * group test of an environment (or of both) and, inside it, the checks with the given tags (an operation, or the check itself)
 * (contracts/outcomes/run-grep.ts).
 */

type Environment = 'production' | 'sandbox';

/** The checks tagged with one of `tags` (without the @: an operation id, or a check's own tag) in the group whose test title contains `group`. */
function groupedChecksOf(group: string, tags: readonly string[], environment?: Environment): string {
  const ids = tags.map((id) => id.replace(/[.]/g, '\\.')).join('|');
  return `${group}.*${environment ? `\\(${environment}\\).*` : ''}@(${ids})( |$)`;
}

/** The valid-call checks of these operations (contracts/operations.spec.ts). */
export const validCallsOf = (operations: readonly string[], environment?: Environment): string =>
  groupedChecksOf('valid call of each operation', operations, environment);

/** The paging checks of these searches (contracts/paging.spec.ts). */
export const pagingOf = (operations: readonly string[], environment?: Environment): string =>
  groupedChecksOf('page each search as published', operations, environment);

/** The filter checks of these searches (contracts/searches.spec.ts). */
export const filtersOf = (operations: readonly string[], environment?: Environment): string =>
  groupedChecksOf('each search filtered by its documented filters', operations, environment);

/** The read-back checks of these creates (contracts/operations.spec.ts). */
export const createReadBacksOf = (creates: readonly string[], environment?: Environment): string =>
  groupedChecksOf('what each create made', creates, environment);

/** The read-back checks of these writes (contracts/writes.spec.ts). */
export const writeReadBacksOf = (writes: readonly string[], environment?: Environment): string =>
  groupedChecksOf('read each write back', writes, environment);

/** The checks of the header and form refusals with these tags, without their @ (contracts/request-headers.spec.ts). */
export const headerRefusalsOf = (tags: readonly string[], environment?: Environment): string =>
  groupedChecksOf('headers or forms its document refuses', tags, environment);

/** The header-step checks of these operations (contracts/header-steps.spec.ts). */
export const headerStepsOf = (operations: readonly string[], environment?: Environment): string =>
  groupedChecksOf('by one per call of each operation', operations, environment);

/** The checks spending these operations' buckets (contracts/bucket-spend.spec.ts). */
export const bucketSpendsOf = (operations: readonly string[], environment?: Environment): string =>
  groupedChecksOf('spend every bucket once', operations, environment);

/** The checks spending these write operations' buckets (contracts/bucket-spend.spec.ts, PROBE_WRITE_LIMITS). */
export const writeBucketSpendsOf = (operations: readonly string[], environment?: Environment): string =>
  groupedChecksOf("spend every write operation's bucket once", operations, environment);

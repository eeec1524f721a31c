/**
 * Which operation a check that holds its bucket calls (session/bucket-locks.ts): every other call of it waits
 * meanwhile, so where it can, not a search the other checks find their ids with (catalogue idSources).
 */
import { idSources, type Operation } from '../../catalogue';

const ID_SEARCHES: ReadonlySet<string> = new Set(Object.values(idSources).map((s) => s.from));

/** Of `candidates`, the first that no check finds ids with; else the first. */
export const operationToHold = (candidates: readonly Operation[]): Operation | undefined =>
  candidates.find((o) => !ID_SEARCHES.has(o.id)) ?? candidates[0];

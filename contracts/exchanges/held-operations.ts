/**
 * Which operation a check that holds its bucket calls (session/bucket-locks.ts): every other call of it waits
 * meanwhile, so the one that holds up the fewest checks, and one the target's data cannot leave out.
 */
import { idSources, type Operation } from '../../catalogue';

/**
 * Of `candidates`: one that needs no ids (a deployment's data may hold none), whose answers the fewest of
 * `operations` find their ids in (catalogue idSources: their searches would wait for the hold); else the first.
 */
export function operationToHold(candidates: readonly Operation[], operations: readonly Operation[]): Operation | undefined {
  const dependants = (op: Operation) => operations.filter((o) => o.needs.some((n) => idSources[n.id].from === op.id)).length;
  const free = candidates.filter((o) => o.needs.length === 0).map((o) => ({ o, n: dependants(o) }));
  return free.sort((a, b) => a.n - b.n)[0]?.o ?? candidates[0];
}

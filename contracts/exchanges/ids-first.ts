/**
 * Ids found before a group of checks holds buckets: a check holding a search's bucket to count its calls lets its
 * own worker's calls through (session/bucket-locks.ts), so a search finding an id for another check of the group
 * meanwhile would land among the counted calls. Found first, each id is then read from the resolver's cache.
 */
import type { EnvironmentName, Operation } from '../../catalogue';
import type { Session } from '../session/session';

/** Finds the ids `ops` need in `env`; one that cannot be found is left to its check, which is not run with the reason. */
export async function findIdsFirst(session: Session, env: EnvironmentName, ops: readonly Operation[]): Promise<void> {
  for (const name of new Set(ops.flatMap((o) => o.needs.map((n) => n.id)))) await session.idResolver?.resolve(name, env);
}

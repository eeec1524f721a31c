/**
 * A bucket spent once serves every check that judges its spending: the exhaustion of an operation in an environment,
 * with its default request, is kept in the run's folder, and a later check of the run (in any worker) judges that
 * exhaustion instead of spending the bucket again while its 429 still holds, that is up to the Reset the 429
 * advertised less SERVES_UNTIL_RESET_MS. Spending it again then would wait out the rest of that window. The kept
 * answers carry no credential.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RESET_PRECISION_MS, type EnvironmentName } from '../../catalogue';
import type { ApiResponse } from '../../clients/http';
import { resetAtMs } from '../judge/rate-limit-sequence';
import { RUN_DIR_ENV } from '../plan/run-budget';
import { bucketKey } from '../session/bucket-locks';

/** What of an exhaustion (bucket-exhaustion.ts) is kept: its answers, each without the request's credential. */
interface Spending {
  first: ApiResponse;
  refused: ApiResponse | undefined;
  seq: ApiResponse[];
}

/** Time a check judging a kept exhaustion keeps to call the spent bucket again within its window. */
const SERVES_UNTIL_RESET_MS = 5_000 + RESET_PRECISION_MS;

/** A kept exhaustion and the check that spent it. */
export interface KeptExhaustion<E extends Spending> {
  ex: E;
  spentBy: string;
}

/** Where the exhaustion of `operation` in `env` on `target` is kept (undefined: one process, nothing shared). */
function fileOf(target: string, operation: string, env: EnvironmentName): string | undefined {
  const dir = process.env[RUN_DIR_ENV];
  return dir ? join(dir, 'spent', `${bucketKey(target, operation)}_${env}.json`) : undefined;
}

/** The answer without the request's credential: its headers are kept but Authorization. */
function withoutCredential(res: ApiResponse): ApiResponse {
  if (!res.request) return res;
  const headers = Object.fromEntries(Object.entries(res.request.headers).filter(([k]) => k.toLowerCase() !== 'authorization'));
  return { ...res, request: { ...res.request, headers } };
}

/** Keeps a spent bucket's exhaustion for the run's later checks; one that ended without a 429 is not kept. */
export function keepExhaustion<E extends Spending>(target: string, operation: string, env: EnvironmentName, ex: E, spentBy: string): void {
  const file = fileOf(target, operation, env);
  if (!file || !ex.refused) return;
  const kept: KeptExhaustion<E> = {
    ex: {
      ...ex,
      first: withoutCredential(ex.first),
      refused: withoutCredential(ex.refused),
      seq: ex.seq.map(withoutCredential),
    },
    spentBy,
  };
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify(kept));
}

/** The kept exhaustion of the bucket, while its 429 still holds. */
export function keptExhaustion<E extends Spending>(
  target: string,
  operation: string,
  env: EnvironmentName,
  nowMs = Date.now(),
): KeptExhaustion<E> | undefined {
  const file = fileOf(target, operation, env);
  if (!file) return undefined;
  let kept: KeptExhaustion<E>;
  try {
    kept = JSON.parse(readFileSync(file, 'utf8')) as KeptExhaustion<E>;
  } catch {
    return undefined;
  }
  const until = kept.ex.refused && resetAtMs(kept.ex.refused);
  return until !== undefined && until - SERVES_UNTIL_RESET_MS > nowMs ? kept : undefined;
}

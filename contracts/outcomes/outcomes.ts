/**
 * A check's outcomes besides passing and failing, and its labels. Not judged (the run exits 99): blocked
 * by the environment, or not run on this target. Neither (the run may still exit 0): out of the scope the
 * user chose, with the setting that brings it in, or not applicable to this target. Each with its reason,
 * never a silent skip; the operation, environment and check labels the summary reads.
 */
import { test as base, type TestInfo } from '@playwright/test';
import type { EnvironmentName, Operation } from '../../catalogue';
import { writeBlocked, writeLabels, writeNotRun, writeOutOfScope, type OutOfScope } from '../record/annotations';
import { CheckSkipped, currentCheck } from './check-groups';

/** Marks the running test (or grouped check) as blocked by the environment (not a contract failure) and stops it. */
export function blocked(info: TestInfo, reason: string): never {
  if (currentCheck()) throw new CheckSkipped('blocked', reason);
  writeBlocked(info, reason);
  base.skip(true, `blocked by environment: ${reason}`);
  throw new Error('unreachable');
}

/** Marks a check as not run on this target, with the reason (never a silent skip). */
export function notRun(info: TestInfo, reason: string): never {
  if (currentCheck()) throw new CheckSkipped('not-run', reason);
  writeNotRun(info, reason);
  base.skip(true, `not run: ${reason}`);
  throw new Error('unreachable');
}

/** Marks a check as out of the run's scope (ENVIRONMENTS, FAMILIES, PROBE_LIMITS, credentials, writes): `bringsIn` says which setting brings it in. */
export function outOfScope(info: TestInfo, scope: OutOfScope): never {
  if (currentCheck()) throw new CheckSkipped('out-of-scope', scope.reason, scope.bringsIn);
  writeOutOfScope(info, scope);
  base.skip(true, `out of scope: ${scope.reason} (${scope.bringsIn} brings it in)`);
  throw new Error('unreachable');
}

/** Labels the running test with the operation, environment and check, for the summary. */
export function label(info: TestInfo, op: Pick<Operation, 'id'> | string, env: EnvironmentName | undefined, check: string): void {
  const grouped = currentCheck();
  if (grouped) {
    grouped.operation = typeof op === 'string' ? op : op.id;
    if (env) grouped.environment = env;
    grouped.check = check;
    return;
  }
  writeLabels(info, { operation: typeof op === 'string' ? op : op.id, ...(env ? { environment: env } : {}), check });
}

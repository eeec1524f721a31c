/**
 * "One rate-limit scheme" for both families: X-RateLimit-Reset is read in one unit (epoch seconds or seconds to
 * wait: which one is the finding ratelimit.reset-unit) on every operation of the target. The first answer the run
 * reads fixes the target's unit, shared by the run's workers through a file in the run's folder (the first writer
 * wins; one process without a run folder keeps it itself); every other answer is judged against it, so a mix
 * fails at the places whose unit differs, whichever place was read first.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectResetUnit, intHeader, type EnvironmentName, type ResetUnit } from '../../catalogue';
import type { ApiResponse } from '../../clients/http';
import { RUN_DIR_ENV } from '../plan/run-budget';

/** A Reset unit read, and where. */
export interface UnitRead {
  unit: Exclude<ResetUnit, 'unknown'>;
  operation: string;
  environment: EnvironmentName;
  correlationId: string;
}

/** The failure's first line. */
export const ONE_SCHEME = 'Broken fact: both families share one rate-limit scheme: X-RateLimit-Reset is read in one unit everywhere';

const local = new Map<string, UnitRead>();

/** The first unit the run read on `target` (this one when it is the first). */
function firstRead(target: string, read: UnitRead): UnitRead {
  const dir = process.env[RUN_DIR_ENV];
  const key = `reset-unit-${target.replace(/[^\w.-]/g, '_')}.json`;
  if (!dir) {
    if (!local.has(key)) local.set(key, read);
    return local.get(key) as UnitRead;
  }
  const file = join(dir, key);
  try {
    writeFileSync(file, JSON.stringify(read), { flag: 'wx' });
    return read;
  } catch {
    return JSON.parse(readFileSync(file, 'utf8')) as UnitRead;
  }
}

/**
 * Where the answers of `operation` read Reset in another unit than the run's first answer (or than each other):
 * null when every unit is the run's, or when no answer carries an integer Reset (judged by the header checks).
 */
export function otherResetUnit(
  target: string,
  operation: string,
  environment: EnvironmentName,
  answers: readonly ApiResponse[],
): string | null {
  const reads = answers.flatMap((r) => {
    const unit = detectResetUnit(intHeader(r.headers['x-ratelimit-reset']));
    return unit === 'unknown' ? [] : [{ unit, operation, environment, correlationId: r.correlationId }];
  });
  const [own] = reads;
  if (!own) return null;
  const first = firstRead(target, own);
  const other = reads.find((r) => r.unit !== first.unit);
  return other
    ? `X-RateLimit-Reset of ${operation} (${environment}) reads as ${describe(other.unit)} (IM-CorrelationID ${other.correlationId}); ` +
        `of ${first.operation} (${first.environment}) as ${describe(first.unit)} (IM-CorrelationID ${first.correlationId})`
    : null;
}

const describe = (unit: UnitRead['unit']): string => (unit === 'epoch' ? 'an epoch time' : 'seconds to wait');

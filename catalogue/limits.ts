import { DEFINITIONS, isOperationId, type Operation } from './operations';

export { RATE_LIMIT_HEADERS } from './rules';

/** Spec, Limits 2: all GET calls, 60 calls per minute per endpoint. */
export const GET_LIMIT_PER_MINUTE = 60;
/** The spec's refresh period for GET calls. */
export const DEFAULT_WINDOW_MS = 60_000;

/** ASSUMPTION: a non-GET operation outside the catalogue (e.g. a configured vendor POST). */
export const DEFAULT_WRITE_LIMIT = 150;
/** ASSUMPTION: the token endpoints are limited per app like any POST; the spec is silent. */
export const TOKEN_LIMIT = 500;

export type LimitsProfile = Readonly<Record<string, number>>;

/** The per-window limit of an operation: its definition's (GET 60, spec), overridden by the profile. */
export function limitFor(op: Pick<Operation, 'id' | 'method'> & { limit?: number }, overrides: LimitsProfile = {}): number {
  const o = overrides[op.id];
  if (o !== undefined) return o;
  if (op.limit !== undefined) return op.limit;
  if (isOperationId(op.id)) return DEFINITIONS[op.id].limit;
  return op.method === 'GET' ? GET_LIMIT_PER_MINUTE : DEFAULT_WRITE_LIMIT;
}

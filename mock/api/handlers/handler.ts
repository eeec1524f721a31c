/** What a handler of a catalogued operation is given and returns, and the outcomes the handlers build. */
import type { OperationId } from '../../../catalogue';
import type { ErrorCodeName } from '../../ground/errors';
import type { Query } from '../query';
import { MockState } from '../state';

export interface CallContext {
  params: Record<string, string>;
  query: Query;
  body: Record<string, unknown>;
  nowMs: number;
  state: MockState;
  /** Records a webhook event and pushes it to `targeturl` when the call gave one. */
  receiveEvent: (event: Record<string, unknown>) => void;
}

export type Outcome =
  | { status: number; body: unknown; immutable?: boolean }
  /** An answer already serialised (assembled from the cached serialisations of the seeded world). */
  | { status: number; json: string }
  | { error: ErrorCodeName; message?: string; field?: string | null };

export type Handler = (c: CallContext) => Outcome;

/** A group of handlers, by operation id. */
export type HandlerTable = Partial<Record<OperationId, Handler>>;

export const ok = (body: unknown): Outcome => ({ status: 200, body });
export const created = (body: unknown): Outcome => ({ status: 201, body });
/** An answer of the seeded world, never mutated: its serialisation can be cached. */
export const fixed = (body: unknown): Outcome => ({ status: 200, body, immutable: true });
export const notFound = (what: string): Outcome => ({ error: 'notFound', message: `${what} not found` });
export const { eq, has } = MockState.matches;
export type Rec = Record<string, unknown>;
export const arrayOf = (v: unknown): Rec[] => (Array.isArray(v) ? (v.filter((x) => x && typeof x === 'object') as Rec[]) : []);

/** The view of a record of the seeded world, made once per record (such records never change). */
export function cachedView(state: MockState, record: object, make: () => object): object {
  let v = state.fixed.get(record);
  if (!v) {
    v = make();
    state.fixed.set(record, v);
  }
  return v;
}

/**
 * A lookup by the key a call asked for: the answer about the record found, or 404 with the coded
 * notFound error naming what was looked for and the key (`Quote Q-1 not found`).
 */
export function lookUp<T>(records: ReadonlyMap<string, T>, key: string | undefined, what: string, answer: (record: T) => Outcome): Outcome {
  const record = key === undefined ? undefined : records.get(key);
  return record ? answer(record) : notFound(`${what} ${key}`);
}

/** The answer about a record of the seeded world: its view, made once and cached (`fixed`). */
export const cachedDetails =
  <T extends object>(state: MockState, make: (record: T) => object) =>
  (record: T): Outcome =>
    fixed(cachedView(state, record, () => make(record)));

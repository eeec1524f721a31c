/**
 * Ids from the target itself. An operation that needs an id (details, modify, cancel, validate,
 * quote to order...) gets it, in this order, from:
 *   1. KNOWN_IDS (configuration);
 *   2. the same target's search or list answer, chained in the run (the catalogue's `idSources`
 *      table: which operation yields the id, in which list, at which field);
 *   3. a resource the run created itself (writes allowed), when the catalogue names its creator.
 * Without one, the check is not run with the reason; never a failure, never a pass. Where each id
 * came from is recorded on the check (annotation `id-source`) for the summary and the evidence.
 * The contract suite and `npm run load` (on a target other than the embedded mock) share it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { idSources, type EnvironmentName, type IdName, type Operation } from '../catalogue';
import { TargetFailure, type ApiResponse } from './http';

import type { ResolvedId } from '../reporting/report-shapes';

export type { ResolvedId } from '../reporting/report-shapes';

/** Why no id could be found (the check's not-run reason). */
export interface MissingId {
  name: string;
  reason: string;
}

/** "orderNumber 20-12345 (listed by orders.search)" */
export function describeId(id: ResolvedId): string {
  const how =
    id.origin === 'configured'
      ? 'configured in KNOWN_IDS'
      : id.origin === 'discovered'
        ? `listed by ${id.from}`
        : id.origin === 'created'
          ? `created by ${id.from}`
          : 'given by the check';
  return `${id.name} ${id.value} (${how}, ${id.environment})`;
}

/** The value at `path` of a JSON answer, or undefined. */
export function valueAt(json: unknown, path: readonly (string | number)[]): unknown {
  let v: unknown = json;
  for (const k of path) v = v && typeof v === 'object' ? (v as Record<string | number, unknown>)[k] : undefined;
  return v;
}

/** What to do when no id is found: give one in KNOWN_IDS. */
export const setKnownIds = (name: string): string => `set KNOWN_IDS, e.g. KNOWN_IDS='{"${name}":"<a ${name} of the target>"}'`;

const asId = (v: unknown): string | undefined =>
  (typeof v === 'string' && v.length > 0) || (typeof v === 'number' && Number.isFinite(v)) ? String(v) : undefined;

/** The id at `field` of the first entry of list `items` that has one (`''`: the answer is the list). */
export function idFromList(json: unknown, items: string, field: string): string | undefined {
  const list = items ? valueAt(json, [items]) : json;
  if (!Array.isArray(list)) return undefined;
  for (const entry of list) {
    const v = asId(valueAt(entry, [field]));
    if (v !== undefined) return v;
  }
  return undefined;
}

export interface IdResolverDeps {
  configured: Partial<Record<IdName, string>>;
  operations: readonly Operation[];
  allowWrites: boolean;
  /** Calls an operation with a valid request (the suite's Session.call). */
  call(op: Operation, env: EnvironmentName, body?: unknown): Promise<ApiResponse>;
  validBody(op: Operation): unknown;
  /** Where discoveries are shared by the run's workers (per project and environment); none: this worker only. */
  cacheFile?: (env: EnvironmentName) => string | undefined;
}

type IdOutcome = ResolvedId | MissingId;
const isResolved = (o: IdOutcome): o is ResolvedId => 'value' in o;

/** Resolves ids per environment; answers are kept for the run so each search is sent once. */
export class IdResolver {
  private readonly memo = new Map<string, Promise<IdOutcome>>();
  /** One answer per listing operation and environment: dealId and dealVendor come from the same deals.search. */
  private readonly listings = new Map<string, Promise<ApiResponse>>();

  constructor(private readonly deps: IdResolverDeps) {}

  /** Forgets the answers kept in this worker (the run's shared file is the caller's to change). */
  forget(): void {
    this.memo.clear();
    this.listings.clear();
  }

  async resolve(name: IdName, env: EnvironmentName): Promise<ResolvedId | MissingId> {
    const key = `${env}|${name}`;
    let p = this.memo.get(key);
    if (!p) {
      p = this.find(name, env);
      this.memo.set(key, p);
      // A stopped check (budget spent) must not stop the next one's search.
      p.catch(() => this.memo.delete(key));
    }
    return p;
  }

  static isResolved = isResolved;

  private async find(name: IdName, env: EnvironmentName): Promise<IdOutcome> {
    const configured = this.deps.configured[name];
    if (configured !== undefined) return { name, value: configured, origin: 'configured', from: 'KNOWN_IDS', environment: env };
    const shared = this.readShared(env)[name];
    if (shared) return shared;
    const source = idSources[name];
    const searchOp = this.deps.operations.find((o) => o.id === source.from);
    let reason: string;
    if (!searchOp) reason = `no ${name}: ${source.from}, which lists them, is not selected (FAMILIES); ${setKnownIds(name)}`;
    else {
      let res: ApiResponse;
      try {
        res = await this.listing(searchOp, env);
      } catch (e) {
        // A search the target could not answer leaves the id unknown: the search's own check reports it.
        if (!(e instanceof TargetFailure) || e.kind === 'budget') throw e;
        return { name, reason: `no ${name} found by ${source.from} (${e.message}); ${setKnownIds(name)}` };
      }
      const value = res.status < 300 ? idFromList(res.json, source.items, source.field) : undefined;
      if (value !== undefined) {
        const found: ResolvedId = { name, value, origin: 'discovered', from: source.from, environment: env };
        this.writeShared(env, name, found);
        return found;
      }
      reason =
        res.status < 300
          ? `no ${name} found by ${source.from} (no entry of ${source.items || 'the answer'} with ${source.field}); ${setKnownIds(name)}`
          : `no ${name} found by ${source.from} (it answered ${res.status}); ${setKnownIds(name)}`;
    }
    const created = await this.create(name, env);
    if (created) return created;
    const missing: MissingId = { name, reason };
    this.writeShared(env, name, missing);
    return missing;
  }

  private listing(op: Operation, env: EnvironmentName): Promise<ApiResponse> {
    const key = `${env}|${op.id}`;
    let p = this.listings.get(key);
    if (!p) {
      p = this.deps.call(op, env);
      this.listings.set(key, p);
      p.catch(() => this.listings.delete(key));
    }
    return p;
  }

  /** An id from a resource the run creates (writes allowed); kept by this worker only (the mock's state is per worker). */
  private async create(name: IdName, env: EnvironmentName): Promise<ResolvedId | undefined> {
    const by = idSources[name].createdBy;
    const op = by && this.deps.allowWrites ? this.deps.operations.find((o) => o.id === by.from) : undefined;
    if (!by || !op) return undefined;
    const res = await this.deps.call(op, env, this.deps.validBody(op));
    const value = res.status < 300 ? asId(valueAt(res.json, by.path)) : undefined;
    return value === undefined ? undefined : { name, value, origin: 'created', from: by.from, environment: env };
  }

  private readShared(env: EnvironmentName): Record<string, IdOutcome> {
    const file = this.deps.cacheFile?.(env);
    if (!file || !existsSync(file)) return {};
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as Record<string, IdOutcome>;
    } catch {
      return {};
    }
  }

  private writeShared(env: EnvironmentName, name: string, outcome: IdOutcome): void {
    const file = this.deps.cacheFile?.(env);
    if (!file) return;
    writeFileSync(file, JSON.stringify({ ...this.readShared(env), [name]: outcome }));
  }
}

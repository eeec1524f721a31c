/**
 * The request plan of a certification run, made before its first request (as `npm run load` plans its
 * budget before k6 starts). Each test declares with itself what it sends at most on a conforming target and
 * the unit a partial run keeps or leaves out whole (`planned`); the plan adds what the session spends around
 * the checks (tokens, id searches) and a margin for calls re-sent after a 429 or a refused token. A budget
 * below the plan refuses the run (exit 2) unless the run is partial: then whole units, in catalogue order,
 * are kept while they fit and the rest is not run ("budget"), the same units on every run.
 */
import { idSources, type FactPlace, type Operation } from '../../catalogue';
import { factsAnnotation } from '../record/fact-declarations';
import type { HarnessConfig } from '../../config/harness-config';
import { ANNOTATION, type OutOfScope, type PlannedRequests } from '../record/annotations';

/** What one check plans: its unit, the requests it sends at most, and why it is left out when it is. */
export interface CheckPlan extends PlannedRequests {
  outOfScope?: OutOfScope | undefined;
  notApplicable?: string | undefined;
  /** The (fact, place) pairs of the ledger the check judges (outcomes/fact-ledger.ts). */
  facts?: readonly FactPlace[] | undefined;
}

type Annotation = { type: string; description: string };

/** The share of the planned requests kept for calls re-sent after a 429 the check did not ask for or a refused token. */
export const RESEND_MARGIN = 0.05;

/** The annotations that declare a check's plan: what it sends, or (out of scope, not applicable) nothing and why. */
export function planAnnotations(plan: CheckPlan): Annotation[] {
  const left = plan.outOfScope ?? plan.notApplicable;
  const sent: PlannedRequests = {
    unit: plan.unit,
    requests: left ? 0 : plan.requests,
    ...(plan.check !== undefined ? { check: plan.check } : {}),
    ...(plan.tags ? { tags: plan.tags } : {}),
    ...(plan.spends && !left ? { spends: plan.spends } : {}),
  };
  const annotations: Annotation[] = [{ type: ANNOTATION.plannedRequests, description: JSON.stringify(sent) }];
  if (plan.facts?.length) annotations.push(factsAnnotation(plan.check, plan.facts));
  if (plan.outOfScope) annotations.push({ type: ANNOTATION.outOfScope, description: JSON.stringify(plan.outOfScope) });
  else if (plan.notApplicable) annotations.push({ type: ANNOTATION.notApplicable, description: plan.notApplicable });
  return annotations;
}

/** A test's details with its plan: `test(title, planned({ unit, requests }, { tag }), body)`. */
export function planned<D extends object>(plan: CheckPlan, details?: D): D & { annotation: Annotation[] } {
  return { ...(details ?? ({} as D)), annotation: planAnnotations(plan) };
}

/** The run's plan, written by the plan reporter before the first request and read by every worker. */
export interface RequestPlan {
  /** Requests the checks send at most. */
  checks: number;
  /** Token requests: one per worker, family and environment. */
  tokens: number;
  /** Searches (and, where writes are allowed, creates) that find the ids the checks need, per worker and environment. */
  idSearches: number;
  /** RESEND_MARGIN of the above. */
  margin: number;
  total: number;
  /** The budget the run draws on: REQUEST_BUDGET, or the plan's total when it is not set. */
  budget: number | null;
  /** In a partial run, the units left out and what each needed. */
  leftOut: PlannedRequests[];
}

/** Requests the session spends around the checks, by the configuration and the workers. */
export function sessionRequests(
  cfg: HarnessConfig,
  operations: readonly Operation[],
  workers: number,
): { tokens: number; idSearches: number } {
  const families = cfg.families.filter((f) => cfg.credentials[f]);
  const tokens = workers * families.length * cfg.environments.length;
  const searches = new Set<string>();
  let creates = 0;
  for (const name of new Set(operations.flatMap((o) => o.needs.map((n) => n.id)))) {
    if (cfg.knownIds[name] !== undefined) continue;
    const source = idSources[name];
    if (operations.some((o) => o.id === source.from)) searches.add(source.from);
    if (source.createdBy && cfg.allowWrites) creates += 1;
  }
  return { tokens, idSearches: workers * cfg.environments.length * (searches.size + creates) };
}

/** The order a partial run keeps units in: check families (tokens first) before operations, operations in catalogue order. */
export function unitOrder(units: Iterable<string>, operations: readonly Operation[]): string[] {
  const rank = (u: string): number => {
    const i = operations.findIndex((o) => o.id === u);
    return i < 0 ? -1 : i;
  };
  return [...new Set(units)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** What the checks plan, summed per unit. */
export function requestsPerUnit(tests: readonly (readonly PlannedRequests[])[]): Map<string, number> {
  const perUnit = new Map<string, number>();
  for (const p of tests.flat()) perUnit.set(p.unit, (perUnit.get(p.unit) ?? 0) + p.requests);
  return perUnit;
}

/**
 * The run's plan from what its tests declare and what the session spends; `budget` undefined: the plan's
 * own total. Partial: the units that do not fit in order are left out (each with its need).
 */
export function planRun(
  perUnit: ReadonlyMap<string, number>,
  session: { tokens: number; idSearches: number },
  order: readonly string[],
  budget: number | undefined,
  partial: boolean,
): RequestPlan {
  const checks = [...perUnit.values()].reduce((a, b) => a + b, 0);
  const margin = Math.ceil((checks + session.tokens + session.idSearches) * RESEND_MARGIN);
  const total = checks + session.tokens + session.idSearches + margin;
  const leftOut: PlannedRequests[] = [];
  if (partial && budget !== undefined && Number.isFinite(budget) && budget < total) {
    let left = budget - (total - checks);
    for (const unit of order) {
      const requests = perUnit.get(unit) ?? 0;
      if (requests <= left && !leftOut.length) left -= requests;
      else if (requests > 0) leftOut.push({ unit, requests });
    }
  }
  return { ...session, checks, margin, total, budget: budget === undefined ? total : Number.isFinite(budget) ? budget : null, leftOut };
}

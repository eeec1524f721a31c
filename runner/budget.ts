/**
 * A run's request budget, planned before k6 starts: what the plan needs (a limit probe: each operation's limit
 * plus two, load/lib/limit-analysis.ts) against `--budget`, less what the id search spent. Short, a run is refused with
 * the number needed, unless it was asked to be partial: then the operations the budget does not cover are left
 * out, each "not run: budget", and the run ends with exit 99 as for operations without ids.
 */
import { limitFor, type Operation } from '../catalogue';
import { limitProbeRequests } from '../load/lib/limit-analysis';
import type { NotRun } from '../load/plan/run-plan';
import { DEFAULT_BUDGET, type LoadOptions } from './load-options';

/** Requests a step's run of one operation needs at most, by its limit; undefined: the step spends no budget. */
export type RequestsPerOperation = (limit: number) => number;

/** The limit probe's need per operation (probe-limits). */
export const limitProbeNeed: RequestsPerOperation = limitProbeRequests;

/** Requests the operations need, by the limits the run gives them. */
export function requestsNeeded(ops: readonly Operation[], limits: Record<string, number>, need: RequestsPerOperation): number {
  return ops.reduce((sum, op) => sum + need(limitFor(op, limits)), 0);
}

/**
 * The run's budget: --budget, else DEFAULT_BUDGET, or on the embedded mock what the plan needs when that is more
 * (the embedded mock spends no one's quota: its default run is the whole plan).
 */
export function budgetOf(o: Pick<LoadOptions, 'budget'>, isMock: boolean, needed: number): number {
  return o.budget ?? (isMock ? Math.max(DEFAULT_BUDGET, needed) : DEFAULT_BUDGET);
}

/** The budget's verdict on a run: enough, refused (exit 2, with what to pass), or partial (the operations left out). */
export type BudgetVerdict = { kind: 'enough' } | { kind: 'refused'; message: string } | { kind: 'partial'; notRun: NotRun[] };

/**
 * Compares what the operations need with what is left of the budget (`spent`: the id search's requests).
 * Partial: the operations are kept in their order while they fit, the rest is left out with its need.
 */
export function checkBudget(
  name: string,
  run: { ops: readonly Operation[]; limits: Record<string, number>; budget: number; spent: number; partial: boolean },
  need: RequestsPerOperation,
): BudgetVerdict {
  const needed = requestsNeeded(run.ops, run.limits, need);
  const left = run.budget - run.spent;
  if (needed <= left) return { kind: 'enough' };
  const spent = run.spent ? `, plus the ${run.spent} the id search spent` : '';
  if (!run.partial)
    return {
      kind: 'refused',
      message: `${name} needs ${needed} requests for its ${run.ops.length} operations (each one's limit plus two${spent}), more than --budget ${run.budget}${run.spent ? ` leaves (${left})` : ''}: pass --budget ${needed + run.spent} to run them all, or --partial to run those the budget covers (the others not run, exit 99)`,
    };
  const notRun: NotRun[] = [];
  let remaining = left;
  for (const op of run.ops) {
    const n = need(limitFor(op, run.limits));
    if (n <= remaining && !notRun.length) remaining -= n;
    else
      notRun.push({
        id: op.id,
        reason: `budget: its probe needs ${n} requests (its limit plus two), beyond what --budget ${run.budget} leaves after the operations before it`,
      });
  }
  return { kind: 'partial', notRun };
}

/** A run on a target other than the embedded mock: the ids of its data, and the quota their search spent. */
import { DEFAULT_WINDOW_MS, RESET_MARGIN_MS, type Operation } from '../catalogue';
import type { Plan } from '../load/plan/run-plan';
import { longestWaitMs } from '../load/plan/probe-plan';
import { resolveTargetIds, type TargetIds } from './target-ids';
import { NOT_JUDGED } from '../clients/exit-codes';
import { writesAllowed } from './plan';
import type { LoadOptions } from './load-options';

/**
 * The ids of a run on a target other than the embedded mock (runner/target-ids.ts), each said as found, with
 * the calls that found them; each operation left out is said on stderr with its reason.
 */
export async function idsOnTarget(
  o: LoadOptions,
  run: { baseUrl: string; ops: Operation[]; budget: number },
  say: (line: string) => void,
): Promise<TargetIds> {
  const { baseUrl, ops } = run;
  const t = await resolveTargetIds({
    baseUrl,
    environment: o.environment,
    ops,
    allowWrites: writesAllowed(o, false),
    budget: run.budget,
    seed: o.seed,
    deployment: o.deployment,
    maxWaitMs: longestWaitMs({ windowMs: DEFAULT_WINDOW_MS, ...(o.probeWaitMs !== undefined ? { probeWaitMs: o.probeWaitMs } : {}) }),
    say,
  });
  if (t.requests) say(`load: ${t.requests} requests sent to find ids (token requests included), counted in --budget`);
  for (const n of t.notRun) console.error(`load: ${n.id} not run: ${n.reason}`);
  return t;
}

/**
 * When the id search called an operation the plan runs too (a listing), that operation's bucket is no longer
 * full and a probe of it would read a smaller limit: when its quota is back (the latest advertised reset, or
 * a window from now without one).
 */
export function quotaBackAt(plan: Plan, t: TargetIds | undefined, nowMs: number): { atMs: number; ids: string[] } | undefined {
  const planned = new Set(plan.operations.map((op) => op.id));
  const called = (t?.spent ?? []).filter((s) => planned.has(s.id));
  if (!called.length) return undefined;
  const atMs = Math.max(...called.map((s) => s.resetAtMs ?? nowMs + plan.windowMs)) + RESET_MARGIN_MS;
  return { atMs, ids: called.map((s) => s.id) };
}

/**
 * How long a run waits for the quota its id search spent, and what it says: until the advertised reset, at most the
 * longest wait for a reopening (`--probe-wait-ms`, else 3 windows); none when the reset has passed.
 */
export function quotaWait(
  back: { atMs: number; ids: string[] },
  plan: Pick<Plan, 'probeWaitMs' | 'windowMs'>,
  nowMs: number,
): { waitMs: number; line: string } | undefined {
  const untilMs = back.atMs - nowMs;
  if (untilMs <= 0) return undefined;
  const capMs = longestWaitMs(plan);
  const waitMs = Math.min(untilMs, capMs);
  const capped =
    waitMs < untilMs
      ? ` (the reset is ${(untilMs / 1000).toFixed(1)} s away, past the ${(capMs / 1000).toFixed(1)} s a run waits: a first reading may be a call or two short; set KNOWN_IDS to spare the search)`
      : '';
  return {
    waitMs,
    line: `load: the id search called ${back.ids.join(', ')}, which this run probes: waiting ${(waitMs / 1000).toFixed(1)} s for the advertised reset, so each probe starts from a full bucket${capped}`,
  };
}

/** False, said on stderr, when every selected operation was left out. */
export function leftToRun(ops: Operation[], t: TargetIds): boolean {
  if (t.notRun.length < ops.length) return true;
  console.error(
    `load: no operation left to run: each of the ${ops.length} selected operations needs an id the target did not give (reasons above); set KNOWN_IDS or select others with --ops; exit ${NOT_JUDGED}`,
  );
  return false;
}

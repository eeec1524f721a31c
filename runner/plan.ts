/** The run plan the k6 scripts read (PLAN): the operations, their requests and limits, from the catalogue and the fixtures. */
import { allOperations, familyBase, fillPath, limitFor, type EnvironmentName, type Operation } from '../catalogue';
import { knownIds, requestFor, world } from '../fixtures';
import type { DeploymentSettings } from '../config/harness-config';
import { signatureHeaders } from '../clients/webhook-signature';
import { DEMO_RESELLER, DEMO_VENDOR } from '../catalogue/apps';
import { DEFAULT_WINDOW_MS } from '../catalogue';
import type { NotRun, Plan, PlannedOperation } from '../load/plan/run-plan';
import type { TargetIds } from './target-ids';
import type { LoadOptions } from './load-options';

/** Seeded random limits per operation, independent of the order of the list (mulberry32 of seed and id). */
export function randomLimits(ops: readonly Operation[], seed: number, min = 3, max = 12): Record<string, number> {
  const draw = (id: string) => {
    let h = seed >>> 0;
    for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 2654435761) >>> 0;
    let t = (h + 0x6d2b79f5) >>> 0;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Object.fromEntries(ops.map((o) => [o.id, min + Math.floor(draw(o.id) * (max - min + 1))]));
}

/**
 * The ids an operation's requests use. A DELETE ends its resource's life (orders.cancel cancels the
 * order that orders.modify changes), so in a plan that runs both, the DELETE gets the next order.
 */
function idsFor(op: Operation, seed: number): Record<string, string> {
  const ids = knownIds(seed);
  const next = world(seed).orders[1];
  return op.method === 'DELETE' && next && op.pathParams.includes('orderNumber') ? { ...ids, orderNumber: next.ingramOrderNumber } : ids;
}

export function buildPlan(o: {
  baseUrl: string;
  environment: EnvironmentName;
  windowMs: number;
  ops: Operation[];
  limits: Record<string, number>;
  outDir: string;
  budget: number;
  seed: number;
  fraction?: number;
  duration?: string;
  /** Ids found on a target other than the embedded mock (runner/target-ids.ts); default the mock's seeded ids. */
  targetIds?: TargetIds;
  /** Operations the budget leaves out (a partial run): listed in notRun after those without ids. */
  budgetNotRun?: readonly NotRun[];
  /** The IM-* headers every request carries and the secret webhook events are signed with. */
  deployment: Pick<DeploymentSettings, 'imHeaders' | 'webhookSecret'>;
}): Plan {
  const im = o.deployment.imHeaders;
  const { webhookSecret } = o.deployment;
  // Operations left out (no id of the target's data for them, or beyond the budget) are not planned: the plan
  // lists them in notRun.
  const notRun = [...(o.targetIds?.notRun ?? []), ...(o.budgetNotRun ?? [])];
  const leftOut = new Set(notRun.map((n) => n.id));
  const planned = o.ops.filter((op) => !leftOut.has(op.id));
  const operations: PlannedOperation[] = planned.map((op) => {
    const ids = o.targetIds ? (o.targetIds.ids.get(op.id) ?? {}) : idsFor(op, o.seed);
    const parts = requestFor(op, o.seed, 0, ids);
    const required = Object.fromEntries(op.requiredHeaders.filter((h) => im[h] !== undefined).map((h) => [h, im[h] as string]));
    return {
      id: op.id,
      family: op.family,
      method: op.method,
      pathTemplate: op.path,
      path: `${familyBase(op.family, o.environment)}${fillPath(op.path, { ...ids, ...parts.params })}`,
      query: new URLSearchParams(parts.query).toString(),
      // Webhook calls carry x-hub-signature over their fixed event (the plan holds the signature, never the secret).
      headers: { ...required, ...parts.headers, ...(op.webhook ? signatureHeaders(parts.body, webhookSecret) : {}) },
      body: parts.body === undefined ? (op.jsonBody ? '{}' : null) : JSON.stringify(parts.body),
      catalogueLimit: limitFor(op, o.limits),
    };
  });
  return {
    baseUrl: o.baseUrl,
    environment: o.environment,
    windowMs: o.windowMs,
    outDir: o.outDir,
    budget: o.budget,
    operations,
    ...(notRun.length ? { notRun } : {}),
    ...(o.fraction !== undefined ? { fraction: o.fraction } : {}),
    ...(o.duration !== undefined ? { duration: o.duration } : {}),
  };
}

/** Write operations (create, modify, cancel) run on the embedded mock only, unless --reads-only. */
export const writesAllowed = (o: LoadOptions, isMock: boolean): boolean => isMock && !o.readsOnly;

export function selectOperations(o: LoadOptions, isMock: boolean): Operation[] {
  const all = allOperations();
  // The ids were checked as --ops was read (scripts/load.ts): each is a catalogued operation.
  const ops = o.ops
    ? all.filter((x) => o.ops?.includes(x.id)).sort((a, b) => (o.ops ?? []).indexOf(a.id) - (o.ops ?? []).indexOf(b.id))
    : all;
  return writesAllowed(o, isMock) ? ops : ops.filter((x) => x.readOnly);
}

/** What a run's plan is built from besides the options: its budget (what the id search left) and what it leaves out. */
export interface PlanInputs {
  limits: Record<string, number>;
  budget: number;
  windowMs?: number;
  targetIds?: TargetIds;
  budgetNotRun?: readonly NotRun[];
}

export function planFor(o: LoadOptions, baseUrl: string, ops: Operation[], run: PlanInputs): Plan {
  const { targetIds } = run;
  return buildPlan({
    baseUrl,
    environment: o.environment,
    windowMs: run.windowMs ?? DEFAULT_WINDOW_MS,
    ops,
    limits: run.limits,
    outDir: o.reportsDir,
    // The requests that found the ids were drawn from the same budget.
    budget: run.budget - (targetIds?.requests ?? 0),
    seed: o.seed,
    deployment: o.deployment,
    ...(targetIds ? { targetIds } : {}),
    ...(run.budgetNotRun?.length ? { budgetNotRun: run.budgetNotRun } : {}),
    ...(o.fraction !== undefined ? { fraction: o.fraction } : {}),
    ...(o.duration !== undefined ? { duration: o.duration } : {}),
  });
}

/** The embedded mock's demo apps, as the credentials k6 reads. */
export function mockCredentials(): NodeJS.ProcessEnv {
  return {
    RESELLER_CLIENT_ID: DEMO_RESELLER.clientId,
    RESELLER_CLIENT_SECRET: DEMO_RESELLER.clientSecret,
    VENDOR_CLIENT_ID: DEMO_VENDOR.clientId,
    VENDOR_CLIENT_SECRET: DEMO_VENDOR.clientSecret,
  };
}

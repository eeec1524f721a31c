/**
 * A k6 command's run: preflight (no request, no process), the target's ids, the embedded mock in its own
 * process, the bundles, the plan, k6, and the exit code.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Operation } from '../catalogue';
import { ConfigError } from '../config/read-config';
import { spawnMock, type MockProcessOptions } from './mock-process';
import type { NotRun, Plan } from '../load/plan/run-plan';
import { segmentDirName } from '../load/plan/segment';
import { buildLoadScripts, bundleDir } from './bundles';
import { findK6, k6Args, k6Environment, K6_HELP, runK6 } from './k6-process';
import type { K6Outcome } from './outcome';
import { concludeK6Command } from './load-github-output';
import { mockCredentials, planFor, randomLimits, selectOperations } from './plan';
import { idsOnTarget, leftToRun, quotaBackAt, quotaWait } from './remote';
import type { TargetIds } from './target-ids';
import { COMMANDS, NOTHING_JUDGED, type K6Step } from './steps';
import type { LoadOptions } from './load-options';
import { budgetOf, checkBudget, requestsNeeded } from './budget';
import { NOT_JUDGED, USAGE_ERROR } from '../clients/exit-codes';

/** A command that ends before k6 starts (refused, or nothing left to run): its exit code and why, or what to do. */
export interface CommandRefusal {
  exitCode: number;
  message: string;
}

/** Where and with what a k6 command runs, once its inputs are checked (preflight). */
export interface K6Plan {
  isMock: boolean;
  k6: string;
  /** The remote target's base URL; undefined for the embedded mock (known once it listens). */
  remoteBaseUrl: string | undefined;
  bundleDir: string;
  bundle: string;
}

/**
 * Checks a k6 command's inputs before anything starts (no request, no process): confirmations for
 * quota and production, k6 itself, the base URL, durations, the bundle, the OpenAPI document. A
 * refusal (exit 2; 3 without k6), or the plan.
 */
export async function preflight(
  name: string,
  step: K6Step,
  o: LoadOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<K6Plan | CommandRefusal> {
  const isMock = o.target === 'mock';
  const unconfirmed = isMock ? undefined : unconfirmedRefusal(name, step, o);
  if (unconfirmed) return unconfirmed;
  const k6 = findK6(env);
  if (!k6) return k6Missing(env);
  const remoteBaseUrl = o.target === 'sandbox' ? o.deployment.baseUrl : isMock ? undefined : o.target;
  if (!isMock && !remoteBaseUrl) return { exitCode: 2, message: '--target sandbox needs BASE_URL (the base URL of the deployment)' };
  const dir = bundleDir(o.bundleDir);
  const bundle = join(dir, `${step.bundle}.js`);
  if (o.skipBuild && !existsSync(bundle))
    return { exitCode: 2, message: `--skip-build, but ${bundle} does not exist; run \`npm run load:build -- --bundle-dir ${dir}\` first` };
  const openapi = o.openapi ? await openApiRefusal(o.openapi, env) : undefined;
  if (openapi) return openapi;
  return { isMock, k6, remoteBaseUrl, bundleDir: dir, bundle };
}

/** A remote target's confirmations: --allow-quota-spend for a step that spends quota, --allow-production for production. */
function unconfirmedRefusal(name: string, step: K6Step, o: LoadOptions): CommandRefusal | undefined {
  if (step.spendsQuota && !o.allowQuotaSpend)
    return {
      exitCode: 2,
      message: `${name} spends the app quota of every probed operation for a window; pass --allow-quota-spend to confirm`,
    };
  if ((o.target === 'production' || o.environment === 'production') && !o.allowProduction)
    return { exitCode: 2, message: 'a production target needs --allow-production' };
  return undefined;
}

/** No k6 to run (exit 3): how to get it, and why K6_BIN was not taken when it is set. */
function k6Missing(env: NodeJS.ProcessEnv): CommandRefusal {
  return { exitCode: 3, message: `${K6_HELP}${env.K6_BIN ? `\n  K6_BIN is "${env.K6_BIN}", which is not an executable file.` : ''}` };
}

/** An OpenAPI document (--openapi or OPENAPI) that cannot be read or is not one, said as the user named it. */
async function openApiRefusal(file: string, env: NodeJS.ProcessEnv): Promise<CommandRefusal | undefined> {
  try {
    const { checkOpenApiFile } = await import('../config/config-files');
    await checkOpenApiFile(file, file === env.OPENAPI ? 'OPENAPI' : '--openapi');
    return undefined;
  } catch (e) {
    if (e instanceof ConfigError) return { exitCode: 2, message: e.message };
    throw e;
  }
}

/** Waits for the quota the id search spent on operations this probe runs (none for other steps). */
async function waitForSpentQuota(step: K6Step, plan: Plan, targetIds: TargetIds | undefined): Promise<void> {
  const back = step.spendsQuota ? quotaBackAt(plan, targetIds, Date.now()) : undefined;
  const wait = back ? quotaWait(back, plan, Date.now()) : undefined;
  if (!wait) return;
  console.log(wait.line);
  await new Promise((r) => setTimeout(r, wait.waitMs));
}

/** The embedded mock's process: the run's window and limits, its control routes, --openapi and --mock-args. */
function mockProcessOptions(o: LoadOptions, limits: Record<string, number>): MockProcessOptions {
  return {
    windowMs: o.windowMs,
    // The plan's seed: the ids the plan takes are the data the mock serves.
    seed: o.seed,
    limits,
    control: true,
    ...(o.openapi ? { openapi: o.openapi } : {}),
    ...(o.mockArgs.length ? { extraArgs: o.mockArgs } : {}),
  };
}

/** The run plan before the target listens (its base URL is set once known): the step's extras and --refused-status added. */
function k6RunPlan(step: K6Step, o: LoadOptions, p: K6Plan, run: BudgetedRun): Plan {
  return {
    ...planFor(o, p.remoteBaseUrl ?? '', run.ops, { ...run, ...(p.isMock ? { windowMs: o.windowMs } : {}) }),
    ...(o.refusedStatuses ? { refusedStatuses: o.refusedStatuses } : {}),
    ...step.planExtras?.(o),
  };
}

/** What a run sends to, and how much: the operations, their limits, the budget, the ids found and what is left out. */
interface BudgetedRun {
  ops: Operation[];
  limits: Record<string, number>;
  budget: number;
  targetIds?: TargetIds;
  budgetNotRun?: NotRun[];
}

/** The budget's verdict said: the command's end (its exit code and why) when the run ends here, else what it leaves out. */
function budgetVerdict(name: string, step: K6Step, o: LoadOptions, run: BudgetedRun, spent: number): CommandRefusal | NotRun[] {
  if (!step.requestsPerOperation) return [];
  const kept = run.ops.filter((op) => !run.targetIds?.notRun.some((n) => n.id === op.id));
  const v = checkBudget(name, { ops: kept, limits: run.limits, budget: run.budget, spent, partial: o.partial }, step.requestsPerOperation);
  if (v.kind === 'refused') {
    console.error(`load: ${v.message}`);
    return { exitCode: USAGE_ERROR, message: v.message };
  }
  if (v.kind === 'enough') return [];
  for (const n of v.notRun) console.error(`load: ${n.id} not run: ${n.reason}`);
  if (v.notRun.length < kept.length) return v.notRun;
  const message = `no operation left to run: --budget ${run.budget} covers none of the ${kept.length} selected operations`;
  console.error(`load: ${message}; exit ${NOT_JUDGED}`);
  return { exitCode: NOT_JUDGED, message: `${message}\n${notRunReasons(v.notRun)}` };
}

/** Why no selected operation is left to run, one line each. */
const notRunReasons = (notRun: readonly NotRun[]): string => notRun.map((n) => `${n.id} not run: ${n.reason}`).join('\n');

/**
 * The operations, limits and budget of a run, the budget planned before any request: refused when short (exit
 * 2) unless --partial; on a target other than the embedded mock, the ids found (their search drawn from the
 * budget, then the budget checked again).
 */
async function budgetedRun(name: string, step: K6Step, o: LoadOptions, p: K6Plan): Promise<BudgetedRun | CommandRefusal> {
  const ops = selectOperations(o, p.isMock);
  const limits = o.randomLimits !== undefined ? randomLimits(ops, o.randomLimits) : {};
  const needed = step.requestsPerOperation ? requestsNeeded(ops, limits, step.requestsPerOperation) : 0;
  const run: BudgetedRun = { ops, limits, budget: budgetOf(o, p.isMock, needed) };
  const before = budgetVerdict(name, step, o, run, 0);
  if (!Array.isArray(before)) return before;
  if (p.isMock) return { ...run, budgetNotRun: before };
  // A partial run on another target is cut once the id search has spent its share.
  // Only on a target other than the embedded mock (its seeded ids are the plan's): before any k6 starts.
  const targetIds = await idsOnTarget(o, { baseUrl: p.remoteBaseUrl as string, ops, budget: run.budget }, (line) => console.log(line));
  if (!leftToRun(ops, targetIds)) return { exitCode: NOT_JUDGED, message: notRunReasons(targetIds.notRun) };
  const after = budgetVerdict(name, step, o, { ...run, targetIds }, targetIds.requests);
  return Array.isArray(after) ? { ...run, targetIds, budgetNotRun: after } : after;
}

/**
 * Where k6 writes: --summary-export's file (default <reports-dir>/<script>-k6-summary.json), and the step's
 * folder, its segment's in a distributed run (load/plan/run-plan.ts runnerPlan).
 */
function k6Outputs(step: K6Step, o: LoadOptions): { summaryExport: string; outDir: string } {
  const summaryExport = o.summaryExport ?? join(o.reportsDir, `${step.bundle}-k6-summary.json`);
  const segment = step.splitsBySegment ? (o.executionSegment ?? o.deployment.segment) : undefined;
  return { summaryExport, outDir: segment ? join(o.reportsDir, segmentDirName(segment)) : o.reportsDir };
}

/** The line said as k6 starts: the command, the target, the operations, the bundles and k6. */
function runLine(name: string, p: K6Plan, plan: Plan, seed: number, buildNote: string): string {
  const target = p.isMock ? `the embedded mock ${plan.baseUrl} (window ${plan.windowMs} ms, seed ${seed})` : plan.baseUrl;
  return `load: ${name} on ${target}, ${plan.operations.length} operations, ${buildNote}, k6 ${p.k6}`;
}

/** Builds the bundles (unless --skip-build), said as where they come from. */
async function bundlesNote(o: LoadOptions, p: K6Plan): Promise<string> {
  if (o.skipBuild) return `bundles from ${p.bundleDir}`;
  return `bundles built in ${(await buildLoadScripts(p.bundleDir)).ms.toFixed(0)} ms`;
}

/**
 * Runs a checked k6 command: finds the target's ids (remote targets), starts the embedded mock (in its own
 * process, listening while the bundles and the run plan are built), waits for spent quota, runs k6.
 */
async function runK6Plan(name: string, step: K6Step, o: LoadOptions, p: K6Plan): Promise<K6Outcome | CommandRefusal> {
  const run = await budgetedRun(name, step, o, p);
  if ('exitCode' in run) return run;
  const { targetIds } = run;
  mkdirSync(o.reportsDir, { recursive: true });
  const env = k6Environment(o);
  // The mock runs in its own process whatever runs k6 (k6 and its double may block their own thread);
  // it starts listening while the bundles and the plan are built.
  const starting = p.isMock ? spawnMock(mockProcessOptions(o, run.limits)) : undefined;
  starting?.catch(() => undefined); // awaited below; a failed start must not count as unhandled meanwhile
  try {
    const buildNote = await bundlesNote(o, p);
    const plan = k6RunPlan(step, o, p, run);
    step.preflight?.(plan, o);
    await waitForSpentQuota(step, plan, targetIds);
    const mock = await starting;
    if (mock) Object.assign(env, mockCredentials());
    plan.baseUrl = mock?.url ?? (p.remoteBaseUrl as string);
    // k6 run passes the system environment to __ENV; the plan holds no secrets.
    env.PLAN = JSON.stringify(plan);
    console.log(runLine(name, p, plan, o.seed, buildNote));
    const { summaryExport, outDir } = k6Outputs(step, o);
    // k6 writes into existing folders only: the segment's folder and --summary-export's are made before k6 starts.
    for (const d of [outDir, dirname(resolve(summaryExport))]) mkdirSync(d, { recursive: true });
    const startedMs = Date.now();
    const exitCode = await runK6(p.k6, k6Args(p.bundle, o, summaryExport), env, o.maxDurationMs);
    const after = step.after?.({ outDir, exitCode, startedMs }) ?? NOTHING_JUDGED;
    return { exitCode, wrote: after !== false, ...(after || NOTHING_JUDGED), notRun: plan.notRun ?? [], summaryExport };
  } finally {
    // Whatever failed, a mock that started is stopped.
    await (await starting?.catch(() => undefined))?.close();
  }
}

/** A k6 command: preflight, run, exit code. */
export async function runK6Step(name: string, step: K6Step, o: LoadOptions): Promise<number> {
  const p = await preflight(name, step, o);
  if ('exitCode' in p) {
    console.error(`load: ${p.message}`);
    return concludeK6Command(name, o, p);
  }
  return concludeK6Command(name, o, await runK6Plan(name, step, o, p));
}

/** Runs a `npm run load` command with its parsed options; resolves with the exit code. */
export async function runLoad(name: string, inputs: string[], o: LoadOptions): Promise<number> {
  const step = COMMANDS[name];
  if (!step) {
    console.error(`load: unknown command "${name}"; expected one of ${Object.keys(COMMANDS).join(', ')}`);
    return USAGE_ERROR;
  }
  return step.kind === 'own' ? step.run(inputs, o) : runK6Step(name, step, o);
}

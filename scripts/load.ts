/**
 * `npm run load -- <command> [options]`: builds the run plan from the catalogue and the fixtures,
 * starts the embedded mock in its own process for target mock, and runs the bundled k6 script with
 * k6 (K6_BIN or PATH), spawned asynchronously, with k6's own command line; the exit code is k6's
 * (99: thresholds crossed). Commands are entries of COMMANDS: a k6 script, or a step of our own.
 */
import { Command } from 'commander';
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { allOperations, familyBase, fillPath, limitFor, parseErrorStatuses, type EnvironmentName, type Operation } from '../catalogue';
import { knownIds, requestFor, world } from '../fixtures';
import { ConfigError, imHeadersFrom, webhookSecretFrom } from '../clients/config';
import { signatureHeaders } from '../clients/webhook-signature';
import { DEFAULT_APPS } from '../mock/apps';
import { spawnMock, type MockProcessOptions } from '../tools/mock-process';
import { buildLoadScripts, bundleDir, type LoadScript } from './load-build';
import { mergeManifests, segmentDirs, writeMerged } from './load-merge';
import { RESET_MARGIN_MS, resolveTargetIds, type TargetIds } from './load-ids';
import type { Plan, PlannedOperation } from '../load/scripts/common';
import { durationMs } from '../load/scripts/duration';
import { segmentDirName, shareOf } from '../load/scripts/segment';
import { longestWaitMs, writeNotices } from '../load/scripts/probe-plan';
import type { PacingPlan } from '../load/lib/pacer';
import { capacityPlan } from '../load/lib/capacity-plan';
import { formatRate, SHAPES } from '../load/lib/shapes';

export const K6_HELP = [
  'k6 was not found: set K6_BIN to the k6 binary or put k6 on PATH (k6 v0.46 or later, v1.x included).',
  '  Install: https://grafana.com/docs/k6/latest/set-up/install-k6/',
  '  Docker:  docker run --rm -i --network host -v "$PWD:/work" -w /work grafana/k6 run dist/load/<script>.js',
  '  GitHub Actions: grafana/setup-k6-action',
].join('\n');

/** The k6 executable: K6_BIN when set (it must exist and be executable), else `k6` on PATH. */
export function findK6(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const executable = (p: string) => {
    try {
      accessSync(p, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (env.K6_BIN) return executable(env.K6_BIN) ? env.K6_BIN : undefined;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    const p = join(dir, 'k6');
    if (dir && executable(p)) return p;
  }
  return undefined;
}

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
  /** Ids found on a target other than the embedded mock (scripts/load-ids.ts); default the mock's seeded ids. */
  targetIds?: TargetIds;
}): Plan {
  const im = imHeadersFrom(process.env);
  // WEBHOOK_SECRET, else the embedded mock's rule for the reseller app the run uses.
  const webhookSecret = webhookSecretFrom(
    process.env,
    process.env.RESELLER_CLIENT_ID ?? DEFAULT_APPS.find((a) => a.family === 'reseller')?.clientId,
  ) as string;
  // Operations left out (no id of the target's data for them) are not planned: the plan lists them in notRun.
  const leftOut = new Set(o.targetIds?.notRun.map((n) => n.id));
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
    ...(o.targetIds?.notRun.length ? { notRun: o.targetIds.notRun } : {}),
    ...(o.fraction !== undefined ? { fraction: o.fraction } : {}),
    ...(o.duration !== undefined ? { duration: o.duration } : {}),
  };
}

export interface LoadOptions {
  target: string;
  environment: EnvironmentName;
  ops?: string;
  windowMs: string;
  randomLimits?: string;
  budget: string;
  allowQuotaSpend: boolean;
  allowProduction: boolean;
  reportsDir: string;
  out: string[];
  summaryExport?: string;
  bundleDir?: string;
  skipBuild: boolean;
  openapi?: string;
  duration?: string;
  fraction?: string;
  executionSegment?: string;
  executionSegmentSequence?: string;
  mockArgs?: string;
  /** Only the read operations (a probe creates nothing). */
  readsOnly?: boolean;
  webDashboard: boolean;
  webDashboardExport?: string;
  maxDuration: string;
  probeWaitMs?: string;
  refusedStatus?: string;
  probeMaxMs?: string;
  manifest?: string;
}

/** What a k6 command needs after k6 ended: where this run wrote (its segment's folder in a distributed run). */
interface K6Context {
  outDir: string;
  exitCode: number;
  startedMs: number;
}

/** A file this run wrote (not one left by an earlier run), or undefined. */
function written(c: K6Context, name: string): string | undefined {
  const f = join(c.outDir, name);
  return existsSync(f) && statSync(f).mtimeMs >= c.startedMs - 1000 ? f : undefined;
}

interface K6Step {
  kind: 'k6';
  about: string;
  bundle: LoadScript;
  /** Probes spend a window of the app quota of every operation: refused on remote targets unless confirmed. */
  spendsQuota: boolean;
  /** Takes only its execution segment's operations and writes under <reports>/segment-<from>-<to> (runnerPlan). */
  splitsBySegment: boolean;
  /** Reads what the run wrote; false when the file it must write is missing (the command then fails). */
  after?: (c: K6Context) => boolean;
  /** What the step adds to the run plan. */
  planExtras?: (o: LoadOptions) => Partial<Plan>;
  /** Says what the run will do before k6 starts (and what in its plan would go wrong); may mark the plan as told. */
  preflight?: (plan: Plan, o: LoadOptions) => void;
}
interface OwnStep {
  kind: 'own';
  about: string;
  run(inputs: string[], o: LoadOptions): Promise<number>;
}

function printManifest(c: K6Context): boolean {
  const f = written(c, 'limits.json');
  if (!f) {
    console.error(
      `load: the probe wrote no manifest in ${c.outDir} (k6 exit ${c.exitCode}): no result for any operation; k6's messages above say why`,
    );
    return false;
  }
  const m = JSON.parse(readFileSync(f, 'utf8')) as { durationMs: number; requests: number };
  console.log(`load: manifest ${f} (${m.requests} requests in ${m.durationMs} ms)`);
  return true;
}

function printCapacity(c: K6Context): boolean {
  const f = written(c, 'capacity.json');
  if (!f) {
    console.error(`load: capacity wrote no result in ${c.outDir} (k6 exit ${c.exitCode}); k6's messages above say why`);
    return false;
  }
  const r = JSON.parse(readFileSync(f, 'utf8')) as { verdict: string; operations: { verdict: string }[] };
  const failed = r.operations.filter((o) => o.verdict !== 'passed').length;
  console.log(
    `load: capacity ${r.verdict}: ${r.operations.length - failed} of ${r.operations.length} operations within their thresholds; result ${f}, JUnit ${join(c.outDir, 'capacity-junit.xml')}`,
  );
  return true;
}

/** The capacity plan (load/lib/capacity-plan.ts, the one the k6 script runs), and each limit it would overrun. */
function printCapacityPlan(plan: Plan): void {
  const fraction = plan.fraction ?? SHAPES.average.fraction;
  const duration = plan.duration ?? SHAPES.average.duration;
  const c = capacityPlan(
    plan.operations.map((op) => ({ id: op.id, family: op.family, limit: op.catalogueLimit })),
    { windowMs: plan.windowMs, fraction, durationMs: durationMs(duration) },
  );
  const rates = c.operations.map((o) => o.perSecond);
  console.log(
    `load: capacity plan: ${c.operations.length} operations at ${fraction * 100} % of their limits per ${plan.windowMs} ms window for ${duration} (${formatRate(Math.min(...rates))} to ${formatRate(Math.max(...rates))}, exact: k6 rate per timeUnit); setup asks ${Object.keys(c.tokenCalls).length} token(s), one per family, on the token endpoint's own bucket`,
  );
  for (const w of c.warnings) console.error(`load: capacity plan over a limit: ${w}`);
}

/** Every `npm run load` command. A new k6 script is one entry here plus its name in LOAD_SCRIPTS. */
export const COMMANDS: Record<string, K6Step | OwnStep> = {
  'probe-limits': {
    kind: 'k6',
    bundle: 'probe-limits',
    spendsQuota: true,
    splitsBySegment: true,
    about: 'exhaust each bucket, record its limit',
    after: printManifest,
  },
  'probe-reset': {
    kind: 'k6',
    bundle: 'probe-reset',
    spendsQuota: true,
    splitsBySegment: true,
    about: 'identify each limiter (algorithm, burst, sustained rate, window, pacing); exit 99 for an operation without a result',
    after: printManifest,
    preflight: (plan, o) => {
      // The runner probes its segment's share of the operations (load/scripts/common.ts runnerPlan).
      const segment = o.executionSegment ?? process.env.LOAD_SEGMENT;
      for (const line of writeNotices({ ...plan, operations: shareOf(plan.operations, segment) })) console.log(`load: ${line}`);
      plan.writesAnnounced = true;
    },
    planExtras: (o) => ({
      ...(o.probeWaitMs !== undefined ? { probeWaitMs: Number(o.probeWaitMs) } : {}),
      ...(o.probeMaxMs !== undefined ? { probeMaxMs: Number(o.probeMaxMs) } : {}),
    }),
  },
  'verify-pacing': {
    kind: 'k6',
    bundle: 'verify-pacing',
    spendsQuota: true,
    splitsBySegment: false,
    about: 'run each operation at the pacing of the probe-reset manifest: 0 429s and >= 90 % of the measured rate, else exit 99',
    after: (c) => {
      const f = written(c, 'pacing.json');
      if (f) console.log(`load: pacing verdicts ${f}`);
      else console.error(`load: verify-pacing wrote no verdicts in ${c.outDir} (k6 exit ${c.exitCode}); k6's messages above say why`);
      return f !== undefined;
    },
    planExtras: (o) => ({ pacing: readPacing(o.manifest ?? join(o.reportsDir, 'limits.json')) }),
  },
  smoke: { kind: 'k6', bundle: 'smoke', spendsQuota: false, splitsBySegment: false, about: 'one valid call per operation' },
  capacity: {
    kind: 'k6',
    bundle: 'capacity',
    spendsQuota: false,
    splitsBySegment: false,
    about: 'arrival rate at a share of each limit, thresholds',
    after: printCapacity,
    preflight: printCapacityPlan,
  },
  plan: {
    kind: 'own',
    about: 'print the run plan (PLAN) for a remote target, e.g. for a k6-operator ConfigMap',
    async run(_inputs, o) {
      if (o.target === 'mock')
        throw new Error('plan is for a remote target: pass --target <url> (the embedded mock gets its plan at run time)');
      const baseUrl = o.target === 'sandbox' ? process.env.BASE_URL : o.target;
      if (!baseUrl) throw new Error('--target sandbox needs BASE_URL (the base URL of the deployment)');
      const ops = selectOperations(o, false);
      // stdout holds the plan alone: the search for ids speaks on stderr.
      const targetIds = await idsOnTarget(o, baseUrl, ops, (line) => console.error(line));
      if (!leftToRun(ops, targetIds)) return NOT_RUN;
      const plan = planFor(o, baseUrl, ops, {}, undefined, targetIds);
      const back = quotaBackAt(plan, targetIds, Date.now());
      if (back)
        console.error(
          `load: the id search called ${back.ids.join(', ')}, which the plan runs too: start a probe after ${new Date(back.atMs).toISOString()} (the advertised reset), so it starts from a full bucket`,
        );
      process.stdout.write(`${JSON.stringify(plan)}\n`);
      return targetIds.notRun.length ? NOT_RUN : 0;
    },
  },
  merge: {
    kind: 'own',
    about: 'merge the manifests of a distributed probe (runner folders segment-*)',
    async run(inputs, o) {
      const sources = inputs.length ? inputs : segmentDirs(o.reportsDir);
      const r = mergeManifests(sources);
      const file = writeMerged(r, o.reportsDir);
      console.log(`load: merged ${r.manifest.operations.length} operations from ${r.sources.length} runners into ${file}`);
      return 0;
    },
  },
};

/** The pacing of each fingerprinted operation of a probe-reset manifest. */
export function readPacing(file: string): Record<string, PacingPlan> {
  if (!existsSync(file))
    throw new Error(
      `verify-pacing needs a probe-reset manifest: ${file} does not exist (run \`npm run load -- probe-reset\` first, or pass --manifest <file>)`,
    );
  const m = JSON.parse(readFileSync(file, 'utf8')) as { operations: (Partial<PacingPlan> & { id: string })[] };
  const out: Record<string, PacingPlan> = {};
  for (const e of m.operations)
    if (e.pacing && e.algorithm)
      out[e.id] = {
        algorithm: e.algorithm,
        burst: e.burst ?? null,
        sustainedPerSecond: e.sustainedPerSecond ?? null,
        windowMs: e.windowMs ?? null,
        pacing: e.pacing,
      };
  return out;
}

/** A path given to --out (the reports directory before --reports-dir existed); k6 outputs look like `json=f`. */
const looksLikeDir = (v: string) => !v.includes('=') && /[/\\]|^\./.test(v);

/** k6's command line for one run. */
export function k6Args(bundle: string, o: LoadOptions, summaryExport: string): string[] {
  // --address '': no REST API, so runs at once do not contend for k6's default port 6565.
  const args = ['run', '--quiet', '--address', '', '--summary-export', summaryExport];
  for (const out of o.out) args.push('--out', out);
  if (o.executionSegment) args.push('--execution-segment', o.executionSegment);
  if (o.executionSegmentSequence) args.push('--execution-segment-sequence', o.executionSegmentSequence);
  args.push(bundle);
  return args;
}

/** Our exit code for a k6 run that ended with 0 but left no result file (a manifest, capacity.json). */
export const NO_RESULT = 4;

/**
 * Our exit code when a selected operation was left out of the run (no id of the target's data for it), or
 * none was left to run: 99, as for an operation that probe-reset could not read (an operation without a
 * result), whatever k6 ended with for the others (a k6 failure keeps k6's own code).
 */
export const NOT_RUN = 99;

/** k6's exit code for a run stopped from outside (ExternalAbort). */
const EXTERNAL_ABORT = 105;

/**
 * Runs k6 as a child process and resolves with its exit code; the event loop stays free meanwhile.
 * A run longer than maxMs is stopped (SIGTERM, then SIGKILL 10 s later) and ends with 105.
 */
export function runK6(bin: string, args: string[], env: NodeJS.ProcessEnv, maxMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: 'inherit', env });
    let timedOut = false;
    const stop = () => {
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      console.error(`load: k6 ran longer than ${maxMs / 1000} s (--max-duration); stopping it`);
      stop();
    }, maxMs);
    process.once('SIGTERM', stop);
    child.on('error', (e) => reject(new Error(`could not start k6 (${bin}): ${e.message}`)));
    child.on('exit', (code) => {
      clearTimeout(timer);
      process.off('SIGTERM', stop);
      resolve(timedOut ? EXTERNAL_ABORT : (code ?? EXTERNAL_ABORT));
    });
  });
}

/** Write operations (create, modify, cancel) run on the embedded mock only, unless --reads-only. */
const writesAllowed = (o: LoadOptions, isMock: boolean): boolean => isMock && !o.readsOnly;

function selectOperations(o: LoadOptions, isMock: boolean): Operation[] {
  const all = allOperations();
  const ops = o.ops
    ? o.ops.split(',').map((id) => {
        const op = all.find((x) => x.id === id.trim());
        if (!op) throw new Error(`unknown operation id "${id}"; expected one of ${all.map((x) => x.id).join(', ')}`);
        return op;
      })
    : all;
  return writesAllowed(o, isMock) ? ops : ops.filter((x) => x.readOnly);
}

/**
 * The ids of a run on a target other than the embedded mock (scripts/load-ids.ts), each said as found, with
 * the calls that found them; each operation left out is said on stderr with its reason.
 */
async function idsOnTarget(o: LoadOptions, baseUrl: string, ops: Operation[], say: (line: string) => void): Promise<TargetIds> {
  const t = await resolveTargetIds({
    baseUrl,
    environment: o.environment,
    ops,
    allowWrites: writesAllowed(o, false),
    budget: Number(o.budget),
    maxWaitMs: longestWaitMs({ windowMs: 60_000, ...(o.probeWaitMs !== undefined ? { probeWaitMs: Number(o.probeWaitMs) } : {}) }),
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
function quotaBackAt(plan: Plan, t: TargetIds | undefined, nowMs: number): { atMs: number; ids: string[] } | undefined {
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
function leftToRun(ops: Operation[], t: TargetIds): boolean {
  if (t.notRun.length < ops.length) return true;
  console.error(
    `load: no operation left to run: each of the ${ops.length} selected operations needs an id the target did not give (reasons above); set KNOWN_IDS or select others with --ops; exit ${NOT_RUN}`,
  );
  return false;
}

function planFor(
  o: LoadOptions,
  baseUrl: string,
  ops: Operation[],
  limits: Record<string, number>,
  windowMs = 60_000,
  targetIds?: TargetIds,
): Plan {
  return buildPlan({
    baseUrl,
    environment: o.environment,
    windowMs,
    ops,
    limits,
    outDir: o.reportsDir,
    // The requests that found the ids were drawn from the same budget.
    budget: Number(o.budget) - (targetIds?.requests ?? 0),
    seed: 1,
    ...(targetIds ? { targetIds } : {}),
    ...(o.fraction !== undefined ? { fraction: Number(o.fraction) } : {}),
    ...(o.duration !== undefined ? { duration: o.duration } : {}),
  });
}

/** A command refused before anything starts: its exit code and what to do. */
export interface Refusal {
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
): Promise<K6Plan | Refusal> {
  const isMock = o.target === 'mock';
  const unconfirmed = isMock ? undefined : unconfirmedRefusal(name, step, o);
  if (unconfirmed) return unconfirmed;
  const k6 = findK6(env);
  if (!k6) return k6Missing(env);
  const remoteBaseUrl = o.target === 'sandbox' ? env.BASE_URL : isMock ? undefined : o.target;
  if (!isMock && !remoteBaseUrl) return { exitCode: 2, message: '--target sandbox needs BASE_URL (the base URL of the deployment)' };
  if (o.duration) durationMs(o.duration);
  const dir = bundleDir(o.bundleDir);
  const bundle = join(dir, `${step.bundle}.js`);
  if (o.skipBuild && !existsSync(bundle))
    return { exitCode: 2, message: `--skip-build, but ${bundle} does not exist; run \`npm run load:build -- --bundle-dir ${dir}\` first` };
  const openapi = o.openapi ? await openApiRefusal(o.openapi, env) : undefined;
  if (openapi) return openapi;
  return { isMock, k6, remoteBaseUrl, bundleDir: dir, bundle };
}

/** A remote target's confirmations: --allow-quota-spend for a step that spends quota, --allow-production for production. */
function unconfirmedRefusal(name: string, step: K6Step, o: LoadOptions): Refusal | undefined {
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
function k6Missing(env: NodeJS.ProcessEnv): Refusal {
  return { exitCode: 3, message: `${K6_HELP}${env.K6_BIN ? `\n  K6_BIN is "${env.K6_BIN}", which is not an executable file.` : ''}` };
}

/** An OpenAPI document (--openapi or OPENAPI) that cannot be read or is not one, said as the user named it. */
async function openApiRefusal(file: string, env: NodeJS.ProcessEnv): Promise<Refusal | undefined> {
  try {
    const { checkOpenApiFile } = await import('../clients/config-files');
    await checkOpenApiFile(file, file === env.OPENAPI ? 'OPENAPI' : '--openapi');
    return undefined;
  } catch (e) {
    if (e instanceof ConfigError) return { exitCode: 2, message: e.message };
    throw e;
  }
}

/** The k6 environment: the system's, with the web dashboard options asked for. */
function k6Environment(o: LoadOptions, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  if (o.webDashboard || o.webDashboardExport) env.K6_WEB_DASHBOARD = 'true';
  if (o.webDashboardExport) env.K6_WEB_DASHBOARD_EXPORT = o.webDashboardExport;
  // Only the report asked for: no dashboard server, so k6 exits when the run ends (k6's advice for CI).
  if (o.webDashboardExport && !o.webDashboard && env.K6_WEB_DASHBOARD_PORT === undefined) env.K6_WEB_DASHBOARD_PORT = '-1';
  return env;
}

/** The embedded mock's demo apps, as the credentials k6 reads. */
export function mockCredentials(): NodeJS.ProcessEnv {
  const r = DEFAULT_APPS.find((a) => a.family === 'reseller');
  const v = DEFAULT_APPS.find((a) => a.family === 'vendor');
  return {
    RESELLER_CLIENT_ID: r?.clientId,
    RESELLER_CLIENT_SECRET: r?.clientSecret,
    VENDOR_CLIENT_ID: v?.clientId,
    VENDOR_CLIENT_SECRET: v?.clientSecret,
  };
}

/** How a k6 command ended: k6's code, whether the step found its result file, the operations left out. */
export interface K6Outcome {
  exitCode: number;
  wrote: boolean;
  notRun: readonly { id: string }[];
  summaryExport: string;
}

/**
 * Our exit code for a k6 command, with what it says on stderr: k6's own code, except NO_RESULT for a
 * run that ended with 0 without its result file, and NOT_RUN for a run that left selected operations out.
 */
export function exitCodeOf(name: string, r: K6Outcome, say: (line: string) => void = (l) => console.error(l)): number {
  if (r.exitCode === 99) say(`load: ${name}: k6 exit 99, thresholds crossed (see the table above and ${r.summaryExport})`);
  else if (r.exitCode !== 0) say(`load: ${name}: k6 exited with ${r.exitCode}`);
  // k6 ends with 0 when its summary could not be written; the command cannot, having no result.
  if (r.exitCode === 0 && !r.wrote) return NO_RESULT;
  if (!r.notRun.length) return r.exitCode;
  const code = r.exitCode === 0 ? NOT_RUN : r.exitCode;
  say(
    `load: ${name}: ${r.notRun.length} selected operation(s) not run, no id of the target's data for them: ${r.notRun.map((n) => n.id).join(', ')} (reasons above and in the result's notRun); exit ${code}`,
  );
  return code;
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
function mockProcessOptions(o: LoadOptions, windowMs: number, limits: Record<string, number>): MockProcessOptions {
  return {
    windowMs,
    limits,
    control: true,
    ...(o.openapi ? { openapi: o.openapi } : {}),
    ...(o.mockArgs ? { extraArgs: o.mockArgs.split(/\s+/).filter(Boolean) } : {}),
  };
}

/** The run plan before the target listens (its base URL is set once known): the step's extras and --refused-status added. */
function k6RunPlan(
  step: K6Step,
  o: LoadOptions,
  p: K6Plan,
  run: { ops: Operation[]; limits: Record<string, number>; windowMs: number; targetIds: TargetIds | undefined },
): Plan {
  return {
    ...planFor(o, p.remoteBaseUrl ?? '', run.ops, run.limits, p.isMock ? run.windowMs : 60_000, run.targetIds),
    ...(o.refusedStatus ? { refusedStatuses: parseErrorStatuses(o.refusedStatus, '--refused-status') } : {}),
    ...step.planExtras?.(o),
  };
}

/**
 * Where k6 writes: --summary-export's file (default <reports-dir>/<script>-k6-summary.json), and the step's
 * folder, its segment's in a distributed run (load/scripts/common.ts runnerPlan).
 */
function k6Outputs(step: K6Step, o: LoadOptions): { summaryExport: string; outDir: string } {
  const summaryExport = o.summaryExport ?? join(o.reportsDir, `${step.bundle}-k6-summary.json`);
  const segment = step.splitsBySegment ? (o.executionSegment ?? process.env.LOAD_SEGMENT) : undefined;
  return { summaryExport, outDir: segment ? join(o.reportsDir, segmentDirName(segment)) : o.reportsDir };
}

/** The line said as k6 starts: the command, the target, the operations, the bundles and k6. */
function runLine(name: string, p: K6Plan, plan: Plan, windowMs: number, buildNote: string): string {
  const target = p.isMock ? `the embedded mock ${plan.baseUrl} (window ${windowMs} ms)` : plan.baseUrl;
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
async function runK6Plan(name: string, step: K6Step, o: LoadOptions, p: K6Plan): Promise<K6Outcome | number> {
  const ops = selectOperations(o, p.isMock);
  const windowMs = Number(o.windowMs);
  const limits = o.randomLimits !== undefined ? randomLimits(ops, Number(o.randomLimits)) : {};
  // Only on a target other than the embedded mock (its seeded ids are the plan's): before any k6 starts.
  const targetIds = p.isMock ? undefined : await idsOnTarget(o, p.remoteBaseUrl as string, ops, (line) => console.log(line));
  if (targetIds && !leftToRun(ops, targetIds)) return NOT_RUN;
  mkdirSync(o.reportsDir, { recursive: true });
  const env = k6Environment(o);
  // The mock runs in its own process whatever runs k6 (k6 and its double may block their own thread);
  // it starts listening while the bundles and the plan are built.
  const starting = p.isMock ? spawnMock(mockProcessOptions(o, windowMs, limits)) : undefined;
  starting?.catch(() => undefined); // awaited below; a failed start must not count as unhandled meanwhile
  try {
    const buildNote = await bundlesNote(o, p);
    const plan = k6RunPlan(step, o, p, { ops, limits, windowMs, targetIds });
    step.preflight?.(plan, o);
    await waitForSpentQuota(step, plan, targetIds);
    const mock = await starting;
    if (mock) Object.assign(env, mockCredentials());
    plan.baseUrl = mock?.url ?? (p.remoteBaseUrl as string);
    // k6 run passes the system environment to __ENV; the plan holds no secrets.
    env.PLAN = JSON.stringify(plan);
    console.log(runLine(name, p, plan, windowMs, buildNote));
    const { summaryExport, outDir } = k6Outputs(step, o);
    // k6 writes into existing folders only: the segment's folder and --summary-export's are made before k6 starts.
    for (const d of [outDir, dirname(resolve(summaryExport))]) mkdirSync(d, { recursive: true });
    const startedMs = Date.now();
    const exitCode = await runK6(p.k6, k6Args(p.bundle, o, summaryExport), env, durationMs(o.maxDuration));
    const wrote = step.after?.({ outDir, exitCode, startedMs }) ?? true;
    return { exitCode, wrote, notRun: plan.notRun ?? [], summaryExport };
  } finally {
    // Whatever failed, a mock that started is stopped.
    await (await starting?.catch(() => undefined))?.close();
  }
}

/** A k6 command: preflight, run, exit code. */
async function runK6Step(name: string, step: K6Step, o: LoadOptions): Promise<number> {
  const p = await preflight(name, step, o);
  if ('exitCode' in p) {
    console.error(`load: ${p.message}`);
    return p.exitCode;
  }
  const outcome = await runK6Plan(name, step, o, p);
  return typeof outcome === 'number' ? outcome : exitCodeOf(name, outcome);
}

async function main(): Promise<number> {
  const names = Object.keys(COMMANDS);
  const program = new Command()
    .name('npm run load --')
    .argument('<command>', names.map((n) => `${n}: ${(COMMANDS[n] as K6Step | OwnStep).about}`).join('; '))
    .argument('[inputs...]', 'merge: runner folders (default <reports-dir>/segment-*)')
    .option('--target <target>', 'mock, sandbox (needs BASE_URL) or a base URL', 'mock')
    .option('--environment <env>', 'production or sandbox', 'production')
    .option('--ops <ids>', 'comma-separated operation ids (default: all; non-mock targets: read-only ones)')
    .option('--window-ms <n>', 'window of the embedded mock, ms (short windows compress time in tests)', '60000')
    .option('--random-limits <seed>', 'embedded mock: seeded random per-operation limits (3..12)')
    .option('--mock-args <args>', 'embedded mock: more `npm run mock` arguments, e.g. "--reset-unit seconds"')
    .option('--budget <n>', 'most requests a probe may send', '5000')
    .option('--duration <d>', 'capacity: duration per operation, k6 syntax (default 1m)')
    .option('--fraction <f>', 'capacity: share of each limit used as the arrival rate (default 0.5)')
    .option('--allow-quota-spend', 'allow probes against a non-mock target (they spend the app quota for a window)', false)
    .option('--allow-production', 'allow a production target', false)
    .option('--reports-dir <dir>', 'where manifests, results and JUnit files go', 'reports/load')
    .option(
      '--out <output>',
      'k6 output, passed to `k6 run --out` (repeatable), e.g. json=results.json, experimental-prometheus-rw',
      (v: string, a: string[]) => [...a, v],
      [] as string[],
    )
    .option('--summary-export <file>', "k6's --summary-export file (default <reports-dir>/<script>-k6-summary.json)")
    .option('--web-dashboard', "k6's web dashboard (K6_WEB_DASHBOARD=true; k6 v0.49+)", false)
    .option('--web-dashboard-export <file>', "k6's dashboard HTML report (K6_WEB_DASHBOARD_EXPORT; k6 v0.49+)")
    .option('--execution-segment <segment>', "k6's --execution-segment, e.g. 0:1/3 (probes take that share of the operations)")
    .option('--execution-segment-sequence <seq>', "k6's --execution-segment-sequence, e.g. 0,1/3,2/3,1")
    .option('--max-duration <d>', 'stop k6 after this long (exit 105)', '30m')
    .option('--refused-status <codes>', "statuses taken as refusals besides 429, e.g. 503 (nginx limit_req's default); comma-separated")
    .option('--probe-wait-ms <n>', 'probe-reset: longest wait for a bucket to reopen (default 3 windows, at least 5 s)')
    .option('--probe-max-ms <n>', 'probe-reset: longest fingerprint of one operation (default 25 windows)')
    .option('--reads-only', 'only the read operations (a probe of a create/modify/cancel operation creates resources)', false)
    .option('--manifest <file>', 'verify-pacing: the probe-reset manifest with the pacings (default <reports-dir>/limits.json)')
    .option('--bundle-dir <dir>', 'bundle directory (default LOAD_BUNDLE_DIR, else dist/load)')
    .option('--skip-build', 'use the bundles already in the bundle directory', false)
    .option('--openapi <file>', 'embedded mock: answer with bodies from this OpenAPI document (default: OPENAPI)', process.env.OPENAPI)
    .parse();
  const [name, ...inputs] = program.args as [string, ...string[]];
  const o = program.opts<LoadOptions>();
  const legacy = o.out.filter(looksLikeDir);
  if (legacy.length) {
    console.error(`load: --out ${legacy[0]} read as the reports directory; use --reports-dir (--out is k6's output now)`);
    o.reportsDir = legacy[legacy.length - 1] as string;
    o.out = o.out.filter((v) => !looksLikeDir(v));
  }
  const step = COMMANDS[name];
  if (!step) {
    console.error(`load: unknown command "${name}"; expected one of ${names.join(', ')}`);
    return 2;
  }
  return step.kind === 'own' ? step.run(inputs, o) : runK6Step(name, step, o);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main()
    .then((c) => process.exit(c))
    .catch((e: Error) => {
      console.error(`load: ${e.message}`);
      process.exit(1);
    });
}

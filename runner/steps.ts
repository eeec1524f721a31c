/**
 * Every `npm run load` command: a k6 script (what it spends, what it reads back after k6 ended), or a step of
 * our own (plan, merge).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Plan } from '../load/plan/run-plan';
import { runLengthMs } from '../load/plan/run-length';
import { shareOf } from '../load/plan/segment';
import { writeNotices } from '../load/plan/probe-plan';
import type { PacingPlan } from '../load/lib/pacer';
import { capacityPlan } from '../load/lib/capacity-plan';
import { closeCapacityContext, keepCapacitySamples, runCapacityComparison } from '../reporting/capacity-runs';
import { DEFAULT_PERF_THRESHOLD } from '../reporting/perf-compare';
import { formatRate, SHAPES } from '../load/lib/load-shapes';
import type { LoadScript } from './bundles';
import { mergeManifests, segmentDirs, writeMerged } from './merge';
import { NOT_JUDGED } from '../clients/exit-codes';
import { planFor, selectOperations } from './plan';
import { idsOnTarget, leftToRun, quotaBackAt } from './remote';
import type { LoadOptions } from './load-options';
import { budgetOf, limitProbeNeed, type RequestsPerOperation } from './budget';
import type { FingerprintManifestEntry } from '../load/shared/bucket-probe';
import { breachLines } from '../load/lib/limit-verdicts';
import type { CapacityRow } from '../reporting/capacity-section';
import type { OperationTable } from './outcome';
import { capacityTable, manifestTable } from './load-github-output';
import { redact } from '../clients/redact';

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

export interface K6Step {
  kind: 'k6';
  about: string;
  bundle: LoadScript;
  /** Probes spend a window of the app quota of every operation: refused on remote targets unless confirmed. */
  spendsQuota: boolean;
  /** Takes only its execution segment's operations and writes under <reports>/segment-<from>-<to> (runnerPlan). */
  splitsBySegment: boolean;
  /**
   * Reads what the run wrote; false when the file it must write is missing (the command then fails), else the
   * documented facts the run found broken (each a line naming the operation; the command then fails with exit 1)
   * and those it could not judge (exit 99).
   */
  after?: (c: K6Context) => false | Judgements;
  /** What the step adds to the run plan. */
  planExtras?: (o: LoadOptions) => Partial<Plan>;
  /** Says what the run will do before k6 starts (and what in its plan would go wrong); may mark the plan as told. */
  preflight?: (plan: Plan, o: LoadOptions) => void;
  /** Most requests the step sends to one operation, by its limit: the run's budget is planned with it (runner/budget.ts). */
  requestsPerOperation?: RequestsPerOperation;
}
export interface OwnStep {
  kind: 'own';
  about: string;
  run(inputs: string[], o: LoadOptions): Promise<number>;
}

/** The facts a run judged: each broken one, and each it could not judge, in a line naming the operation. */
export interface Judgements {
  broken: string[];
  notJudged: string[];
  /** The result per operation, for the step summary (runner/load-github-output.ts). */
  table?: OperationTable;
}

export const NOTHING_JUDGED: Judgements = { broken: [], notJudged: [] };

/** The probe's manifest: what it spent, and each operation's broken facts (its limit, its 429) with their evidence. */
function printManifest(c: K6Context): false | Judgements {
  const f = written(c, 'limits.json');
  if (!f) {
    console.error(
      `load: the probe wrote no manifest in ${c.outDir} (k6 exit ${c.exitCode}): no result for any operation; k6's messages above say why`,
    );
    return false;
  }
  const m = JSON.parse(readFileSync(f, 'utf8')) as { durationMs: number; requests: number; operations: FingerprintManifestEntry[] };
  console.log(`load: manifest ${f} (${m.requests} requests in ${m.durationMs} ms)`);
  const broken = m.operations.flatMap((e) => breachLines(e.id, e.limitVerdict ?? { breaches: [] }));
  for (const l of broken) console.error(redact(`load: FAILED: ${l}`));
  const notJudged = m.operations.flatMap((e) => (e.limitVerdict?.notJudged ?? []).map((l) => `${e.id}: ${l}`));
  return { broken, notJudged, table: manifestTable(m.operations) };
}

function printCapacity(c: K6Context): false | Judgements {
  const f = written(c, 'capacity.json');
  if (!f) {
    console.error(`load: capacity wrote no result in ${c.outDir} (k6 exit ${c.exitCode}); k6's messages above say why`);
    return false;
  }
  const r = JSON.parse(readFileSync(f, 'utf8')) as { verdict: string; operations: CapacityRow[] };
  const failed = r.operations.filter((o) => o.verdict !== 'passed').length;
  console.log(
    `load: capacity ${r.verdict}: ${r.operations.length - failed} of ${r.operations.length} operations within their thresholds; result ${f}, JUnit ${join(c.outDir, 'capacity-junit.xml')}`,
  );
  return { ...NOTHING_JUDGED, table: capacityTable(r.operations) };
}

/** The capacity plan (load/lib/capacity-plan.ts, the one the k6 script runs), and each limit it would overrun. */
function printCapacityPlan(plan: Plan): void {
  const fraction = plan.fraction ?? SHAPES.average.fraction;
  const duration = plan.duration ?? SHAPES.average.duration;
  const c = capacityPlan(
    plan.operations.map((op) => ({ id: op.id, family: op.family, limit: op.catalogueLimit })),
    { windowMs: plan.windowMs, fraction, durationMs: runLengthMs(duration) },
  );
  const rates = c.operations.map((o) => o.perSecond);
  console.log(
    `load: capacity plan: ${c.operations.length} operations at ${fraction * 100} % of their limits per ${plan.windowMs} ms window for ${duration} (${formatRate(Math.min(...rates))} to ${formatRate(Math.max(...rates))}, exact: k6 rate per timeUnit); setup asks ${Object.keys(c.tokenCalls).length} token(s), one per family, on the token endpoint's own bucket`,
  );
  for (const w of c.warnings) console.error(`load: capacity plan over a limit: ${w}`);
}

/** Says before k6 starts how many resources each write operation's probe may create; the k6 script then does not. */
function announceWrites(plan: Plan, o: LoadOptions, script: 'probe-reset' | 'probe-limits'): void {
  // The runner probes its segment's share of the operations (load/plan/run-plan.ts runnerPlan).
  const segment = o.executionSegment ?? o.deployment.segment;
  for (const line of writeNotices({ ...plan, operations: shareOf(plan.operations, segment) }, script)) console.log(`load: ${line}`);
  plan.writesAnnounced = true;
}

/** Every `npm run load` command. A new k6 script is one entry here plus its name in LOAD_SCRIPTS. */
export const COMMANDS: Record<string, K6Step | OwnStep> = {
  'probe-limits': {
    kind: 'k6',
    bundle: 'probe-limits',
    requestsPerOperation: limitProbeNeed,
    spendsQuota: true,
    splitsBySegment: true,
    preflight: (plan, o) => announceWrites(plan, o, 'probe-limits'),
    about:
      'exhaust each bucket, record its limit; exit 1 for an operation that refuses before its advertised limit, serves past it, or refuses with a 429 that is not the documented JSON error body',
    after: printManifest,
  },
  'probe-reset': {
    kind: 'k6',
    bundle: 'probe-reset',
    spendsQuota: true,
    splitsBySegment: true,
    about:
      'identify each limiter (algorithm, burst, sustained rate, window, pacing); exit 1 for a burst that is not the advertised limit or a 429 that is not the documented JSON error body, 99 for an operation without a result',
    after: printManifest,
    preflight: (plan, o) => announceWrites(plan, o, 'probe-reset'),
    planExtras: (o) => ({
      ...(o.probeWaitMs !== undefined ? { probeWaitMs: o.probeWaitMs } : {}),
      ...(o.probeMaxMs !== undefined ? { probeMaxMs: o.probeMaxMs } : {}),
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
      return f !== undefined && NOTHING_JUDGED;
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
    // Every request kept (k6's JSON output, gzip) with the run's context, for `npm run load -- compare`.
    after: (c) => (closeCapacityContext(c.outDir), printCapacity(c)),
    preflight: (plan, o) => (printCapacityPlan(plan), keepCapacitySamples(plan, o)),
  },
  compare: {
    kind: 'own',
    about:
      'compare two capacity runs: <baseline folder> [current folder, default --reports-dir]; exit 99 on a regression beyond --perf-threshold',
    run: (inputs, o) => runCapacityComparison(inputs, o.reportsDir, { threshold: o.perfThreshold ?? DEFAULT_PERF_THRESHOLD }),
  },
  plan: {
    kind: 'own',
    about: 'print the run plan (PLAN) for a remote target, e.g. for a k6-operator ConfigMap',
    async run(_inputs, o) {
      if (o.target === 'mock')
        throw new Error('plan is for a remote target: pass --target <url> (the embedded mock gets its plan at run time)');
      const baseUrl = o.target === 'sandbox' ? o.deployment.baseUrl : o.target;
      if (!baseUrl) throw new Error('--target sandbox needs BASE_URL (the base URL of the deployment)');
      const ops = selectOperations(o, false);
      // stdout holds the plan alone: the search for ids speaks on stderr.
      const budget = budgetOf(o, false, 0);
      const targetIds = await idsOnTarget(o, { baseUrl, ops, budget }, (line) => console.error(line));
      if (!leftToRun(ops, targetIds)) return NOT_JUDGED;
      const plan = planFor(o, baseUrl, ops, { limits: {}, budget, targetIds });
      const back = quotaBackAt(plan, targetIds, Date.now());
      if (back)
        console.error(
          `load: the id search called ${back.ids.join(', ')}, which the plan runs too: start a probe after ${new Date(back.atMs).toISOString()} (the advertised reset), so it starts from a full bucket`,
        );
      process.stdout.write(`${JSON.stringify(plan)}\n`);
      return targetIds.notRun.length ? NOT_JUDGED : 0;
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

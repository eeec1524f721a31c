/**
 * The certification summary as pure functions of the run's tests: their verdicts and the results their
 * checks recorded (annotations.ts) become reports/summary.json (its one-screen text: certify-summary-lines.ts).
 * The summary reporter does the reading and writing; nothing here touches files, the environment or the clock.
 */
import type { EnvironmentName, Operation } from '../../catalogue';
import type {
  CheckStatus,
  Finding,
  LeftOut,
  LeftOutKind,
  OperationResult,
  RequestsSummary,
  RunSummary,
  TestResult,
  Totals,
} from '../../reporting/report-shapes';
import { redact } from '../../clients/redact';
import type { ResolvedId } from '../../clients/ids';
import type { CallObservation, CheckResult, TestAnnotations } from '../record/annotations';
import { readAnnotations } from '../record/annotation-reader';
import { unitsOf, type RunEntry } from '../record/check-units';

export type { RunEntry } from '../record/check-units';
import { BUDGET_SPENT } from '../plan/run-budget';

export type { RequestsSummary } from '../../reporting/report-shapes';

/** Counts of one group (a spec file) for the on-screen table. */
export type GroupCounts = Required<Totals>;

/** The statuses that reach no verdict, by how much they weigh on a row: not judged over out of scope over not applicable. */
const UNJUDGED: readonly CheckStatus[] = ['blocked', 'skipped', 'out-of-scope', 'not-applicable'];

/** An operation's row's status: failed over blocked over passed; when no check passed, its weightiest unjudged status. */
function rowStatus(checks: Record<string, CheckStatus>): CheckStatus {
  const vals = Object.values(checks);
  if (vals.includes('failed')) return 'failed';
  if (vals.includes('blocked')) return 'blocked';
  if (vals.includes('passed')) return 'passed';
  return UNJUDGED.find((u) => vals.includes(u)) ?? 'skipped';
}

/** Folds one check's verdict (and what the test observed) into its operation's row. */
export function addCheck(
  row: OperationResult,
  unit: CheckResult & { check: string },
  observed: readonly CallObservation[],
  correlationIds: readonly string[],
): void {
  const prev = row.checks[unit.check];
  row.checks[unit.check] = prev === 'failed' || unit.status === 'failed' ? 'failed' : prev === 'passed' ? 'passed' : unit.status;
  for (const obs of observed) {
    if (obs.headers) row.headers = obs.headers;
    if (obs.fields) row.fields = obs.fields;
    if (obs.latencyMs !== undefined) row.latencyMs = [...(row.latencyMs ?? []), obs.latencyMs];
    if (obs.limit) row.advertisedLimit = Number(obs.limit);
  }
  if (unit.status === 'failed') {
    // The correlation ids of the check's last requests, to quote to the distributor's support.
    const last = correlationIds.length ? `\nLast requests: ${correlationIds.join('; ')}` : '';
    row.evidence = redact(`${(unit.error ?? '').slice(0, 1500)}${last}`).slice(0, 2000);
  }
  row.status = rowStatus(row.checks);
}

/** The kind of a check that reached no verdict, by its status. */
const LEFT_OUT_KIND: Partial<Record<CheckStatus, LeftOutKind>> = {
  'out-of-scope': 'out-of-scope',
  'not-applicable': 'not-applicable',
  blocked: 'blocked',
  skipped: 'not-run',
};

/** Counts a check without a verdict under its kind and reason (and what brings it in), in the run's order. */
function addLeftOut(leftOut: LeftOut[], kind: LeftOutKind, unit: CheckResult): void {
  const reason = unit.reason ?? 'no reason recorded';
  const same = leftOut.find((l) => l.kind === kind && l.reason === reason && l.bringsIn === unit.bringsIn);
  if (same) same.checks += 1;
  else leftOut.push({ kind, reason, ...(unit.bringsIn ? { bringsIn: unit.bringsIn } : {}), checks: 1 });
}

/** What the run's tests add up to, before the summary is assembled. */
export interface Collected {
  tests: TestResult[];
  rows: OperationResult[];
  groups: Map<string, GroupCounts>;
  findings: Finding[];
  timings: Record<string, number>;
  ids: ResolvedId[];
  leftOutByBudget: number;
  /** The checks without a verdict, by kind and reason, in the run's order. */
  leftOut: LeftOut[];
  /** The most calls a worker sent at once, and the round trips its tests reported (ms). */
  pace: { atOnce: number; rtts: number[]; unexpected429s: number };
  bodies: { validated: number; failed: number };
}

const emptyGroup = (): GroupCounts => ({ passed: 0, failed: 0, blocked: 0, skipped: 0, outOfScope: 0, notApplicable: 0, findings: 0 });

/** The key of a status in the totals. */
const TOTAL_OF: Record<CheckStatus, keyof Totals> = {
  passed: 'passed',
  failed: 'failed',
  blocked: 'blocked',
  skipped: 'skipped',
  'out-of-scope': 'outOfScope',
  'not-applicable': 'notApplicable',
};

/** The row of an operation in an environment, created on first use. */
function rowOf(rows: Map<string, OperationResult>, op: Operation, environment: EnvironmentName): OperationResult {
  const key = `${op.id}|${environment}`;
  const row = rows.get(key) ?? {
    id: op.id,
    family: op.family,
    environment,
    method: op.method,
    path: op.path,
    status: 'passed',
    checks: {},
  };
  rows.set(key, row);
  return row;
}

/** Ids used by the run, one per environment, name and value, by name then environment. */
function distinctIds(all: readonly ResolvedId[]): ResolvedId[] {
  const byKey = new Map(all.map((id) => [`${id.environment}|${id.name}|${id.value}`, id]));
  return [...byKey.values()].sort((a, b) => a.name.localeCompare(b.name) || a.environment.localeCompare(b.environment));
}

/** What a test's calls showed beside its verdicts: its pace and the bodies validated against OPENAPI. */
function addTraffic(c: Collected, a: TestAnnotations): void {
  if (a.traffic) {
    c.pace.atOnce = Math.max(c.pace.atOnce, a.traffic.concurrency);
    if (a.traffic.medianRttMs !== null) c.pace.rtts.push(a.traffic.medianRttMs);
    c.pace.unexpected429s += a.traffic.unexpected429s;
  }
  for (const v of a.openapiValidations) {
    c.bodies.validated += v.validated ? 1 : 0;
    c.bodies.failed += v.failed ? 1 : 0;
  }
}

/** Every test's checks, findings and observations, folded into rows and counts. Throws on a malformed annotation. */
export function collect(entries: readonly RunEntry[], operations: readonly Operation[]): Collected {
  const catalogue = new Map(operations.map((o) => [o.id, o]));
  const c: Collected = {
    tests: [],
    rows: [],
    groups: new Map(),
    findings: [],
    timings: {},
    ids: [],
    leftOutByBudget: 0,
    leftOut: [],
    pace: { atOnce: 1, rtts: [], unexpected429s: 0 },
    bodies: { validated: 0, failed: 0 },
  };
  const rows = new Map<string, OperationResult>();
  for (const e of entries) {
    const a = readAnnotations(e);
    c.timings[e.file] = (c.timings[e.file] ?? 0) + e.durationMs;
    const group = e.file.replace(/\.spec\.ts$/, '');
    const g = c.groups.get(group) ?? emptyGroup();
    c.groups.set(group, g);
    c.findings.push(...a.findings);
    g.findings += a.findings.length;
    c.ids.push(...a.idSources);
    addTraffic(c, a);
    for (const unit of unitsOf(e, a)) {
      if (unit.reason?.startsWith(BUDGET_SPENT)) c.leftOutByBudget += 1;
      const { title, status, durationMs } = unit;
      const kind = LEFT_OUT_KIND[status];
      if (kind) addLeftOut(c.leftOut, kind, unit);
      c.tests.push({
        title,
        file: e.file,
        status,
        durationMs,
        tags: e.tags,
        ...(unit.error ? { error: redact(unit.error).slice(0, 4000) } : {}),
        ...(unit.reason && kind ? { reason: unit.reason } : {}),
        ...(unit.bringsIn ? { bringsIn: unit.bringsIn } : {}),
      });
      g[TOTAL_OF[status]] += 1;
      const op = unit.operation ? catalogue.get(unit.operation) : undefined;
      if (op && unit.environment && unit.check)
        addCheck(
          rowOf(rows, op, unit.environment),
          { ...unit, check: unit.check },
          unit.observed ?? a.observed,
          unit.correlationIds ?? a.correlationIds,
        );
    }
  }
  c.rows = [...rows.values()].sort((a, b) => a.id.localeCompare(b.id) || a.environment.localeCompare(b.environment));
  c.ids = distinctIds(c.ids);
  return c;
}

/** The run as reports/summary.json. */
export function buildSummary(
  c: Collected,
  run: {
    harnessVersion: string;
    target: string;
    environments: string;
    startedAt: number;
    endedAt: number;
    passed: boolean;
    openapi?: Record<string, unknown>;
    requests?: RequestsSummary;
  },
): RunSummary {
  const totals: GroupCounts = { ...emptyGroup(), findings: c.findings.length };
  for (const t of c.tests) totals[TOTAL_OF[t.status]] += 1;
  return {
    harnessVersion: run.harnessVersion,
    target: run.target,
    environments: run.environments.split(',').filter(Boolean) as EnvironmentName[],
    startedAt: new Date(run.startedAt).toISOString(),
    durationMs: run.endedAt - run.startedAt,
    verdict: totals.failed === 0 && run.passed ? 'passed' : 'failed',
    totals,
    operations: c.rows,
    tests: c.tests,
    findings: c.findings,
    leftOut: c.leftOut,
    timings: c.timings,
    ...(run.openapi ? { openapi: run.openapi } : {}),
    ...(run.requests ? { requests: run.requests } : {}),
    ...(c.ids.length ? { ids: c.ids } : {}),
  };
}

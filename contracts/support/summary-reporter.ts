/**
 * Playwright reporter that turns the run into reports/summary.json and reports/findings.json and
 * prints a one-screen summary per group. Everything written is redacted.
 */
import { mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult as PwResult } from '@playwright/test/reporter';
import {
  operationsFor,
  type CheckStatus,
  type EnvironmentName,
  type Finding,
  type OperationResult,
  type RunSummary,
  type TestResult,
  parseVendorOperations,
} from '../../catalogue';
import { redact } from '../../clients/redact';
import { BUDGET_SPENT, RUN_DIR_ENV, runBudgetUsage } from './run-budget';
import { CHECK_RESULT, type CheckResult } from './checks';
import { ID_SOURCE_ANNOTATION, describeId, type ResolvedId } from '../../clients/ids';

/** reports/summary.json of a certification run: the shared run summary plus requests and ids. */
export type CertifySummary = RunSummary & { requests?: RequestsSummary; ids?: ResolvedId[] };

/** What the run sent, read from the run's request counter (run-budget.ts). */
export interface RequestsSummary {
  /** Requests sent to the target (token requests and retries included). */
  sent: number;
  /** REQUEST_BUDGET; null when unlimited. */
  budget: number | null;
  /** Checks not run because the budget was spent. */
  checksLeftOutByBudget: number;
}

interface Options {
  outputDir?: string;
  target?: string;
  environments?: string;
}

const ann = (t: TestCase, type: string): string[] => t.annotations.filter((a) => a.type === type).map((a) => a.description ?? '');

function statusOf(t: TestCase, r: PwResult): CheckStatus {
  if (r.status === 'skipped') return ann(t, 'blocked').length ? 'blocked' : 'skipped';
  return r.status === 'passed' ? 'passed' : 'failed';
}

/** One check: a test, or one check of a grouped test (support/checks.ts). */
interface Unit {
  title: string;
  status: CheckStatus;
  durationMs: number;
  error?: string;
  /** Why it was not run or blocked. */
  reason?: string;
  operation?: string;
  environment?: EnvironmentName;
  check?: string;
}

function unitsOf(t: TestCase, r: PwResult): Unit[] {
  const grouped = ann(t, CHECK_RESULT).map((d) => JSON.parse(d) as CheckResult);
  if (grouped.length) {
    return grouped.map((c) => ({
      title: c.title,
      status: c.status,
      durationMs: c.durationMs,
      ...(c.error ? { error: withIds(t, c.error) } : {}),
      ...(c.reason ? { reason: c.reason } : {}),
      ...(c.operation ? { operation: c.operation } : {}),
      ...(c.environment ? { environment: c.environment } : {}),
      ...(c.check ? { check: c.check } : {}),
    }));
  }
  const errorText = withIds(t, r.errors.map((e) => e.message ?? '').join('\n'));
  const operation = ann(t, 'operation')[0];
  const environment = ann(t, 'environment')[0] as EnvironmentName | undefined;
  const check = ann(t, 'check')[0];
  const reason = [...ann(t, 'not-run'), ...ann(t, 'blocked')][0];
  return [
    {
      title: t.title,
      status: statusOf(t, r),
      durationMs: r.duration,
      ...(errorText ? { error: errorText } : {}),
      ...(reason ? { reason } : {}),
      ...(operation ? { operation } : {}),
      ...(environment ? { environment } : {}),
      ...(check ? { check } : {}),
    },
  ];
}

/** Ids a test used, with where each came from (clients/ids.ts). */
function idsOf(t: TestCase): ResolvedId[] {
  return ann(t, ID_SOURCE_ANNOTATION).map((d) => JSON.parse(d) as ResolvedId);
}

/** A failure's text with the ids it used and their origin, so the evidence says where each came from. */
function withIds(t: TestCase, error: string): string {
  const ids = idsOf(t);
  return error && ids.length ? `${error}\nIds used: ${ids.map(describeId).join('; ')}` : error;
}

/** "orderNumber 20-1 (listed by orders.search, production, sandbox); ..." : one entry per id and origin. */
function idLine(ids: readonly ResolvedId[]): string {
  const byId = new Map<string, string[]>();
  for (const id of ids) {
    const key = describeId(id).replace(/, [a-z]+\)$/, '');
    byId.set(key, [...(byId.get(key) ?? []), id.environment]);
  }
  return [...byId.entries()].map(([k, envs]) => `${k}, ${envs.join(', ')})`).join('; ');
}

/** Folds one check's verdict (and what the test observed) into its operation's row. */
function addCheck(row: OperationResult, unit: Unit, observed: string[], correlationIds: string[]): void {
  const check = unit.check as string;
  const prev = row.checks[check];
  row.checks[check] = prev === 'failed' || unit.status === 'failed' ? 'failed' : prev === 'passed' ? 'passed' : unit.status;
  for (const o of observed) {
    try {
      const obs = JSON.parse(o) as { headers?: string[]; fields?: string[]; latencyMs?: number; limit?: string | null };
      if (obs.headers) row.headers = obs.headers;
      if (obs.fields) row.fields = obs.fields;
      if (obs.latencyMs !== undefined) row.latencyMs = [...(row.latencyMs ?? []), obs.latencyMs];
      if (obs.limit) row.advertisedLimit = Number(obs.limit);
    } catch {
      /* ignored */
    }
  }
  if (unit.status === 'failed') {
    // The correlation ids of the check's last requests, to quote to the distributor's support.
    const last = correlationIds.length ? `\nLast requests: ${correlationIds.join('; ')}` : '';
    row.evidence = redact(`${(unit.error ?? '').slice(0, 1500)}${last}`).slice(0, 2000);
  }
  const vals = Object.values(row.checks);
  row.status = vals.includes('failed')
    ? 'failed'
    : vals.includes('blocked')
      ? 'blocked'
      : vals.every((v) => v === 'skipped')
        ? 'skipped'
        : 'passed';
}

export default class SummaryReporter implements Reporter {
  private readonly out: string;
  private started = Date.now();
  private readonly results: { test: TestCase; result: PwResult }[] = [];
  private version = '0.0.0';

  constructor(private readonly opts: Options = {}) {
    this.out = opts.outputDir ?? 'reports';
  }

  onBegin(_config: FullConfig, _suite: Suite): void {
    this.started = Date.now();
    try {
      this.version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
    } catch {
      /* version stays unknown */
    }
  }

  onTestEnd(test: TestCase, result: PwResult): void {
    this.results.push({ test, result });
  }

  async onEnd(result: FullResult): Promise<void> {
    const findings: Finding[] = [];
    const tests: TestResult[] = [];
    const rows = new Map<string, OperationResult>();
    // The run's operations: configured vendor operations (VENDOR_OPERATIONS) get rows too.
    const vendor = process.env.VENDOR_OPERATIONS ? parseVendorOperations(process.env.VENDOR_OPERATIONS) : undefined;
    const catalogue = new Map(operationsFor(vendor ? { vendorOperations: vendor } : {}).map((o) => [o.id, o]));
    const groups = new Map<string, { passed: number; failed: number; blocked: number; skipped: number; findings: number }>();
    const timings: Record<string, number> = {};

    let leftOutByBudget = 0;
    for (const { test, result: r } of this.results) {
      const file = test.location.file.split(/[\\/]/).pop() ?? test.location.file;
      timings[file] = (timings[file] ?? 0) + r.duration;
      const group = file.replace(/\.spec\.ts$/, '');
      const g = groups.get(group) ?? { passed: 0, failed: 0, blocked: 0, skipped: 0, findings: 0 };
      for (const f of ann(test, 'finding')) {
        try {
          findings.push(JSON.parse(f) as Finding);
          g.findings += 1;
        } catch {
          /* malformed annotation: ignored */
        }
      }
      groups.set(group, g);
      for (const unit of unitsOf(test, r)) {
        if (unit.reason?.startsWith(BUDGET_SPENT)) leftOutByBudget += 1;
        tests.push({
          title: unit.title,
          file,
          status: unit.status,
          durationMs: unit.durationMs,
          tags: test.tags,
          ...(unit.error ? { error: redact(unit.error).slice(0, 4000) } : {}),
        });
        g[unit.status] += 1;
        const op = unit.operation ? catalogue.get(unit.operation) : undefined;
        if (op && unit.environment && unit.check) {
          const key = `${op.id}|${unit.environment}`;
          const row = rows.get(key) ?? {
            id: op.id,
            family: op.family,
            environment: unit.environment,
            method: op.method,
            path: op.path,
            status: 'passed' as CheckStatus,
            checks: {},
          };
          addCheck(row, unit, ann(test, 'observed'), ann(test, 'correlation-id'));
          rows.set(key, row);
        }
      }
    }
    let openapi: Record<string, unknown> | undefined;
    if (process.env.OPENAPI) {
      try {
        const { loadOpenApi } = await import('../../openapi/import');
        const c = await loadOpenApi(process.env.OPENAPI);
        findings.push(...c.findings());
        let validated = 0;
        let failed = 0;
        for (const { test } of this.results) {
          for (const a of ann(test, 'openapi-validation')) {
            const v = JSON.parse(a) as { validated: boolean; failed: boolean };
            if (v.validated) validated += 1;
            if (v.failed) failed += 1;
          }
        }
        openapi = { ...c.coverage(), bodiesValidated: validated, bodiesFailed: failed };
      } catch (e) {
        openapi = { error: (e as Error).message };
      }
    }
    const totals = { passed: 0, failed: 0, blocked: 0, skipped: 0, findings: findings.length };
    for (const t of tests) totals[t.status] += 1;
    const usage = runBudgetUsage(process.env[RUN_DIR_ENV]);
    const requests: RequestsSummary | undefined = usage && {
      sent: usage.sent,
      budget: usage.limit,
      checksLeftOutByBudget: leftOutByBudget,
    };
    const idsUsed = new Map<string, ResolvedId>();
    for (const { test } of this.results) for (const id of idsOf(test)) idsUsed.set(`${id.environment}|${id.name}|${id.value}`, id);
    const ids = [...idsUsed.values()].sort((a, b) => a.name.localeCompare(b.name) || a.environment.localeCompare(b.environment));
    const summary: CertifySummary = {
      harnessVersion: this.version,
      target: this.opts.target ?? 'unknown',
      environments: (this.opts.environments ?? '').split(',').filter(Boolean) as EnvironmentName[],
      startedAt: new Date(this.started).toISOString(),
      durationMs: Date.now() - this.started,
      verdict: totals.failed === 0 && result.status === 'passed' ? 'passed' : 'failed',
      totals,
      operations: [...rows.values()].sort((a, b) => a.id.localeCompare(b.id) || a.environment.localeCompare(b.environment)),
      tests,
      findings,
      timings,
      ...(openapi ? { openapi } : {}),
      ...(requests ? { requests } : {}),
      ...(ids.length ? { ids } : {}),
    };
    mkdirSync(this.out, { recursive: true });
    writeFileSync(join(this.out, 'summary.json'), redact(JSON.stringify(summary, null, 2)));
    writeFileSync(join(this.out, 'findings.json'), redact(JSON.stringify(findings, null, 2)));

    const lines: string[] = [
      '',
      `Certification of ${summary.target} (${summary.environments.join(', ')}): ${summary.verdict.toUpperCase()}`,
    ];
    lines.push(
      `${'group'.padEnd(14)}${'passed'.padStart(8)}${'failed'.padStart(8)}${'blocked'.padStart(9)}${'not run'.padStart(9)}${'findings'.padStart(10)}`,
    );
    for (const [name, g] of [...groups.entries()].sort()) {
      lines.push(
        `${name.padEnd(14)}${String(g.passed).padStart(8)}${String(g.failed).padStart(8)}${String(g.blocked).padStart(9)}${String(g.skipped).padStart(9)}${String(g.findings).padStart(10)}`,
      );
    }
    lines.push(
      `${'total'.padEnd(14)}${String(totals.passed).padStart(8)}${String(totals.failed).padStart(8)}${String(totals.blocked).padStart(9)}${String(totals.skipped).padStart(9)}${String(totals.findings).padStart(10)}`,
    );
    if (requests) {
      lines.push(
        `Requests sent: ${requests.sent}${requests.budget === null ? '' : ` of a budget of ${requests.budget}`}` +
          (requests.checksLeftOutByBudget ? `; ${requests.checksLeftOutByBudget} checks not run: budget spent` : ''),
      );
    }
    if (ids.length) lines.push(`Ids from the target: ${idLine(ids)}`);
    const byId = new Map<string, Set<string>>();
    for (const f of findings) {
      const base = f.id.split('@')[0] as string;
      if (!byId.has(base)) byId.set(base, new Set());
      (byId.get(base) as Set<string>).add(f.observed);
    }
    if (byId.size) lines.push('', 'Findings (spec conflicts and gaps: what this target does):');
    for (const [id, obs] of [...byId.entries()].sort()) lines.push(`  ${id.padEnd(36)} ${[...obs].join(', ')}`);
    if (openapi) {
      const o = openapi as {
        file?: string;
        mapped?: unknown[];
        catalogueWithoutSchema?: string[];
        documentedNotInCatalogue?: string[];
        bodiesValidated?: number;
        bodiesFailed?: number;
        error?: string;
      };
      lines.push(
        '',
        o.error
          ? `OpenAPI: ${o.error}`
          : `OpenAPI ${o.file}: ${o.mapped?.length} operations mapped, ${o.bodiesValidated} bodies validated, ${o.bodiesFailed} failed; ` +
              `${o.catalogueWithoutSchema?.length} catalogue operations without a documented schema, ${o.documentedNotInCatalogue?.length} documented operations not in the catalogue`,
      );
    }
    lines.push(
      '',
      `Reports: ${this.out}/summary.json, ${this.out}/findings.json, ${this.out}/junit.xml, ${this.out}/html/index.html, ${this.out}/allure-results`,
    );
    console.log(redact(lines.join('\n')));
  }

  printsToStdio(): boolean {
    return true;
  }
}

/**
 * Playwright reporter that turns the run into reports/summary.json, reports/findings.json and
 * reports/junit.xml (one case per check), reports/exchanges.har (every exchange) and
 * prints a one-screen summary per group (certify-summary.ts and certify-summary-lines.ts build them).
 * Everything written is redacted.
 * Its settings come as reporter options from playwright.config.ts, never from the environment.
 */
import { mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { FullConfig, FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { median } from '../../common/statistics';
import { operationsFor, type VendorOperationSpec } from '../../catalogue';
import type { Finding, RunSummary } from '../../reporting/report-shapes';
import { redact } from '../../clients/redact';
import { readRunPlan, runBudgetUsage } from '../plan/run-budget';
import { buildSummary, collect, type Collected, type RequestsSummary, type RunEntry } from './certify-summary';
import { summaryLines } from './certify-summary-lines';
import { certifyJunit } from './certify-junit';
import { writeExchangesHar } from './exchanges-har';
import { withReproductions } from './reproduction';
import { checkLocations, writeGithubOutput, type CheckLocation } from './github-output';
import { runLedger } from '../outcomes/fact-ledger';
import { ledgerLine } from '../../reporting/fact-ledger-lines';

export type { RequestsSummary } from './certify-summary';

/** The reporter's options (playwright.config.ts). */
export interface SummaryReporterOptions {
  /** Where summary.json and findings.json go; default `reports`. */
  outputDir?: string;
  /** The target's label (no credentials). */
  target?: string;
  /** The certified environments, comma-separated. */
  environments?: string;
  /** VENDOR_OPERATIONS: configured vendor operations get rows too. */
  vendorOperations?: VendorOperationSpec[];
  /** OPENAPI: the document whose coverage the summary reports. */
  openapi?: string;
  /** The run's request budget folder (run-budget.ts), for the requests sent. */
  runDir?: string;
  /** On GitHub Actions: the step summary file to append to (GITHUB_STEP_SUMMARY); with it, an annotation per failed check. */
  githubStepSummary?: string;
  /** The certified families, comma-separated (the ledger of facts: outcomes/fact-ledger.ts); default both. */
  families?: string;
}

/** A finished test as the pure summary functions take it. */
export function entryOf(test: TestCase, result: TestResult): RunEntry {
  return {
    title: test.title,
    file: test.location.file.split(/[\\/]/).pop() ?? test.location.file,
    tags: test.tags,
    annotations: test.annotations,
    status: result.status,
    durationMs: result.duration,
    errors: result.errors,
  };
}

/** The OPENAPI document's coverage and its findings; the error in place of the coverage when it cannot be read. */
async function openapiCoverage(
  file: string,
  bodies: Collected['bodies'],
): Promise<{ openapi: Record<string, unknown>; findings: Finding[] }> {
  try {
    const { loadOpenApi } = await import('../../openapi/import');
    const c = await loadOpenApi(file);
    return { openapi: { ...c.coverage(), bodiesValidated: bodies.validated, bodiesFailed: bodies.failed }, findings: c.findings() };
  } catch (e) {
    return { openapi: { error: (e as Error).message }, findings: [] };
  }
}

function harnessVersion(): string {
  try {
    return (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

export default class SummaryReporter implements Reporter {
  private readonly out: string;
  private started = Date.now();
  private readonly entries: RunEntry[] = [];

  constructor(private readonly opts: SummaryReporterOptions = {}) {
    this.out = opts.outputDir ?? 'reports';
  }

  private workers = 1;

  onBegin(config: FullConfig): void {
    this.started = Date.now();
    this.workers = config.workers;
  }

  private readonly located: { entry: RunEntry; at: CheckLocation }[] = [];

  onTestEnd(test: TestCase, result: TestResult): void {
    const entry = entryOf(test, result);
    this.entries.push(entry);
    this.located.push({ entry, at: { file: relative(process.cwd(), test.location.file), line: test.location.line } });
  }

  async onEnd(result: FullResult): Promise<void> {
    const vendor = this.opts.vendorOperations;
    const operations = operationsFor(vendor?.length ? { vendorOperations: vendor } : {});
    const c = collect(this.entries, operations);
    const coverage = this.opts.openapi ? await openapiCoverage(this.opts.openapi, c.bodies) : undefined;
    c.findings.push(...(coverage?.findings ?? []));
    const usage = runBudgetUsage(this.opts.runDir);
    const planned = readRunPlan(this.opts.runDir)?.total;
    const requests: RequestsSummary | undefined = usage && {
      sent: usage.sent,
      budget: usage.limit,
      ...(usage.grown ? { grownBy: usage.grown } : {}),
      checksLeftOutByBudget: c.leftOutByBudget,
      ...(planned !== undefined ? { planned } : {}),
      pace: { workers: this.workers, atOnce: c.pace.atOnce, medianRttMs: median(c.pace.rtts), unexpected429s: c.pace.unexpected429s },
    };
    const built = buildSummary(c, {
      harnessVersion: harnessVersion(),
      target: this.opts.target ?? 'unknown',
      environments: this.opts.environments ?? '',
      startedAt: this.started,
      endedAt: Date.now(),
      passed: result.status === 'passed',
      ...(coverage ? { openapi: coverage.openapi } : {}),
      ...(requests ? { requests } : {}),
    });
    const facts = runLedger(this.entries, operations, this.opts);
    const summary: RunSummary = { ...built, facts };
    mkdirSync(this.out, { recursive: true });
    const exchanges = this.opts.runDir ? writeExchangesHar(this.opts.runDir, this.out, summary.harnessVersion) : [];
    summary.tests = withReproductions(summary.tests, exchanges);
    writeFileSync(join(this.out, 'summary.json'), redact(JSON.stringify(summary, null, 2)));
    writeFileSync(join(this.out, 'findings.json'), redact(JSON.stringify(summary.findings, null, 2)));
    writeFileSync(join(this.out, 'junit.xml'), certifyJunit(summary.tests));
    console.log(redact([...summaryLines(summary, c.groups, this.out), ledgerLine(facts)].join('\n')));
    if (this.opts.githubStepSummary) writeGithubOutput(this.opts.githubStepSummary, summary, c.groups, checkLocations(this.located));
  }

  printsToStdio(): boolean {
    return true;
  }
}

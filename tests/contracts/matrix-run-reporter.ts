/**
 * Reporter of the detection matrix run (the contract suite in DRIFT_MATRIX mode): writes each
 * project's checks to REPORTS_DIR/projects/<project>.json as soon as the project's last check ends, so
 * the harness test of that drift mode can judge it while the other modes still run.
 */
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { projectFile, reporterDir, writeJsonAtomically, writeRunEnd, type MatrixEntry } from './matrix-runner';

export default class MatrixRunReporter implements Reporter {
  private readonly dir = reporterDir();
  private readonly pending = new Map<string, number>();
  private readonly entries = new Map<string, MatrixEntry[]>();
  private readonly started = Date.now();

  onBegin(_config: FullConfig, suite: Suite): void {
    for (const project of suite.suites) {
      const name = project.project()?.name ?? project.title;
      this.pending.set(name, project.allTests().length);
      this.entries.set(name, []);
      this.flushIfDone(name);
    }
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const name = test.parent.project()?.name ?? '';
    // Retries are off in the suite's configuration: the first result is the final one.
    this.entries.get(name)?.push({
      title: test.title,
      outcome: test.outcome(),
      annotations: [...test.annotations, ...result.annotations],
      results: test.results.map((r) => ({ status: r.status, errors: r.errors.map((e) => e.message ?? '') })),
    });
    this.pending.set(name, (this.pending.get(name) ?? 1) - 1);
    this.flushIfDone(name);
  }

  onEnd(result: FullResult): void {
    writeRunEnd(this.dir, result.status);
  }

  printsToStdio(): boolean {
    return false;
  }

  private flushIfDone(name: string): void {
    if (this.pending.get(name) !== 0) return;
    this.pending.delete(name);
    writeJsonAtomically(projectFile(this.dir, name), {
      project: name,
      seconds: (Date.now() - this.started) / 1000,
      entries: this.entries.get(name) ?? [],
    });
  }
}

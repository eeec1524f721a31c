/**
 * Reporter of the detection matrix run (the contract suite in DRIFT_MATRIX mode): writes each drift
 * mode's checks to REPORTS_DIR/projects/<mode>.json as soon as the mode's last check ends, so the
 * harness test of that drift mode can judge it while the other modes still run. A project may serve
 * several modes (playwright.config.ts): each test belongs to the one mode of its project that selects it.
 */
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { grepTitle, modeOfTest } from '../../contracts/support/detection-matrix';
import { projectFile, reporterDir, writeJsonAtomically, writeRunEnd, type MatrixEntry } from './matrix-runner';

export default class MatrixRunReporter implements Reporter {
  private readonly dir = reporterDir();
  private readonly pending = new Map<string, number>();
  private readonly entries = new Map<string, MatrixEntry[]>();
  private readonly started = Date.now();

  private readonly modeOf = new Map<string, string>();

  onBegin(_config: FullConfig, suite: Suite): void {
    for (const project of suite.suites) {
      const name = project.project()?.name ?? project.title;
      const modes = (project.project()?.use as { matrixModes?: string } | undefined)?.matrixModes?.split(',').filter(Boolean) ?? [];
      for (const m of modes.length ? modes : [name]) {
        this.pending.set(m, 0);
        this.entries.set(m, []);
      }
      for (const test of project.allTests()) {
        // The title path from the file on ([root, project, file, ...describes, title]), as the worker sees it.
        const mode = modes.length ? modeOfTest(modes, grepTitle(test.titlePath().slice(2), test.tags)) : name;
        if (mode === undefined) continue;
        this.modeOf.set(test.id, mode);
        this.pending.set(mode, (this.pending.get(mode) ?? 0) + 1);
      }
      for (const m of modes.length ? modes : [name]) this.flushIfDone(m);
    }
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const name = this.modeOf.get(test.id) ?? test.parent.project()?.name ?? '';
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

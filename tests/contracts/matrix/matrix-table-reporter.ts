/**
 * Collects the rows the detection matrix tests attach and writes the matrix, in drift mode order, as
 * `detection-matrix.md` and `.json` into the harness tests' report folder (gitignored).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { DRIFT_MODES } from '../../../mock/drift';
import { matrixMarkdown, type MatrixRow } from './matrix-report';

export default class MatrixTableReporter implements Reporter {
  private readonly rows = new Map<string, MatrixRow>();

  constructor(private readonly opts: { outputDir: string }) {}

  onTestEnd(_test: TestCase, result: TestResult): void {
    for (const a of result.attachments) {
      if (a.name !== 'detection-row' || !a.body) continue;
      const row = JSON.parse(a.body.toString('utf8')) as MatrixRow;
      this.rows.set(row.mode, row);
    }
  }

  onEnd(): void {
    if (!this.rows.size) return;
    const order: readonly string[] = DRIFT_MODES.map((m) => m.id);
    const rows = [...this.rows.values()].sort((a, b) => order.indexOf(a.mode) - order.indexOf(b.mode));
    mkdirSync(this.opts.outputDir, { recursive: true });
    writeFileSync(
      join(this.opts.outputDir, 'detection-matrix.json'),
      JSON.stringify({ generatedAt: new Date().toISOString(), rows }, null, 2),
    );
    writeFileSync(join(this.opts.outputDir, 'detection-matrix.md'), matrixMarkdown(rows));
  }

  printsToStdio(): boolean {
    return false;
  }
}

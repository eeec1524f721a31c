/** What a run ends with: its exit code, its output, its thresholds' results and its metrics. */
import type { summaryMetrics } from './summary-data';
import type { ThresholdResult } from './thresholds';

export interface RunResult {
  exitCode: number;
  stdout: string;
  files: string[];
  setupData: unknown;
  thresholds: ThresholdResult[];
  metrics: ReturnType<typeof summaryMetrics>;
}

/** What a run is given and how it can end: its options, k6's exit codes and the error that ends a run with one. */
import type { FileOutput } from './outputs';

/** k6's exit codes (errext/exitcodes). */
export const EXIT = {
  ok: 0,
  thresholdsFailed: 99,
  setupTimeout: 100,
  invalidConfig: 104,
  scriptException: 107,
  scriptAborted: 108,
  usage: 255,
} as const;

export interface RunOptions {
  /** __ENV of the script. */
  env: Record<string, string>;
  /** Directory relative file names of handleSummary are written to. Default the process cwd. */
  cwd?: string;
  /** `--execution-segment`, e.g. `0:1/3`. */
  executionSegment?: string;
  /** `--execution-segment-sequence`, e.g. `0,1/3,2/3,1`. */
  executionSegmentSequence?: string;
  /** `--summary-export` file. */
  summaryExport?: string;
  /** `--out json=…` / `--out csv=…`: every sample, as k6 writes them (outputs.ts). */
  outputs?: readonly FileOutput[];
  /** Errors and notices (default process.stderr). */
  log?: (line: string) => void;
}

/**
 * Thrown by `exec.test.abort()` through the bridge (the runtime's class, whichever copy of the shim the script
 * bundled): the run ends with k6's exit code 108.
 */
export class TestAbort extends Error {}

export class RunError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

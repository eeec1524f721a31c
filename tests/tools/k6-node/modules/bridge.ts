/**
 * The shims reach the runtime through one global set by runtime.ts, so the re-bundled script and
 * the runtime share one HTTP bridge and one metrics registry whatever module copies exist.
 */
import type { SyncRequest, SyncResponse } from '../sync-http';
import type { ExecutionInfo, MetricType, Tags } from '../run-state';

export interface K6NodeBridge {
  requestSync(batch: SyncRequest[]): SyncResponse[];
  sleepSync(ms: number): void;
  record(name: string, type: MetricType, value: number, tags?: Tags): void;
  /** Registers a custom metric (k6/metrics' constructors), refused as k6's registry refuses it. */
  declareMetric(name: string, type: MetricType): void;
  execution: ExecutionInfo;
  /** `exec.test.abort()`: throws the runtime's TestAbort, which ends the run with exit 108. */
  abort(message: string): never;
  /** 'init' while the script's top level runs: k6 refuses execution details there. */
  phase(): 'init' | 'vu';
}

export function rt(): K6NodeBridge {
  const b = (globalThis as unknown as { __k6node?: K6NodeBridge }).__k6node;
  if (!b) throw new Error('k6-node: these modules run only inside tests/tools/k6-node/runtime.ts');
  return b;
}

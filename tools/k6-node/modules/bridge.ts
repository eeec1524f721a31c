/**
 * The shims reach the runtime through one global set by runtime.ts, so the re-bundled script and
 * the runtime share one HTTP bridge and one metrics registry whatever module copies exist.
 */
import type { SyncRequest, SyncResponse } from '../sync-http';
import type { MetricState } from './state';

export interface K6NodeBridge {
  requestSync(batch: SyncRequest[]): SyncResponse[];
  sleepSync(ms: number): void;
  record(name: string, type: MetricState['type'], value: number): void;
  execution: {
    scenario: { name: string; iterationInTest: number };
    vu: { idInTest: number; iterationInScenario: number };
    instance: { vusActive: number };
  };
}

export function rt(): K6NodeBridge {
  const b = (globalThis as unknown as { __k6node?: K6NodeBridge }).__k6node;
  if (!b) throw new Error('k6-node: these modules run only inside tools/k6-node/runtime.ts');
  return b;
}

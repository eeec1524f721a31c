/**
 * Synchronous HTTP for the k6 double: the calling thread posts a batch to a worker and blocks on
 * Atomics.wait until the worker has answered, then reads the answer with receiveMessageOnPort.
 */
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';

export interface SyncRequest {
  method: string;
  url: string;
  body: string | null;
  headers: Record<string, string>;
  timeoutMs: number;
}
export interface SyncResponse {
  status: number;
  headers: Record<string, string>;
  body: string | null;
  durationMs: number;
  error: string;
  errorCode: number;
}

let bridge: { port: MessagePort; flag: Int32Array; worker: Worker } | undefined;

function start(workerFile: string) {
  const { port1, port2 } = new MessageChannel();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(workerFile, { workerData: { port: port2, flag }, transferList: [port2] });
  worker.unref();
  bridge = { port: port1, flag, worker };
  return bridge;
}

export function configureBridge(workerFile = fileURLToPath(new URL('./sync-http-worker.mjs', import.meta.url))): void {
  if (!bridge) start(workerFile);
}

/** Sends a batch and blocks until every response is in; at most `timeoutMs` + 5 s. */
export function requestSync(batch: SyncRequest[]): SyncResponse[] {
  if (!bridge) throw new Error('k6-node: the HTTP bridge is not started (configureBridge)');
  Atomics.store(bridge.flag, 0, 0);
  bridge.port.postMessage(batch);
  const limit = Math.max(...batch.map((b) => b.timeoutMs)) + 5000;
  const r = Atomics.wait(bridge.flag, 0, 0, limit);
  if (r === 'timed-out') throw new Error(`k6-node: no answer from the HTTP bridge within ${limit} ms`);
  const msg = receiveMessageOnPort(bridge.port);
  if (!msg) throw new Error('k6-node: the HTTP bridge answered nothing');
  return msg.message as SyncResponse[];
}

export async function stopBridge(): Promise<void> {
  if (bridge) await bridge.worker.terminate();
  bridge = undefined;
}

export function sleepSync(ms: number): void {
  if (ms > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

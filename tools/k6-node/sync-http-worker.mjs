// Worker side of the synchronous HTTP bridge of the k6 double: performs fetches, answers on the
// port, then wakes the blocked caller. Plain JavaScript so the worker needs no TypeScript loader.
import { workerData } from 'node:worker_threads';

const { port, flag } = workerData;

async function one(r) {
  const started = performance.now();
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), r.timeoutMs);
  try {
    const res = await fetch(r.url, { method: r.method, headers: r.headers, body: r.body ?? undefined, signal: ctrl.signal });
    const headers = {};
    res.headers.forEach((v, k) => (headers[k] = v));
    const body = await res.text();
    return { status: res.status, headers, body, durationMs: performance.now() - started, error: '', errorCode: 0 };
  } catch (e) {
    const aborted = ctrl.signal.aborted;
    const code = e?.cause?.code;
    return {
      status: 0,
      headers: {},
      body: null,
      durationMs: performance.now() - started,
      error: aborted ? 'request timeout' : `${code ?? 'network error'}: ${e?.message ?? e}`,
      // k6's error codes: 1050 request timeout, 1212 connection refused, 1000 generic.
      errorCode: aborted ? 1050 : code === 'ECONNREFUSED' ? 1212 : 1000,
    };
  } finally {
    clearTimeout(timer);
  }
}

port.on('message', async (batch) => {
  const out = await Promise.all(batch.map(one));
  port.postMessage(out);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});

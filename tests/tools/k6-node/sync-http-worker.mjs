// Worker side of the synchronous HTTP bridge of the k6 double: performs fetches, answers on the
// port, then wakes the blocked caller. Plain JavaScript so the worker needs no TypeScript loader.
import http from 'node:http';
import https from 'node:https';
import { workerData } from 'node:worker_threads';

const { port, flag } = workerData;

// node:http with keep-alive agents rather than fetch: no undici to start in every worker, and about half
// the CPU per request (the probes send thousands of small requests).
const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

function one(r) {
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    let timedOut = false;
    let timer;
    const finish = (v) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...v, durationMs: performance.now() - started });
    };
    // k6's error codes: 1050 request timeout, 1212 connection refused, 1000 generic.
    const fail = (e) =>
      finish({
        status: 0,
        headers: {},
        body: null,
        error: timedOut ? 'request timeout' : `${e?.code ?? 'network error'}: ${e?.message ?? e}`,
        errorCode: timedOut ? 1050 : e?.code === 'ECONNREFUSED' ? 1212 : 1000,
      });
    let url;
    try {
      url = new URL(r.url);
    } catch (e) {
      return fail(e);
    }
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, { method: r.method, headers: r.headers, agent: agents[url.protocol] }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('error', fail);
      res.on('end', () => {
        const headers = {};
        for (const [k, v] of Object.entries(res.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
        finish({ status: res.statusCode, headers, body: Buffer.concat(chunks).toString('utf8'), error: '', errorCode: 0 });
      });
    });
    timer = setTimeout(() => {
      timedOut = true;
      req.destroy(new Error('request timeout'));
    }, r.timeoutMs);
    req.on('error', fail);
    req.end(r.body ?? undefined);
  });
}

port.on('message', async (batch) => {
  const out = await Promise.all(batch.map(one));
  port.postMessage(out);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});

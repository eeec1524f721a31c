/**
 * Certify of the mock as a deployment a round trip away: the mock (`npm run mock`'s server, a one-minute window)
 * behind a forwarding proxy that holds each request for the added delay, certified as a URL target with the demo
 * apps' credentials and WEBHOOK_SECRET. Per delay: the wall time, the requests sent and planned, the pace the run
 * chose, and where the time went (certify-timeline.ts): start-up, the test phase per worker, and the critical path
 * it is measured against (its longest test: no concurrency shortens a test). Certify runs as a child process while
 * this one serves the mock and the proxy (so never spawned synchronously: the servers would not answer).
 */
import { spawn } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_RESELLER, DEMO_RESELLER_B, DEMO_VENDOR, demoWebhookSecret } from '../catalogue';
import { startMock } from '../mock';
import type { RunSummary } from '../reporting/report-shapes';
import type { BenchOptions } from './bench-options';
import { certifyTimeline } from './certify-timeline';
import { commandLine } from './command-line';

/** The added round trips: none (the mock as a URL target), a near region, another continent. */
const DELAYS_MS = [0, 20, 150] as const;

/** A proxy on 127.0.0.1 that forwards each request to `upstream` after `delayMs`. */
async function delayingProxy(upstream: string, delayMs: number): Promise<{ url: string; close: () => Promise<void> }> {
  const up = new URL(upstream);
  const server: Server = createServer((req, res) => {
    setTimeout(() => {
      const fwd = httpRequest(
        { host: up.hostname, port: up.port, method: req.method, path: req.url, headers: { ...req.headers, host: up.host } },
        (upRes) => {
          res.writeHead(upRes.statusCode ?? 502, upRes.headers);
          upRes.pipe(res);
        },
      );
      fwd.on('error', () => res.writeHead(502).end());
      req.pipe(fwd);
    }, delayMs);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** The demo apps' credentials, as a user certifying a deployment sets them. */
function demoCredentials(): Record<string, string> {
  return {
    RESELLER_CLIENT_ID: DEMO_RESELLER.clientId,
    RESELLER_CLIENT_SECRET: DEMO_RESELLER.clientSecret,
    RESELLER_B_CLIENT_ID: DEMO_RESELLER_B.clientId,
    RESELLER_B_CLIENT_SECRET: DEMO_RESELLER_B.clientSecret,
    VENDOR_CLIENT_ID: DEMO_VENDOR.clientId,
    VENDOR_CLIENT_SECRET: DEMO_VENDOR.clientSecret,
    WEBHOOK_SECRET: demoWebhookSecret(DEMO_RESELLER.clientId),
  };
}

/** One certify of the mock behind `delayMs`. */
async function certifyAt(delayMs: number, work: string, grep: string[]) {
  const mock = await startMock({ windowMs: 60_000, seed: 7 });
  const proxy = await delayingProxy(mock.url, delayMs);
  const out = join(work, `certify-remote-${delayMs}`);
  try {
    const started = Date.now();
    const exit = await new Promise<number | null>((resolve, reject) => {
      const c = spawn(process.execPath, [...commandLine('certify'), ...grep], {
        env: { ...process.env, ...demoCredentials(), TARGET: proxy.url, REPORTS_DIR: out, CI: '' },
        stdio: 'ignore',
      });
      c.on('error', reject);
      c.on('exit', (code) => resolve(code));
    });
    const wallS = (Date.now() - started) / 1000;
    const s = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as RunSummary;
    const timeline = certifyTimeline(join(out, 'results.json'));
    return {
      delayMs,
      wallS,
      exit,
      failed: s.totals.failed,
      judged: s.totals.passed + s.totals.failed,
      requests: { sent: s.requests?.sent ?? null, planned: s.requests?.planned ?? null },
      pace: s.requests?.pace ?? null,
      criticalPath: timeline.longest,
      timeline,
    };
  } finally {
    await proxy.close();
    await mock.close();
  }
}

/** The smoke run certifies one check at no added delay: it proves the figure is produced, not its size. */
const SMOKE_GREP = ['-g', 'reseller token requests as documented \\(production\\)'];

/** Certify of the mock as a deployment at each added round trip (the smoke run: one check, no delay). */
export async function remoteCertifyFigures(opts: BenchOptions, work: string) {
  const figures = [];
  for (const delay of opts.smoke ? [0] : DELAYS_MS) figures.push(await certifyAt(delay, work, opts.smoke ? SMOKE_GREP : []));
  return figures;
}

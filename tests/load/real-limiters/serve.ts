/**
 * The real-limiter gateways by hand, until interrupted: the embedded mock (refusing nothing), the Node gateway
 * (express-rate-limit, @fastify/rate-limit, limiter, rolling-rate-limiter) and, when installed, nginx limit_req,
 * with the routes and limits of cases.ts. Prints the probe-reset command line for each.
 *
 *   npx tsx tests/load/real-limiters/serve.ts [--port 4100] [--nginx-port 4101] [--skew 0]
 *
 * then in another shell the printed `npm run load -- probe-reset …` (with the demo credentials in its environment).
 */
import { Command } from 'commander';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COUNTS_BLOCKED, NODE_CASES, NGINX_CASE, about, nginxRoute, pathOf, probeArgs, skewed, startOpenMock } from './cases';
import { startGateway } from './gateway';
import { findNginx, startNginx } from './nginx';

const o = new Command()
  .option('--port <n>', 'Node gateway port (0: any free one)', '4100')
  .option('--nginx-port <n>', 'nginx port (0: any free one)', '4101')
  .option('--skew <n>', 'configure every limiter this many calls larger than cases.ts says', '0')
  .parse()
  .opts<{ port: string; nginxPort: string; skew: string }>();

async function main(): Promise<void> {
  const skew = Number(o.skew);
  const mock = await startOpenMock();
  const routes = [
    ...Object.entries(NODE_CASES).map(([id, c]) => ({ id, limiter: skewed(c.limiter, skew) })),
    { id: COUNTS_BLOCKED.op, limiter: skewed(COUNTS_BLOCKED.limiter, skew) },
  ];
  const gateway = await startGateway(
    mock.url,
    routes.map((r) => ({ path: pathOf(r.id), limiter: r.limiter })),
    Number(o.port),
  );
  console.log(`mock ${mock.url} (refuses nothing, no rate-limit headers); Node gateway ${gateway.url}:`);
  for (const r of routes) console.log(`  ${r.id.padEnd(22)} ${about(r.limiter)} ${JSON.stringify(r.limiter)}`);
  const creds = 'RESELLER_CLIENT_ID=demo-reseller RESELLER_CLIENT_SECRET=… VENDOR_CLIENT_ID=demo-vendor VENDOR_CLIENT_SECRET=…';
  const command = (url: string, ops: string[], windowMs?: number) =>
    `  ${creds} npm run load -- ${probeArgs(url, ops, join(tmpdir(), 'real-limiters'), windowMs).join(' ')}`;
  console.log(command(gateway.url, Object.keys(NODE_CASES)));
  console.log(command(gateway.url, [COUNTS_BLOCKED.op], COUNTS_BLOCKED.limiter.intervalMs));
  const nginx = findNginx();
  let stopNginx = async (): Promise<void> => undefined;
  if ('bin' in nginx) {
    const route = nginxRoute(skew);
    const n = await startNginx(nginx.bin, mkdtempSync(join(tmpdir(), 'real-limiters-nginx-')), mock.url, [route], Number(o.nginxPort));
    stopNginx = n.close;
    console.log(`nginx ${n.url}: ${NGINX_CASE.op} limit_req rate=${route.ratePerSecond}r/s burst=${route.burst} nodelay`);
    console.log(command(n.url, [NGINX_CASE.op]));
  } else console.log(`nginx: ${nginx.missing}`);
  console.log("(the secrets are the mock's demo ones: catalogue/apps.ts DEFAULT_APPS)");
  const stop = async () => {
    await stopNginx();
    await gateway.close();
    await mock.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((e: Error) => {
  console.error(`serve: ${e.message}`);
  process.exit(1);
});

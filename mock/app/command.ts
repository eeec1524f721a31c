/**
 * The mock's command line, read by `npm run mock` (scripts/mock.ts) and by the mock's own process
 * (mock/app/main.ts, which runner/mock-process.ts starts): `npm run mock -- --port 4010 [--window-ms 60000] [--seed 1] [--control] [--drift a,b] [--reset-unit seconds] [--openapi <file>] [--requests strict|warn]
 *   [--limiter fixed|sliding-log|sliding-counter|token-bucket|leaky-bucket|<op>=<algorithm>,...] [--count-refused] [--headers x-ratelimit|ietf|none|<op>=<style>,...]`
 * serveMock runs the embedded mock on 127.0.0.1 until interrupted.
 */
import { Command } from 'commander';
import { DEFAULT_APPS } from '../../catalogue/apps';
import { DriftLayer } from '../drift/drift-layer';
import { DRIFT_MODES } from '../drift';
import { startMock } from './server';
import type { MockOptions } from '../context/mock-options';
import { LIMITER_ALGORITHMS } from '../limits/limiter-algorithms';
import { parseHeaderSpec, parseLimiterSpec } from '../limits/per-operation-specs';
import { HEADER_STYLES } from '../limits/decision-headers';
import { DEFAULT_REQUEST_MODE, parseRequestMode } from '../checks/request-violations';
import { allOperations, DEFAULT_WINDOW_MS, parseErrorStatuses, parseVendorOperations } from '../../catalogue';
import { parseLatencySpec } from '../latency/latency';
import { DEFAULT_SEED } from '../../fixtures/build-world';
import { integer, parseOrExit } from '../../config/cli-options';

/** The command line's definition: each value parsed (a value that does not parse: exit 2, naming the option). */
export function mockProgram(): Command {
  return new Command()
    .name('npm run mock --')
    .description('Run the embedded mock of the Distributor Commerce API on 127.0.0.1')
    .option('--port <n>', 'port to listen on (0 = any free port)', integer('--port'), 4010)
    .option('--window-ms <n>', 'rate-limit window in ms (spec: 60000)', integer('--window-ms'), DEFAULT_WINDOW_MS)
    .option('--seed <n>', 'faker seed of the fixtures', integer('--seed'), DEFAULT_SEED)
    .option('--control', 'serve the /__mock control API', false)
    .option('--drift <ids>', `comma-separated drift modes (${DRIFT_MODES.length} known; see mock/drift/index.ts)`, '')
    .option('--reset-unit <unit>', 'X-RateLimit-Reset as "epoch" or "seconds"', 'epoch')
    .option(
      '--token-get <mode>',
      'token by GET with query parameters: "accept" (how the distributor\'s clients ask) or "reject" (405)',
      'accept',
    )
    .option('--limits <json>', 'per-operation limit overrides as JSON, e.g. {"orders.create":5}')
    .option('--vendor-operations <list>', 'vendor operations, e.g. "GET /orders/search, GET /orders/{orderNumber}"')
    .option('--openapi <file>', 'generate response bodies from an OpenAPI document')
    .option(
      '--limiter <spec>',
      `rate-limit algorithm (${LIMITER_ALGORITHMS.join(', ')}), per operation too: "token-bucket,orders.create=sliding-log"`,
    )
    .option('--count-refused', 'a refused call consumes quota too', false)
    .option(
      '--headers <spec>',
      `rate-limit headers (${HEADER_STYLES.join(', ')}), per operation too: "x-ratelimit,orders.create=ietf"`,
      'x-ratelimit',
    )
    .option('--refusal-status <code>', 'status of a refused call: 429 (default), or e.g. 503 as nginx limit_req answers by default', '429')
    .option(
      '--strict-document',
      "follow the published document alone where the distributor's generated client disagrees with it (deals.details without vendorName, shipToAddress as an array, a date-time for a date): refuse the client's form",
      false,
    )
    .option(
      '--requests <mode>',
      'a request breaking a document constraint (IM-* header, query parameter, body schema): "strict" refuses it with 400, "warn" serves it, logs each violation with the IM-CorrelationID and lists them in the sl-violations response header',
      DEFAULT_REQUEST_MODE,
    )
    .option(
      '--latency <spec>',
      'an added latency per operation: a fixed delay, optionally a uniform (±) or exponential (+exp()) jitter, e.g. "orders.search=20ms,catalog.details=5ms±2ms"',
    )
    .option('--log', 'log every request', false);
}

/** The parsed command line. */
export interface MockFlags {
  port: number;
  windowMs: number;
  seed: number;
  control: boolean;
  drift: string;
  resetUnit: string;
  tokenGet: string;
  limits?: string;
  vendorOperations?: string;
  openapi?: string;
  limiter?: string;
  countRefused: boolean;
  headers: string;
  refusalStatus: string;
  strictDocument: boolean;
  requests: string;
  latency?: string;
  log: boolean;
}

type Flags = MockFlags;

/** The spec choices given by name; a user error names the accepted values. */
function choicesOf(f: Flags): Pick<MockOptions, 'resetUnit' | 'tokenGet'> {
  if (f.resetUnit !== 'epoch' && f.resetUnit !== 'seconds')
    throw new Error(`--reset-unit must be epoch or seconds, received "${f.resetUnit}"`);
  if (f.tokenGet !== 'reject' && f.tokenGet !== 'accept') throw new Error(`--token-get must be reject or accept, received "${f.tokenGet}"`);
  return { resetUnit: f.resetUnit, tokenGet: f.tokenGet };
}

const listOf = (ids: string): string[] =>
  ids
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** The rate-limit options: refusal status, header styles, algorithms, limit overrides. */
function rateLimitOptionsOf(f: Flags): Pick<MockOptions, 'refusalStatus' | 'headers' | 'algorithms' | 'limits'> {
  const opts: MockOptions = {};
  const [refusal] = parseErrorStatuses(f.refusalStatus, '--refusal-status');
  if (refusal !== 429) opts.refusalStatus = refusal;
  const headers = parseHeaderSpec(f.headers);
  opts.headers = Object.keys(headers.byOperation).length ? headers : (headers.default ?? 'x-ratelimit');
  if (f.limiter || f.countRefused) opts.algorithms = { ...(f.limiter ? parseLimiterSpec(f.limiter) : {}), countRefused: f.countRefused };
  if (f.limits) {
    try {
      opts.limits = JSON.parse(f.limits) as Record<string, number>;
    } catch {
      throw new Error(`--limits must be JSON like {"orders.create":5}, received ${f.limits}`);
    }
  }
  return opts;
}

async function optionsOf(f: Flags): Promise<MockOptions> {
  const opts: MockOptions = {
    port: f.port,
    windowMs: f.windowMs,
    seed: f.seed,
    control: f.control,
    layer: new DriftLayer(f.drift ? listOf(f.drift) : [], f.control),
    ...choicesOf(f),
    logger: f.log,
    strictDocument: f.strictDocument,
    onDocumentConflict: (message) => console.log(`mock: ${message}`),
    requests: parseRequestMode(f.requests, '--requests'),
    onRequestViolation: (line) => console.log(`mock: ${line}`),
    ...rateLimitOptionsOf(f),
  };
  if (f.vendorOperations) opts.vendorOperations = parseVendorOperations(f.vendorOperations);
  if (f.latency)
    opts.latency = parseLatencySpec(
      f.latency,
      allOperations(opts.vendorOperations).map((op) => op.id),
    );
  if (f.openapi) {
    // Loaded only when asked for, so the mock starts without the OpenAPI parser.
    const { createBodyGenerator } = await import('../../openapi/mock-bodies');
    opts.responseBody = await createBodyGenerator(f.openapi, f.seed);
  }
  return opts;
}

/** The added latencies as the banner says them: `orders.search 20 ms ±2 ms`. */
function latencyWords(latency: NonNullable<MockOptions['latency']>): string {
  return Object.entries(latency)
    .map(([id, l]) => {
      const jitter = !l.jitter ? '' : l.jitter.kind === 'uniform' ? ` ±${l.jitter.spreadMs} ms` : ` + exp(${l.jitter.meanMs} ms)`;
      return `${id} ${l.fixedMs} ms${jitter}`;
    })
    .join(', ');
}

/** What the mock serves and how to call it. */
function printBanner(url: string, f: Flags, opts: MockOptions): void {
  const tokenBy = f.tokenGet === 'accept' ? 'POST (form) or GET (query parameters)' : 'POST (form)';
  console.log(`  reseller token: ${tokenBy} ${url}/oauth/oauth20/token   vendor token: ${tokenBy} ${url}/oauth/oauth30/token`);
  console.log('  sandbox: the same paths under /sandbox');
  console.log('  demo apps (public test credentials of the mock):');
  for (const a of DEFAULT_APPS) console.log(`    ${a.family.padEnd(8)} client_id=${a.clientId}  client_secret=${a.clientSecret}`);
  console.log(
    '  webhook calls: targeturl and x-hub-signature = base64 HMAC-SHA512 of the eventId with the app webhook secret (<client_id>-webhook-secret)',
  );
  const drift = opts.layer?.active() ?? [];
  if (drift.length) console.log(`  drift modes: ${drift.join(', ')}`);
  if (f.limiter || f.countRefused || f.headers !== 'x-ratelimit')
    console.log(`  rate limiter: ${f.limiter ?? 'fixed'}${f.countRefused ? ', refused calls count' : ''}, headers ${f.headers}`);
  console.log(
    f.strictDocument
      ? "  --strict-document: the published document alone (the distributor client's deals.details without vendorName, shipToAddress array and date-time for a date are refused)"
      : "  where the distributor's client and its document disagree, both forms are accepted and each client form is logged (--strict-document refuses it)",
  );
  if (opts.requests === 'warn')
    console.log('  --requests warn: requests breaking a document constraint are served; each violation logged and listed in sl-violations');
  if (opts.latency) console.log(`  added latency: ${latencyWords(opts.latency)}`);
  if (f.control) console.log(`  control API: ${url}/__mock (reset, clock, limits, drift, webhooks, config)`);
}

/** Starts the mock with the parsed command line, says what it serves, and stops it on SIGINT / SIGTERM. */
export async function serveMock(o: MockFlags): Promise<void> {
  const opts = await optionsOf(o);
  const started = performance.now();
  const mock = await startMock(opts);
  const ms = Math.round(performance.now() - started);
  console.log(`Distributor API mock listening on ${mock.url} (started in ${ms} ms, window ${o.windowMs} ms, seed ${o.seed})`);
  printBanner(mock.url, o, opts);
  const stop = async () => {
    await mock.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** The command line parsed (exit 2 for a value that does not parse) and the mock served; exit 2 if it cannot start. */
export function runMockCommand(argv: readonly string[]): void {
  serveMock(parseOrExit(mockProgram(), argv).opts<MockFlags>()).catch((e: Error) => {
    console.error(`mock: ${e.message}`);
    process.exit(2);
  });
}

/**
 * The k6 double's command line: the subset of `k6 run` the harness uses, with k6's exit codes.
 *   k6 run [-q|--quiet] [--summary-export f] [-o|--out json=f|csv=f] [-e|--env K=V]
 *          [--execution-segment s] [--execution-segment-sequence q] [--include-system-env-vars[=false]]
 *          [-a|--address host:port] script.js
 *   k6 version
 * A test double (see README.md), never a load engine.
 */
import { createServer, type Server } from 'node:net';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseOutputs } from './outputs';
import { runBundle } from './runtime';
import { EXIT } from './run-result';

/** k6 exits with -1 (255) on command-line errors. */
const USAGE_ERROR = 255;

export interface RunArgs {
  script: string;
  quiet: boolean;
  summaryExport?: string;
  outs: string[];
  env: Record<string, string>;
  executionSegment?: string;
  executionSegmentSequence?: string;
  includeSystemEnv: boolean;
  /** k6's REST API address (`--address`, default localhost:6565); empty: no REST API. */
  address: string;
  /** Whether --address was given: k6 then exits 106 when it cannot listen, instead of warning. */
  addressSet: boolean;
}

const VALUE_FLAGS: Record<string, string> = {
  '--summary-export': 'summaryExport',
  '-o': 'out',
  '--out': 'out',
  '-e': 'env',
  '--env': 'env',
  '--execution-segment': 'executionSegment',
  '--execution-segment-sequence': 'executionSegmentSequence',
  '-a': 'address',
  '--address': 'address',
};

/** k6's names for `-e` variables (internal/cmd/runtime_options.go). */
const ENV_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** `-e NAME=value` as k6 reads it: `-e NAME` alone is NAME set to ''; a name k6 does not allow is refused. */
function envPair(value: string): [string, string] {
  const j = value.indexOf('=');
  const [name, text] = j < 0 ? [value, ''] : [value.slice(0, j), value.slice(j + 1)];
  if (!ENV_NAME.test(name)) throw new Error(`invalid environment variable name '${name}'`);
  return [name, text];
}

export function parseRunArgs(argv: string[]): RunArgs {
  const a: RunArgs = { script: '', quiet: false, outs: [], env: {}, includeSystemEnv: true, address: 'localhost:6565', addressSet: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    if (flag === '-q' || flag === '--quiet') a.quiet = true;
    else if (flag === '--include-system-env-vars') a.includeSystemEnv = eq > 0 ? arg.slice(eq + 1) !== 'false' : true;
    else if (VALUE_FLAGS[flag]) {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new Error(`flag needs an argument: ${flag}`);
      const key = VALUE_FLAGS[flag];
      if (key === 'address') a.addressSet = true;
      if (key === 'out') a.outs.push(value);
      else if (key === 'env') {
        const [name, text] = envPair(value);
        a.env[name] = text;
      } else (a as unknown as Record<string, string>)[key as string] = value;
    } else if (arg.startsWith('-'))
      throw new Error(
        `unknown flag: ${arg} (the k6 double implements: ${Object.keys(VALUE_FLAGS).join(', ')}, -q, --include-system-env-vars)`,
      );
    else if (a.script) throw new Error(`k6 run takes one script, received "${a.script}" and "${arg}"`);
    else a.script = arg;
  }
  if (!a.script) throw new Error('k6 run needs a script: k6 run [flags] script.js');
  return a;
}

/** k6's exit code when it cannot serve its REST API on an --address given explicitly (CannotStartRESTAPI). */
const CANNOT_START_REST_API = 106;

/**
 * k6 serves its REST API on --address for the whole run. When it cannot listen it warns (default address: a
 * second run at once says "address already in use") or, for an address given explicitly, exits 106. The double
 * holds the address the same way; resolves with the exit code to end with, if any.
 */
function holdRestApi(a: RunArgs, log: (l: string) => void): Promise<{ server?: Server; exit?: number }> {
  const address = a.address;
  if (!address) return Promise.resolve({});
  const i = address.lastIndexOf(':');
  const host = address.slice(0, i) || 'localhost';
  const port = Number(address.slice(i + 1));
  return new Promise((resolve) => {
    const server = createServer((socket) => socket.destroy());
    server.once('error', (e: NodeJS.ErrnoException) => {
      const where = `${host === 'localhost' ? '127.0.0.1' : host}:${port}`;
      const why = `Error from API server: listen tcp ${where}: bind: ${e.code === 'EADDRINUSE' ? 'address already in use' : e.message}`;
      log(`${a.addressSet ? 'ERRO' : 'WARN'}[k6-node] ${why}`);
      resolve(a.addressSet ? { exit: CANNOT_START_REST_API } : {});
    });
    server.listen(port, host, () => resolve({ server }));
  });
}

/** What k6 prints first on stdout unless --quiet. */
const BANNER = '\n  k6-node: the harness test double of k6\n\n';

async function run(argv: string[]): Promise<number> {
  const log = (l: string) => process.stderr.write(`${l}\n`);
  const [cmd, ...rest] = argv;
  if (cmd === 'version') {
    process.stdout.write('k6 v0.0.0-k6-node (the harness test double, tests/tools/k6-node; not a load engine)\n');
    return 0;
  }
  if (cmd !== 'run') {
    log(`k6-node: unknown command "${cmd ?? ''}": the k6 test double implements "run" and "version" (use k6 for anything else)`);
    return USAGE_ERROR;
  }
  let a: RunArgs;
  try {
    a = parseRunArgs(rest);
  } catch (e) {
    log(`k6-node: ${(e as Error).message}`);
    return USAGE_ERROR;
  }
  // Whoever reads this run's output learns that no load engine produced it.
  log('k6-node: the harness test double of k6 (tests/tools/k6-node), not a load engine: measure with k6');
  let outputs: ReturnType<typeof parseOutputs>;
  try {
    outputs = parseOutputs(a.outs);
  } catch (e) {
    log(`ERRO[k6-node] could not create the 'csv' output: ${(e as Error).message}`);
    return USAGE_ERROR;
  }
  for (const o of outputs.ignored) log(`k6-node: output "${o}" is not available in the test double; ignored (k6 sends it)`);
  // k6 opens its output files before the run starts and creates no folder.
  const unopened = outputs.files.find((f) => f.file !== '-' && !existsSync(dirname(resolve(f.file))));
  if (unopened) {
    log(`ERRO[k6-node] open ${unopened.file}: no such file or directory`);
    return USAGE_ERROR;
  }
  if (/^(true|1)$/i.test(process.env.K6_WEB_DASHBOARD ?? ''))
    log('k6-node: K6_WEB_DASHBOARD is a k6 feature (v0.49+); the test double ignores it');
  const env: Record<string, string> = a.includeSystemEnv
    ? Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined))
    : {};
  Object.assign(env, a.env);
  if (!a.quiet) process.stdout.write(BANNER);
  const api = await holdRestApi(a, log);
  if (api.exit !== undefined) return api.exit;
  const r = await runBundle(a.script, {
    env,
    log,
    ...(a.summaryExport ? { summaryExport: a.summaryExport } : {}),
    outputs: outputs.files,
    ...(a.executionSegment ? { executionSegment: a.executionSegment } : {}),
    ...(a.executionSegmentSequence ? { executionSegmentSequence: a.executionSegmentSequence } : {}),
  });
  api.server?.close();
  process.stdout.write(r.stdout);
  return r.exitCode;
}

run(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((e: Error) => {
    process.stderr.write(`k6-node: ${e.stack ?? e.message}\n`);
    process.exit(EXIT.scriptException);
  });

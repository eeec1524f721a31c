/**
 * The k6 double's command line: the subset of `k6 run` the harness uses, with k6's exit codes.
 *   k6 run [-q|--quiet] [--summary-export f] [-o|--out json=f] [-e|--env K=V]
 *          [--execution-segment s] [--execution-segment-sequence q] [--include-system-env-vars[=false]] script.js
 *   k6 version
 * A test double (see README.md), never a load engine.
 */
import { runBundle, EXIT } from './runtime';

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
}

const VALUE_FLAGS: Record<string, string> = {
  '--summary-export': 'summaryExport',
  '-o': 'out',
  '--out': 'out',
  '-e': 'env',
  '--env': 'env',
  '--execution-segment': 'executionSegment',
  '--execution-segment-sequence': 'executionSegmentSequence',
};

export function parseRunArgs(argv: string[]): RunArgs {
  const a: RunArgs = { script: '', quiet: false, outs: [], env: {}, includeSystemEnv: true };
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
      if (key === 'out') a.outs.push(value);
      else if (key === 'env') {
        const j = value.indexOf('=');
        if (j < 1) throw new Error(`invalid -e value "${value}": expected KEY=VALUE`);
        a.env[value.slice(0, j)] = value.slice(j + 1);
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

async function run(argv: string[]): Promise<number> {
  const log = (l: string) => process.stderr.write(`${l}\n`);
  const [cmd, ...rest] = argv;
  if (cmd === 'version') {
    process.stdout.write('k6 v0.0.0-k6-node (the harness test double, tools/k6-node; not a load engine)\n');
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
  log('k6-node: the harness test double of k6 (tools/k6-node), not a load engine: measure with k6');
  let jsonOut: string | undefined;
  for (const o of a.outs) {
    const [type, arg] = [o.split('=')[0], o.slice(o.indexOf('=') + 1)];
    if (type === 'json' && o.includes('=')) jsonOut = arg;
    else log(`k6-node: output "${o}" is not available in the test double; ignored (k6 sends it)`);
  }
  if (/^(true|1)$/i.test(process.env.K6_WEB_DASHBOARD ?? ''))
    log('k6-node: K6_WEB_DASHBOARD is a k6 feature (v0.49+); the test double ignores it');
  const env: Record<string, string> = a.includeSystemEnv
    ? Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined))
    : {};
  Object.assign(env, a.env);
  const r = await runBundle(a.script, {
    env,
    log,
    ...(a.summaryExport ? { summaryExport: a.summaryExport } : {}),
    ...(jsonOut ? { jsonOut } : {}),
    ...(a.executionSegment ? { executionSegment: a.executionSegment } : {}),
    ...(a.executionSegmentSequence ? { executionSegmentSequence: a.executionSegmentSequence } : {}),
  });
  process.stdout.write(r.stdout);
  return r.exitCode;
}

run(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((e: Error) => {
    process.stderr.write(`k6-node: ${e.stack ?? e.message}\n`);
    process.exit(EXIT.scriptException);
  });

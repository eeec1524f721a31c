/**
 * `npm run bench [-- --quick | --smoke] [--json] [--out dir]`: mock throughput against a bare node:http
 * ceiling and server CPU per request at a fixed rate, for a GET and a POST, each measured in several
 * alternating rounds and reported as median and range of the per-round ratios, beside the same ratios against
 * the bare server given the mock's very request (its headers too) and those of a one-route Fastify server
 * (the framework's floor on this machine, now); certify wall time, probe
 * efficiency, bundle time and the import of a 1 MB OpenAPI document. Prints one table; --json writes
 * <out>/bench.json (default reports/). Never a CI gate. Everything else it builds or writes goes to a
 * temporary folder.
 *
 * `npm run bench -- --instructions`: instead, instructions per request under callgrind (bench/instructions.ts),
 * a figure a busy machine does not disturb.
 *
 * `npm run bench -- --profile`: instead, a CPU profile of the mock under load (Node's --cpu-prof), one for
 * the GET and one for the POST, written to <out>/profile/ with a summary of their top frames (profile.json).
 */
import { Command, InvalidArgumentError } from 'commander';
import { integer, parseOrExit } from '../config/cli-options';
import { runBench } from '../bench/measure';
import type { BenchOptions } from '../bench/bench-options';

/** Seconds of load: a number above zero (0.3 for a smoke run). */
function positiveSeconds(v: string): number {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n <= 0)
    throw new InvalidArgumentError(`--duration expects seconds above zero (e.g. 5 or 0.3), received "${v}"`);
  return n;
}

/** The command line as the run's options: presets, then the numbers given, each checked. */
function parseBenchOptions(argv: string[]): BenchOptions {
  const opts = parseOrExit(
    new Command()
      .name('bench')
      .option('--quick', 'three short rounds (about a minute)', false)
      .option('--smoke', 'the smallest run that yields every figure (for the harness tests; the figures mean little)', false)
      .option('--rounds <n>', 'alternating rounds of each ratio', integer('--rounds', 1))
      .option('--duration <s>', 'seconds of load per server and round', positiveSeconds)
      .option('--json', 'write bench.json', false)
      .option('--out <dir>', 'folder of bench.json (and of profile/ with --profile)', 'reports')
      .option(
        '--instructions',
        'only instructions per request (callgrind) of the mock, the bare server and a minimal Fastify server, GET and POST; <out>/instructions.json with --json',
        false,
      )
      .option(
        '--profile',
        'only a CPU profile of the mock under GET and POST load, its top frames printed and written to <out>/profile/',
        false,
      ),
    argv,
  ).opts<{
    quick: boolean;
    smoke: boolean;
    rounds?: number;
    duration?: number;
    json: boolean;
    out: string;
    profile: boolean;
    instructions: boolean;
  }>();
  const preset = opts.smoke ? { rounds: 2, durationS: 0.3 } : opts.quick ? { rounds: 3, durationS: 1 } : { rounds: 5, durationS: 5 };
  const rounds = opts.rounds ?? preset.rounds;
  return {
    ...opts,
    rounds,
    durationS: opts.duration ?? preset.durationS,
    figureRounds: opts.smoke ? rounds : Math.max(3, rounds),
    byAmount: opts.smoke && !opts.duration,
    profileS: opts.quick ? 3 : 10,
    probeWindowMs: opts.smoke ? 1000 : 2000,
    instructionPreset: opts.smoke ? { warm: 300, count: 100 } : opts.quick ? { warm: 5000, count: 2000 } : { warm: 20_000, count: 5000 },
  };
}

runBench(parseBenchOptions(process.argv)).catch((e: Error) => {
  console.error(`bench: ${e.message}`);
  process.exit(1);
});

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
import { parseOrExit } from '../config/cli-options';
import { benchProgram } from '../bench/bench-command';
import { runBench } from '../bench/measure';
import type { BenchOptions } from '../bench/bench-options';

/** The command line as the run's options: presets, then the numbers given, each checked. */
function parseBenchOptions(argv: string[]): BenchOptions {
  const opts = parseOrExit(benchProgram(), argv).opts<{
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

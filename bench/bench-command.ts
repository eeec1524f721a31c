/** `npm run bench`'s command line (scripts/bench.ts parses it): each option with its parser, default and description, defined once. */
import { Command, InvalidArgumentError } from 'commander';
import { described, integer } from '../config/cli-options';

/** Seconds of load: a number above zero (0.3 for a smoke run). */
const SECONDS = 'seconds above zero (e.g. 5 or 0.3)';
const positiveSeconds = described(SECONDS, (v: string): number => {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`--duration expects ${SECONDS}, received "${v}"`);
  return n;
});

/** The command line's definition. */
export function benchProgram(): Command {
  return new Command()
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
    );
}

/**
 * `npm run load -- <command> [options]`: reads the command line (runner/load-command.ts) into the run's options
 * (runner/load-options.ts), each value parsed once and checked (a value that does not parse: exit 2, naming the option), and runs the command
 * (runner/run.ts): the plan from the catalogue and the fixtures, the embedded mock in its own process for target
 * mock, k6 (K6_BIN or PATH) with its own command line; the exit code is k6's (99: thresholds crossed).
 */
import type { Command } from 'commander';
import { parseOrExit } from '../config/cli-options';
import { runLengthMs } from '../load/plan/run-length';
import { runLoad } from '../runner/run';
import { loadProgram } from '../runner/load-command';
import { githubOptions, type LoadOptions } from '../runner/load-options';
import { ConfigError, deploymentSettingsFrom } from '../config/read-config';
import { redact } from '../clients/redact';

/** A path given to --out (the reports directory before --reports-dir existed); k6 outputs look like `json=f`. */
const looksLikeDir = (v: string) => !v.includes('=') && /[/\\]|^\./.test(v);

/** The parsed command line as the run's options (--max-duration in ms; a legacy --out <dir> read as --reports-dir). */
function optionsOf(program: Command): LoadOptions {
  // Commander names an option's value after its flag: --refused-status is refusedStatus (a list of codes).
  const { maxDuration, refusedStatus, ...rest } = program.opts<
    Omit<LoadOptions, 'maxDurationMs' | 'refusedStatuses' | 'deployment'> & { maxDuration: string; refusedStatus?: number[] }
  >();
  const o: LoadOptions = {
    ...rest,
    maxDurationMs: runLengthMs(maxDuration),
    ...(refusedStatus ? { refusedStatuses: refusedStatus } : {}),
    deployment: deploymentSettingsFrom(process.env),
    ...githubOptions(process.env),
  };
  const legacy = o.out.filter(looksLikeDir);
  if (legacy.length) {
    console.error(`load: --out ${legacy[0]} read as the reports directory; use --reports-dir (--out is k6's output now)`);
    o.reportsDir = legacy[legacy.length - 1] as string;
    o.out = o.out.filter((v) => !looksLikeDir(v));
  }
  return o;
}

/** The run's options; a setting of the environment that does not parse ends the command with exit 2, before anything starts. */
function optionsOrExit(program: Command): LoadOptions {
  try {
    return optionsOf(program);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    console.error(`load: cannot start: ${redact(e.message)}`);
    process.exit(2);
  }
}

const program = parseOrExit(loadProgram());
const [name, ...inputs] = program.args as [string, ...string[]];
runLoad(name, inputs, optionsOrExit(program))
  .then((c) => process.exit(c))
  .catch((e: Error) => {
    console.error(`load: ${e.message}`);
    process.exit(1);
  });

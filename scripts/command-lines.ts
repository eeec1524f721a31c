/**
 * The command lines whose options the configuration reference lists (config/settings-reference.ts), each built as its
 * command builds it: `npm run settings:docs` writes the reference from them and tests/config/settings.spec.ts holds
 * it to them. Not a command: the commands' definitions live beside the code each runs.
 */
import type { CommandLine } from '../config/settings-reference';
import { benchProgram } from '../bench/bench-command';
import { mockProgram } from '../mock/app/command';
import { reportProgram } from '../reporting/report-command';
import { bundleDirProgram } from '../runner/bundles';
import { loadProgram } from '../runner/load-command';

/** Every command line with options (npm run load's defaults without this environment's OPENAPI). */
export function commandLines(): CommandLine[] {
  return [
    { name: 'npm run load', program: loadProgram({}) },
    { name: 'npm run mock', program: mockProgram() },
    { name: 'npm run report', program: reportProgram() },
    { name: 'npm run bench', program: benchProgram() },
    { name: 'npm run load:build', program: bundleDirProgram('npm run load:build --') },
    { name: 'npm run load:archive', program: bundleDirProgram('npm run load:archive --') },
  ];
}

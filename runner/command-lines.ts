/** The command lines whose options the configuration reference lists (config/settings-docs.ts), each as its command builds it. */
import type { CommandLine } from '../config/settings-docs';
import { mockProgram } from '../mock/app/command';
import { loadProgram } from './load-command';

/** `npm run load` (its defaults without this environment's OPENAPI) and `npm run mock`. */
export function commandLines(): CommandLine[] {
  return [
    { name: 'npm run load', program: loadProgram({}) },
    { name: 'npm run mock', program: mockProgram() },
  ];
}

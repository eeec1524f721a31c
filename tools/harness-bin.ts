/**
 * HARNESS_BIN: the folder where the harness tests' global setup bundled the command lines
 * (tests/cli-bundles.ts builds `<name>.mjs` and a `k6` executable for the double). The code that starts
 * them asks here, so a test run starts plain JavaScript and everything else starts the TypeScript.
 */
import { join } from 'node:path';
import { K6_DOUBLE_BIN } from './k6-node';

export type BundledCli = 'bench' | 'certify' | 'load' | 'mock' | 'k6-node';

/** The bundle of a command line in this run, or undefined outside a harness test run. */
export function bundledCli(name: BundledCli): string | undefined {
  const bin = process.env.HARNESS_BIN;
  return bin ? join(bin, `${name}.mjs`) : undefined;
}

/** The k6 double's executable: the bundled one in a harness test run, else tools/k6-node/bin/k6. */
export function k6DoubleBin(): string {
  const bin = process.env.HARNESS_BIN;
  return bin ? join(bin, 'k6') : K6_DOUBLE_BIN;
}

/**
 * The k6 the load tests run: K6_BIN from the environment when it is set (a real k6, to run the very same
 * tests on it), else the double.
 */
export function k6UnderTest(): string {
  return process.env.K6_BIN || k6DoubleBin();
}

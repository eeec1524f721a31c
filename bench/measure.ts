/** The benchmark's measuring: the servers' rounds, the tools' figures, the table (scripts/bench.ts reads its options). */
import { build } from 'esbuild';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Progress, BenchOptions } from './bench-options';
import { measureServers, startServers, stopServers } from './server-rounds';
import { measureTools } from './tool-figures';
import { summarise } from './result';
import { reportTable } from './report-table';
import { profileMock } from './profile-run';
import { instructionCounts } from './instruction-run';

/** The mock bundled to plain JavaScript, with its source map (the profile names frames by their source). */
async function bundleMock(work: string): Promise<string> {
  const mockJs = join(work, 'mock-server.mjs');
  await build({
    entryPoints: ['bench/mock-server.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile: mockJs,
    sourcemap: 'external',
    logLevel: 'error',
    absWorkingDir: process.cwd(),
  });
  // The bundle's package imports resolve from the project's node_modules, seen from the temporary folder.
  symlinkSync(join(process.cwd(), 'node_modules'), join(work, 'node_modules'), 'dir');
  return mockJs;
}

/** The default run: the servers' rounds, then the tools' figures, then the table. */
async function benchmark(opts: BenchOptions, mockJs: string, work: string, progress: Progress): Promise<void> {
  const servers = await startServers(mockJs);
  try {
    const measured = await measureServers(opts, servers, progress);
    await stopServers(servers);
    reportTable(opts, summarise(opts, measured, await measureTools(opts, work, progress)));
  } finally {
    await stopServers(servers);
  }
}

/** Runs the benchmark its options ask for: the default table, --profile or --instructions. */
export async function runBench(opts: BenchOptions): Promise<void> {
  const progress: Progress = (m) => process.stderr.write(`bench: ${m}\n`);
  const work = mkdtempSync(join(tmpdir(), 'bench-'));
  try {
    // The mock is bundled to plain JavaScript first: no TypeScript loader in the measured process, and
    // the pid read from /proc is the server's own.
    const mockJs = await bundleMock(work);
    if (opts.profile) await profileMock(opts, mockJs, progress);
    else if (opts.instructions) await instructionCounts(opts, mockJs, progress);
    else await benchmark(opts, mockJs, work, progress);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The figures of the harness's own tools: certify's wall time, bundling, the probe's efficiency and the OpenAPI import. */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadOpenApi } from '../openapi/import';
import { buildLoadScripts } from '../runner/bundles';
import { probeFiguresStand, unresolvedProbes } from './probe-figures';
import { writeLargeOpenApi } from './openapi-doc';
import type { Progress, BenchOptions } from './bench-options';
import { spread, type Spread } from './spread';
import { remoteCertifyFigures } from './remote-certify';
import { commandLine as cli } from './command-line';

/**
 * The k6 the probe figure runs on: the harness's k6 test double, started by path like any k6 (the figure
 * is the probe's requests, not a load engine's speed; the double is the harness tests' tool, not imported).
 */
const K6_TEST_DOUBLE = 'tests/tools/k6-node/bin/k6';

/** The smoke run certifies one check: it proves the figure is produced, not its size. */
const SMOKE_CERTIFY_GREP = 'reseller token requests as documented \\(production\\)';

function certifyWallTime(opts: BenchOptions, work: string) {
  const out = join(work, 'certify');
  const started = Date.now();
  const c = spawnSync(process.execPath, [...cli('certify'), ...(opts.smoke ? ['-g', SMOKE_CERTIFY_GREP] : [])], {
    env: { ...process.env, REPORTS_DIR: out, CI: '' },
    encoding: 'utf8',
  });
  const wallS = (Date.now() - started) / 1000;
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
    durationMs: number;
    timings: Record<string, number>;
    verdict: string;
  };
  return {
    wallS,
    suiteS: summary.durationMs / 1000,
    verdict: summary.verdict,
    perFileS: Object.fromEntries(Object.entries(summary.timings).map(([k, v]) => [k, v / 1000])),
    exit: c.status,
  };
}

function probeEfficiency(opts: BenchOptions, work: string, bundleDir: string) {
  const out = join(work, 'load');
  const ops = opts.smoke ? ['--ops', 'catalog.search'] : [];
  const p = spawnSync(
    process.execPath,
    [
      ...cli('load'),
      'probe-reset',
      '--window-ms',
      String(opts.probeWindowMs),
      '--random-limits',
      '11',
      '--reports-dir',
      out,
      '--bundle-dir',
      bundleDir,
      '--skip-build',
      ...ops,
    ],
    // The k6 test double, driven like k6: the figure is the probe's requests, not a load engine's speed.
    { encoding: 'utf8', env: { ...process.env, K6_BIN: K6_TEST_DOUBLE } },
  );
  if (!probeFiguresStand(p.status, existsSync(join(out, 'limits.json'))))
    // The probe's table (stdout) says which operation had no result and why; stderr says how k6 ended.
    throw new Error(`probe-reset exited ${p.status}:\n${p.stdout.slice(-2000)}\n${p.stderr.slice(-1000)}`);
  const manifest = JSON.parse(readFileSync(join(out, 'limits.json'), 'utf8')) as {
    operations: {
      id: string;
      advertisedLimit: number;
      resetErrorMs: number | null;
      windowMs: number | null;
      verdict?: string | null;
      uncertain?: string[] | null;
    }[];
    durationMs: number;
    requests: number;
  };
  const unresolved = unresolvedProbes(manifest.operations);
  const timeline = JSON.parse(readFileSync(join(out, 'probe-timeline.json'), 'utf8')) as {
    operations: { samples: { status: number }[] }[];
  };
  // Requests of the exhaustion phase (up to the first 429) versus the bound L+1.
  const exhaustion = timeline.operations.map((o) => o.samples.findIndex((x) => x.status === 429) + 1).reduce((a, b) => a + b, 0);
  const resetErrors = manifest.operations.map((e) => e.resetErrorMs ?? NaN);
  return {
    exit: p.status,
    unresolved,
    operations: manifest.operations.length,
    requests: manifest.requests,
    durationMs: manifest.durationMs,
    windowMs: opts.probeWindowMs,
    exhaustionRequests: exhaustion,
    exhaustionBoundLPlus1: manifest.operations.reduce((a, e) => a + e.advertisedLimit + 1, 0),
    pollRequests: manifest.requests - exhaustion,
    maxAbsWindowErrorMs: Math.max(...manifest.operations.map((e) => Math.abs((e.windowMs ?? NaN) - opts.probeWindowMs))),
    resetErrorMs: { min: Math.min(...resetErrors), max: Math.max(...resetErrors) },
  };
}

async function bundleTimes(opts: BenchOptions, bundleDir: string): Promise<Spread> {
  const ms: number[] = [];
  for (let i = 0; i < opts.figureRounds; i++) ms.push((await buildLoadScripts(bundleDir)).ms);
  return spread(ms);
}

async function openApiImportTimes(opts: BenchOptions, work: string) {
  const file = join(work, 'big-openapi.yaml');
  writeLargeOpenApi(file);
  const ms: number[] = [];
  await loadOpenApi(file); // warm-up: the parser's own modules load once
  for (let i = 0; i < opts.figureRounds; i++) {
    const started = performance.now();
    await loadOpenApi(file);
    ms.push(performance.now() - started);
  }
  return { sizeMb: statSync(file).size / 1024 / 1024, ms: spread(ms) };
}

/** The figures of the harness's own tools: certify, bundling, the probe and the OpenAPI import. */
export async function measureTools(opts: BenchOptions, work: string, progress: Progress) {
  progress('certify wall time on the embedded mock');
  const certify = certifyWallTime(opts, work);
  progress('certify wall time of the mock as a deployment 0, 20 and 150 ms away');
  const remoteCertify = await remoteCertifyFigures(opts, work);
  progress('bundle times');
  const bundleDir = join(work, 'bundles');
  const bundleMs = await bundleTimes(opts, bundleDir);
  progress(`probe efficiency (probe-reset in the k6 test double, window ${opts.probeWindowMs} ms, random limits)`);
  const probe = probeEfficiency(opts, work, bundleDir);
  progress('OpenAPI import of a 1 MB document');
  const openapiImport = await openApiImportTimes(opts, work);
  return { certify, remoteCertify, probe, bundleMs, openapiImport };
}

/**
 * `npm run load -- <script> [--target mock|sandbox|<url>] [--ops id,id] [--window-ms N] [--random-limits <seed>]`
 * Builds the run plan from the catalogue and the fixtures, starts the embedded mock for target mock,
 * and runs the bundled k6 script with k6 (K6_BIN or PATH). `--runtime node` runs it in the k6 test
 * double instead (CI only: not a load engine).
 */
import { Command } from 'commander';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { allOperations, familyBase, fillPath, limitFor, type EnvironmentName, type Operation } from '../catalogue';
import { knownIds, requestBody, validQuery } from '../fixtures';
import { startMock, spawnMock, DEFAULT_APPS } from '../mock';
import { buildLoadScripts, LOAD_SCRIPTS, OUT_DIR } from './load-build';
import { createBodyGenerator } from '../openapi/mock-bodies';
import type { Plan, PlannedOperation } from '../load/scripts/common';

export const K6_HELP = [
  'k6 was not found: set K6_BIN to the k6 binary or put k6 on PATH.',
  '  Install: https://grafana.com/docs/k6/latest/set-up/install-k6/',
  '  Docker:  docker run --rm -i --network host -v "$PWD:/work" -w /work grafana/k6 run dist/load/<script>.js',
  '  GitHub Actions: grafana/setup-k6-action',
].join('\n');

export function findK6(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.K6_BIN) return existsSync(env.K6_BIN) ? env.K6_BIN : undefined;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    const p = join(dir, 'k6');
    if (dir && existsSync(p)) return p;
  }
  return undefined;
}

/** Seeded random limits per operation, independent of the order of the list (mulberry32 of seed and id). */
export function randomLimits(ops: readonly Operation[], seed: number, min = 3, max = 12): Record<string, number> {
  const draw = (id: string) => {
    let h = seed >>> 0;
    for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 2654435761) >>> 0;
    let t = (h + 0x6d2b79f5) >>> 0;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Object.fromEntries(ops.map((o) => [o.id, min + Math.floor(draw(o.id) * (max - min + 1))]));
}

export function buildPlan(o: {
  baseUrl: string;
  environment: EnvironmentName;
  windowMs: number;
  ops: Operation[];
  limits: Record<string, number>;
  outDir: string;
  budget: number;
  seed: number;
}): Plan {
  const ids = knownIds(o.seed);
  const operations: PlannedOperation[] = o.ops.map((op) => {
    const body = requestBody(op.id, o.seed);
    return {
      id: op.id,
      family: op.family,
      method: op.method,
      pathTemplate: op.path,
      path: `${familyBase(op.family, o.environment)}${fillPath(op.path, ids)}`,
      query: new URLSearchParams(validQuery(op.id, o.seed)).toString(),
      body: body === undefined ? (op.jsonBody ? '{}' : null) : JSON.stringify(body),
      catalogueLimit: limitFor(op, o.limits),
    };
  });
  return { baseUrl: o.baseUrl, environment: o.environment, windowMs: o.windowMs, outDir: o.outDir, budget: o.budget, operations };
}

async function main(): Promise<number> {
  const program = new Command()
    .name('npm run load --')
    .argument('<script>', `one of ${LOAD_SCRIPTS.join(', ')}`)
    .option('--target <target>', 'mock, sandbox (needs BASE_URL) or a base URL', 'mock')
    .option('--environment <env>', 'production or sandbox', 'production')
    .option('--ops <ids>', 'comma-separated operation ids (default: all; probes skip state-changing ones on non-mock targets)')
    .option('--window-ms <n>', 'window of the embedded mock, ms', '60000')
    .option('--random-limits <seed>', 'embedded mock: seeded random per-operation limits (3..12), for probe tests')
    .option('--budget <n>', 'most requests the run may send', '5000')
    .option('--allow-quota-spend', 'allow probes against a non-mock target (they spend the app quota for a window)', false)
    .option('--allow-production', 'allow a production target', false)
    .option('--runtime <runtime>', 'k6 (default) or node: the k6 test double, for CI only', 'k6')
    .option('--out <dir>', 'reports directory', 'reports/load')
    .option('--openapi <file>', 'embedded mock: answer with bodies from this OpenAPI document (default: OPENAPI)', process.env.OPENAPI)
    .parse();
  const [script] = program.args as [string];
  const o = program.opts<{
    target: string;
    environment: EnvironmentName;
    ops?: string;
    windowMs: string;
    randomLimits?: string;
    budget: string;
    allowQuotaSpend: boolean;
    allowProduction: boolean;
    runtime: string;
    openapi?: string;
    out: string;
  }>();
  if (!(LOAD_SCRIPTS as readonly string[]).includes(script)) {
    console.error(`load: unknown script "${script}"; expected one of ${LOAD_SCRIPTS.join(', ')}`);
    return 2;
  }
  const isProbe = script.startsWith('probe');
  const isMock = o.target === 'mock';
  if (!isMock && isProbe && !o.allowQuotaSpend) {
    console.error('load: probes spend the app quota of every probed operation for a window; pass --allow-quota-spend to confirm');
    return 2;
  }
  if ((o.target === 'production' || o.environment === 'production') && !isMock && !o.allowProduction) {
    console.error('load: a production target needs --allow-production');
    return 2;
  }
  const k6 = o.runtime === 'k6' ? findK6() : undefined;
  if (o.runtime === 'k6' && !k6) {
    console.error(`load: ${K6_HELP}`);
    return 3;
  }
  const all = allOperations();
  let ops = o.ops
    ? o.ops.split(',').map(
        (id) =>
          all.find((x) => x.id === id.trim()) ??
          (() => {
            throw new Error(`unknown operation id ${id}; known: ${all.map((x) => x.id).join(', ')}`);
          })(),
      )
    : all;
  if (!isMock) ops = ops.filter((x) => x.readOnly);
  const windowMs = Number(o.windowMs);
  const limits = o.randomLimits !== undefined ? randomLimits(ops, Number(o.randomLimits)) : {};
  let mock: { url: string; close(): Promise<void> } | undefined;
  let baseUrl = o.target === 'sandbox' ? process.env.BASE_URL : o.target;
  const env: Record<string, string> = { ...(process.env as Record<string, string>) };
  if (isMock) {
    // The k6 double blocks this thread while it waits for answers: the mock then runs in its own process.
    const responseBody = o.openapi && o.runtime !== 'node' ? await createBodyGenerator(o.openapi, 1) : undefined;
    mock =
      o.runtime === 'node'
        ? await spawnMock({ windowMs, limits, control: true, ...(o.openapi ? { openapi: o.openapi } : {}) })
        : await startMock({ windowMs, limits, control: true, ...(responseBody ? { responseBody } : {}) });
    baseUrl = mock.url;
    const r = DEFAULT_APPS.find((a) => a.family === 'reseller');
    const v = DEFAULT_APPS.find((a) => a.family === 'vendor');
    Object.assign(env, {
      RESELLER_CLIENT_ID: r?.clientId,
      RESELLER_CLIENT_SECRET: r?.clientSecret,
      VENDOR_CLIENT_ID: v?.clientId,
      VENDOR_CLIENT_SECRET: v?.clientSecret,
    });
  }
  if (!baseUrl) {
    console.error('load: --target sandbox needs BASE_URL');
    return 2;
  }
  try {
    // Bundles prepared by the caller (LOAD_BUNDLE_DIR) are used as they are: parallel runs never rebuild them.
    const built = process.env.LOAD_BUNDLE_DIR && existsSync(join(OUT_DIR, `${script}.js`)) ? { ms: 0 } : await buildLoadScripts();
    mkdirSync(o.out, { recursive: true });
    const plan = buildPlan({
      baseUrl,
      environment: o.environment,
      windowMs: isMock ? windowMs : 60_000,
      ops,
      limits,
      outDir: o.out,
      budget: Number(o.budget),
      seed: 1,
    });
    env.PLAN = JSON.stringify(plan);
    console.log(
      `load: ${script} on ${isMock ? `the embedded mock (window ${windowMs} ms)` : baseUrl}, ${ops.length} operations, bundles built in ${built.ms.toFixed(0)} ms`,
    );
    const bundle = join(OUT_DIR, `${script}.js`);
    if (o.runtime === 'node') {
      const { runBundle } = await import('../tools/k6-node/runtime');
      const r = await runBundle(bundle, { env });
      process.stdout.write(r.stdout);
    } else {
      const r = spawnSync(k6 as string, ['run', '--quiet', bundle], { stdio: 'inherit', env });
      if (r.status !== 0) return r.status ?? 1;
    }
    if (isProbe && existsSync(join(o.out, 'limits.json'))) {
      const m = JSON.parse(readFileSync(join(o.out, 'limits.json'), 'utf8')) as { durationMs: number; requests: number };
      console.log(`load: manifest ${join(o.out, 'limits.json')} (${m.requests} requests in ${m.durationMs} ms)`);
    }
    return 0;
  } finally {
    await mock?.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main()
    .then((c) => process.exit(c))
    .catch((e: Error) => {
      console.error(`load: ${e.message}`);
      process.exit(1);
    });
}

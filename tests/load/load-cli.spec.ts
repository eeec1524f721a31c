/**
 * `npm run load` on its default target (the embedded mock, in its own process) with the k6 under test as K6_BIN
 * (the double, or the real k6 K6_BIN names): exactly the path a real k6 takes. Time is compressed with short
 * windows and durations.
 */
import { test, expect } from '@playwright/test';
import { existsSync, readFileSync, writeFileSync, chmodSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NO_RESULT } from '../../runner/outcome';
import { load, run } from './run';

const ARCHIVE = fileURLToPath(new URL('../../scripts/load-archive.ts', import.meta.url));

const READ_ONLY = 'catalog.search,orders.search,invoices.details,quotes.search';

test.describe('npm run load with k6 as K6_BIN', () => {
  test('should end probe-limits on the default target with the manifest', async () => {
    const dir = test.info().outputPath();
    const r = await load(dir, ['probe-limits', '--random-limits', '5', '--ops', READ_ONLY]);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(r.stdout).toMatch(/on the embedded mock http:\/\/127\.0\.0\.1:\d+/);
    expect(r.stdout.trim().split('\n').pop()).toMatch(/^load: manifest .*limits\.json \(\d+ requests in \d+ ms\)$/);
    const m = JSON.parse(readFileSync(join(dir, 'reports', 'limits.json'), 'utf8')) as { operations: { observedLimit: number }[] };
    expect(m.operations).toHaveLength(4);
    for (const e of m.operations) expect(e.observedLimit).toBeGreaterThanOrEqual(3);
  });

  test('should pass smoke on the default target and write a JUnit report of its thresholds', async () => {
    const dir = test.info().outputPath();
    const r = await load(dir, ['smoke']);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(r.stdout).toMatch(/smoke: 31 checks passed, 0 failed; ok checks rate==1/);
    const junit = readFileSync(join(dir, 'reports', 'smoke-junit.xml'), 'utf8');
    expect(junit).toMatch(/<testsuites tests="1" failures="0"/);
  });

  test('should print the capacity table per operation, write the result and exit 0 under the limits', async () => {
    const dir = test.info().outputPath();
    // Every operation of the default plan, short: the plan must not make its own operations fail (a cancel and a modify of one order).
    const r = await load(dir, ['capacity', '--duration', '2s']);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(r.stdout).toMatch(/load: capacity plan: 31 operations at 50 % of their limits per 60000 ms window for 2s \(0\.50\/s to \d+/);
    expect(r.stderr).not.toContain('capacity plan over a limit');
    expect(r.stdout).toMatch(/operation\s+target\s+achieved\/s\s+p50 ms\s+p95 ms\s+p99 ms\s+429s\s+errors\s+thresholds/);
    for (const id of READ_ONLY.split(','))
      // The exact target: 50 % of 60 a minute is 0.50/s.
      expect(r.stdout).toMatch(new RegExp(`${id.replace('.', '\\.')}\\s+0\\.50/s\\s+\\d+\\.\\d+.*ok http_reqs count>=\\d+`));
    const file = join(dir, 'reports', 'capacity.json');
    expect(r.stdout).toContain(`load: capacity passed: 31 of 31 operations within their thresholds; result ${file}`);
    const result = JSON.parse(readFileSync(file, 'utf8')) as {
      verdict: string;
      operations: {
        targetRate: number;
        achievedRate: number;
        p95Ms: number;
        status429: number;
        errors: number;
        thresholds: { ok: boolean }[];
      }[];
    };
    expect(result.verdict).toBe('passed');
    for (const o of result.operations) {
      expect(o.achievedRate).toBeGreaterThanOrEqual(0.9 * o.targetRate);
      expect(o.p95Ms).toBeGreaterThan(0);
      expect(o.status429).toBe(0);
      expect(o.errors).toBe(0);
      expect(o.thresholds).toHaveLength(4);
    }
  });

  test('should exit 99 with the crossed thresholds when capacity runs above the limits', async () => {
    const dir = test.info().outputPath();
    const out = join(dir, 'points.json');
    // 4 times the limit of 12 per 2 s window: even a machine too busy to send a third of the schedule goes over it.
    const r = await load(dir, [
      'capacity',
      '--window-ms',
      '2000',
      '--random-limits',
      '7',
      '--duration',
      '2s',
      '--fraction',
      '4',
      '--ops',
      'catalog.search',
      '--out',
      `json=${out}`,
    ]);
    expect(r.code, r.stderr + r.stdout).toBe(99);
    // Said before the run: 4 times the limit cannot pass.
    expect(r.stderr).toMatch(
      /load: capacity plan over a limit: catalog\.search: 24\.00\/s \(24 every 1000 ms\) puts up to 49 calls in one window of 2000 ms, over its limit of 12/,
    );
    expect(r.stdout).toMatch(/catalog\.search.*FAILED capacity_429 count==0/);
    expect(r.stdout).toMatch(/load: capacity failed: 0 of 1 operations/);
    const result = JSON.parse(readFileSync(join(dir, 'reports', 'capacity.json'), 'utf8')) as { operations: { status429: number }[] };
    expect(result.operations[0]?.status429).toBeGreaterThan(0);
    expect(readFileSync(join(dir, 'reports', 'capacity-junit.xml'), 'utf8')).toMatch(
      /<failure message="threshold count==0 on capacity_429\{operation:catalog\.search\} crossed"/,
    );
    // --out reached k6: the double wrote its JSON lines.
    expect(existsSync(out)).toBe(true);
  });

  test('should stop k6 after --max-duration with k6 exit code 105, leaving no temporary files', async () => {
    const dir = test.info().outputPath();
    // The processes' temporary folder, watched: a stopped run must not leave its files behind.
    const tmp = test.info().outputPath('tmp');
    mkdirSync(tmp);
    const started = Date.now();
    const r = await load(dir, ['capacity', '--duration', '5m', '--max-duration', '2s', '--ops', 'catalog.search'], { TMPDIR: tmp });
    expect(r.code, r.stderr + r.stdout).toBe(105);
    expect(r.stderr).toMatch(/k6 ran longer than 2 s \(--max-duration\); stopping it/);
    // Far below the 5 minutes the run asked for, whatever the machine's load.
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(readdirSync(tmp), `left in the temporary folder ${tmp}`).toEqual([]);
  });

  test('should hand k6 its command line and the environment k6 reads (outputs, dashboard, segment, plan)', async () => {
    const dir = test.info().outputPath();
    // A stand-in k6 that records what it was given.
    const fake = join(dir, 'k6');
    writeFileSync(fake, `#!/bin/sh\nprintf '%s\\n' "$@" > "${dir}/args"\nenv > "${dir}/env"\nexit 0\n`);
    chmodSync(fake, 0o755);
    const r = await load(
      dir,
      [
        'smoke',
        '--out',
        'json=points.json',
        '--out',
        'experimental-prometheus-rw',
        '--web-dashboard-export',
        'report.html',
        '--execution-segment',
        '0:1/2',
      ],
      { K6_BIN: fake },
    );
    expect(r.code, r.stderr + r.stdout).toBe(0);
    const args = readFileSync(join(dir, 'args'), 'utf8').trim().split('\n');
    expect(args).toEqual([
      'run',
      '--quiet',
      // No REST API: two runs at once would contend for k6's port 6565 (an explicit address in use is exit 106).
      '--address',
      '',
      '--summary-export',
      join(dir, 'reports', 'smoke-k6-summary.json'),
      '--out',
      'json=points.json',
      '--out',
      'experimental-prometheus-rw',
      '--execution-segment',
      '0:1/2',
      expect.stringMatching(/smoke\.js$/),
    ]);
    const env = readFileSync(join(dir, 'env'), 'utf8');
    expect(env).toMatch(/^K6_WEB_DASHBOARD=true$/m);
    expect(env).toMatch(/^K6_WEB_DASHBOARD_EXPORT=report\.html$/m);
    expect(env).toMatch(/^K6_WEB_DASHBOARD_PORT=-1$/m);
    expect(env).toMatch(/^PLAN=\{"baseUrl":"http:\/\/127\.0\.0\.1:\d+"/m);
  });

  test('should exit non-zero with the reason when k6 ends with 0 but the probe wrote no manifest', async () => {
    const dir = test.info().outputPath();
    // A k6 that ends well and writes nothing: what a real k6 does when handleSummary names a missing folder.
    const fake = join(dir, 'k6');
    writeFileSync(fake, '#!/bin/sh\nexit 0\n');
    chmodSync(fake, 0o755);
    const [probe, capacity] = await Promise.all([
      load(join(dir, 'probe'), ['probe-limits', '--ops', 'catalog.search', '--execution-segment', '0:1/2'], { K6_BIN: fake }),
      load(join(dir, 'capacity'), ['capacity', '--ops', 'catalog.search'], { K6_BIN: fake }),
    ]);
    expect(probe.code, probe.stderr + probe.stdout).toBe(NO_RESULT);
    expect(probe.stderr).toContain(`load: the probe wrote no manifest in ${join(dir, 'probe', 'reports', 'segment-0-1_2')} (k6 exit 0)`);
    // The segment's folder exists before k6 starts: k6 writes into existing folders only.
    expect(existsSync(join(dir, 'probe', 'reports', 'segment-0-1_2'))).toBe(true);
    expect(capacity.code, capacity.stderr + capacity.stdout).toBe(NO_RESULT);
    expect(capacity.stderr).toContain('load: capacity wrote no result in');
  });

  test('should archive every script with k6 archive, and capacity only with the plan its scenarios come from', async () => {
    const dir = test.info().outputPath();
    // A stand-in k6 that writes the archive it is asked for (the double has no `archive`).
    const fake = join(dir, 'k6');
    writeFileSync(fake, `#!/bin/sh\n[ "$1" = archive ] || exit 255\nout="$4"\nshift 4\nprintf '%s\\n' "$@" > "$out"\n`);
    chmodSync(fake, 0o755);
    const archive = (env: NodeJS.ProcessEnv) =>
      run(process.execPath, ['--import', 'tsx', ARCHIVE, '--bundle-dir', join(dir, 'bundles')], { K6_BIN: fake, PLAN: '', ...env });
    const without = await archive({});
    expect(without.code, without.stderr + without.stdout).toBe(0);
    for (const s of ['probe-limits', 'probe-reset', 'verify-pacing', 'smoke'])
      expect(without.stdout).toContain(`load:archive: ${join(dir, 'bundles', `${s}.tar`)}`);
    expect(without.stdout).toMatch(/load:archive: capacity not archived: its scenarios are built from the plan, .*set PLAN/);
    expect(existsSync(join(dir, 'bundles', 'capacity.tar'))).toBe(false);
    const withPlan = await archive({ PLAN: '{"operations":[]}' });
    expect(withPlan.code, withPlan.stderr).toBe(0);
    // k6 archive reads no system environment: the plan goes in with -e (capacity only; the probes read theirs when run).
    expect(
      readFileSync(join(dir, 'bundles', 'capacity.tar'), 'utf8')
        .split('\n')
        .slice(0, 2),
    ).toEqual(['-e', 'PLAN={"operations":[]}']);
    expect(readFileSync(join(dir, 'bundles', 'smoke.tar'), 'utf8')).not.toContain('PLAN=');
  });

  test('should say how to install k6 when K6_BIN is not an executable', async () => {
    const dir = test.info().outputPath();
    const notExecutable = join(dir, 'k6');
    writeFileSync(notExecutable, 'not a program');
    chmodSync(notExecutable, 0o644);
    const r = await load(dir, ['probe-limits'], { K6_BIN: notExecutable });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/k6 was not found: set K6_BIN/);
    expect(r.stderr).toMatch(/install-k6/);
    expect(r.stderr).toContain(`K6_BIN is "${notExecutable}", which is not an executable file`);
  });
});

/**
 * The detection matrix: the contract suite runs against the conforming mock and against the mock in
 * every drift mode (one Playwright run, one project per mode). Every mode must be caught (its
 * expected checks fail for the right reason, or its finding is recorded) and the conforming mock
 * must pass everything. Writes reports/detection-matrix.json and .md.
 */
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DRIFT_MODES } from '../../mock/drift';
import { DETECTIONS } from '../../contracts/support/detection-matrix';
import type { Finding } from '../../catalogue';

interface JsonTest {
  projectName: string;
  status: 'expected' | 'unexpected' | 'flaky' | 'skipped';
  annotations: { type: string; description?: string }[];
  results: { errors: { message?: string }[]; annotations?: { type: string; description?: string }[] }[];
}
interface JsonSpec {
  title: string;
  tests: JsonTest[];
}
interface JsonSuite {
  title: string;
  specs: JsonSpec[];
  suites?: JsonSuite[];
}

interface Row {
  mode: string;
  kind: string;
  breaks: string;
  ran: number;
  failed: string[];
  findings: string[];
  detected: boolean;
  why: string;
}

test('should catch every drift mode of the mock and pass the conforming mock', async () => {
  test.setTimeout(600_000);
  const out = mkdtempSync(join(tmpdir(), 'matrix-'));
  const started = Date.now();
  const run = spawnSync(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', '-c', 'playwright.config.ts'], {
    env: { ...process.env, DRIFT_MATRIX: '1', REPORTS_DIR: out, TARGET: 'mock', CI: '' },
    encoding: 'utf8',
    timeout: 540_000,
  });
  const seconds = (Date.now() - started) / 1000;
  const report = JSON.parse(readFileSync(join(out, 'matrix-results.json'), 'utf8')) as { suites: JsonSuite[] };
  const byProject = new Map<string, { title: string; t: JsonTest }[]>();
  const walk = (s: JsonSuite) => {
    for (const sp of s.specs)
      for (const t of sp.tests) byProject.set(t.projectName, [...(byProject.get(t.projectName) ?? []), { title: sp.title, t }]);
    for (const c of s.suites ?? []) walk(c);
  };
  report.suites.forEach(walk);

  const findingsOf = (entries: { t: JsonTest }[]): Finding[] =>
    entries.flatMap(({ t }) =>
      [...t.annotations, ...t.results.flatMap((r) => r.annotations ?? [])]
        .filter((a) => a.type === 'finding')
        .map((a) => JSON.parse(a.description ?? '{}') as Finding),
    );
  const errorOf = (t: JsonTest) => t.results.flatMap((r) => r.errors.map((e) => e.message ?? '')).join('\n');

  const conforming = byProject.get('conforming') ?? [];
  const falseFailures = conforming
    .filter(({ t }) => t.status === 'unexpected')
    .map(({ title, t }) => `${title}: ${errorOf(t).split('\n')[0]}`);

  const rows: Row[] = DRIFT_MODES.map((m) => {
    const d = DETECTIONS[m.id];
    const entries = byProject.get(m.id) ?? [];
    const failedEntries = entries.filter(({ t }) => t.status === 'unexpected');
    const findings = findingsOf(entries);
    let detected = false;
    let why: string;
    if (!d) why = 'no detection declared';
    else if (d.finding) {
      const want = d.finding;
      const f = findings.find(
        (x) => x.id.split('@')[0] === want.id && x.observed === want.observed && (!want.evidence || want.evidence.test(x.evidence)),
      );
      detected = !!f && failedEntries.length === 0;
      why = f
        ? failedEntries.length
          ? `finding recorded but ${failedEntries.length} check(s) failed`
          : `finding ${f.id}=${f.observed}`
        : `finding ${want.id}=${want.observed} not recorded`;
    } else {
      const expected = failedEntries.filter(({ title }) => d.mustFail?.test(title));
      const rightReason = expected.filter(({ t }) => d.reason?.test(errorOf(t)));
      detected = rightReason.length > 0;
      why = detected
        ? `${rightReason.length} check(s) failed naming the fact`
        : expected.length
          ? `failed for another reason: ${errorOf((expected[0] as { t: JsonTest }).t).slice(0, 300)}`
          : `no expected check failed (${entries.length} ran)`;
    }
    return {
      mode: m.id,
      kind: m.kind,
      breaks: m.breaks,
      ran: entries.length,
      failed: failedEntries.map(({ title }) => title),
      findings: [...new Set(findings.map((f) => `${f.id.split('@')[0]}=${f.observed}`))],
      detected,
      why,
    };
  });

  const detectedCount = rows.filter((r) => r.detected).length;
  const result = {
    generatedAt: new Date().toISOString(),
    durationS: Math.round(seconds * 10) / 10,
    modes: rows.length,
    detected: detectedCount,
    detectionRate: detectedCount / rows.length,
    conformingChecks: conforming.length,
    falseFailures,
    rows,
  };
  mkdirSync('reports', { recursive: true });
  writeFileSync('reports/detection-matrix.json', JSON.stringify(result, null, 2));
  const md = [
    '# Detection matrix',
    '',
    `${detectedCount}/${rows.length} drift modes detected; ${falseFailures.length} false failures on the conforming mock (${conforming.length} checks); ${result.durationS} s.`,
    '',
    '| mode | kind | breaks | checks run | failed checks | findings | detected |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.mode} | ${r.kind} | ${r.breaks} | ${r.ran} | ${r.failed.length ? r.failed.map((f) => f.replace(/\|/g, '/')).join('<br>') : '—'} | ${r.findings.join('<br>') || '—'} | ${r.detected ? 'yes' : `NO: ${r.why.replace(/\|/g, '/')}`} |`,
    ),
    '',
  ].join('\n');
  writeFileSync('reports/detection-matrix.md', md);
  test.info().annotations.push({ type: 'matrix', description: `${detectedCount}/${rows.length} detected in ${result.durationS} s` });

  expect(run.error, `the matrix run could not start: ${run.error?.message}`).toBeUndefined();
  expect(conforming.length, 'the conforming project ran the whole suite').toBeGreaterThan(100);
  expect(falseFailures, 'the conforming mock must pass every check').toEqual([]);
  const missed = rows.filter((r) => !r.detected).map((r) => `${r.mode}: ${r.why}`);
  expect(missed, 'every drift mode must be detected (see reports/detection-matrix.md)').toEqual([]);
});

import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { checkKey, errorAnnotations, stepSummaryMarkdown } from '../../contracts/reporter/github-output';
import type { GroupCounts } from '../../contracts/reporter/certify-summary';
import { sampleFailedCheck, sampleSummary } from '../reporting/sample';

const failed = sampleFailedCheck('Broken fact: a page holds at most pageSize entries\nReceived: 25 | sent client_secret=canary-in-error');
const counts = (over: Partial<GroupCounts> = {}): GroupCounts => ({
  passed: 3,
  failed: 0,
  blocked: 0,
  skipped: 0,
  outOfScope: 0,
  notApplicable: 0,
  findings: 0,
  ...over,
});

test.describe('GitHub Actions output', () => {
  const summary = () => {
    const s = sampleSummary({ verdict: 'failed' });
    s.tests.push(failed);
    return s;
  };

  test('should write the verdict, the groups table, each failed check with its commands, and the findings as Markdown', () => {
    const md = stepSummaryMarkdown(
      summary(),
      new Map([
        ['paging', counts({ failed: 1 })],
        ['tokens', counts()],
      ]),
    );
    expect(md).toMatch(/^## Certification of embedded mock \(production, sandbox\): ❌ FAILED$/m);
    expect(md).toContain('| group | passed | failed | blocked | not run | out of scope | n/a | findings |');
    expect(md).toContain('| paging | 3 | 1 | 0 | 0 | 0 | 0 | 0 |');
    expect(md).toContain(`### ❌ ${failed.title} (\`paging.spec.ts\`)`);
    expect(md).toContain(`\`\`\`bash\n${failed.reproduction?.curls[0]}\n\`\`\``);
    expect(md).toContain('| ratelimit.reset-unit@production | epoch |');
  });

  test('should annotate each failed check at its line, its message on one line and redacted', () => {
    const lines = errorAnnotations(summary(), new Map([[checkKey(failed), { file: 'contracts/paging.spec.ts', line: 42 }]]));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^::error file=contracts\/paging\.spec\.ts,line=42,title=should page catalog\.search as published \(production\)::Broken fact/,
    );
    expect(lines[0]).not.toContain('\n');
    expect(lines[0]).toContain('%0ASend it again:%0Acurl -sS -i');
    expect(lines[0]).not.toContain('canary-in-error');
  });

  test("should have the shipped workflow keep exchanges.har with the reports, whatever the run's verdict", () => {
    const workflow = parse(readFileSync('.github/workflows/certify-sandbox.yml', 'utf8')) as {
      jobs: { certify: { steps: { uses?: string; if?: string; with?: { path?: string } }[] } };
    };
    const upload = workflow.jobs.certify.steps.find((s) => s.uses?.startsWith('actions/upload-artifact'));
    expect(upload?.if).toBe('always()');
    const paths = String(upload?.with?.path ?? '')
      .split('\n')
      .map((p) => p.trim())
      .filter(Boolean);
    expect(
      paths.some((p) => 'reports/exchanges.har'.startsWith(p.endsWith('/') ? p : `${p}/`) || p === 'reports/exchanges.har'),
      `${paths.join(', ')} holds reports/exchanges.har`,
    ).toBe(true);
  });
});

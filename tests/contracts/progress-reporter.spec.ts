import { test, expect } from '@playwright/test';
import type { FullConfig, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import ProgressReporter, { failureLines } from '../../contracts/reporter/progress-reporter';
import { ANNOTATION } from '../../contracts/record/annotations';

/** A finished test as Playwright hands it to a reporter (the fields the reporter reads). */
function finished(
  file: string,
  title: string,
  status: TestResult['status'],
  checks: { title: string; status: string; error?: string }[] = [],
) {
  const testCase = {
    title,
    location: { file: `/repo/contracts/${file}`, line: 7, column: 1 },
    tags: ['@tokens', '@catalog.search'],
    annotations: checks.map((c) => ({ type: ANNOTATION.checkResult, description: JSON.stringify({ durationMs: 1, ...c }) })),
    retries: 0,
  } as unknown as TestCase;
  const result = {
    status,
    duration: 5,
    errors: status === 'failed' ? [{ message: 'Expected: 4xx\nReceived: 200' }] : [],
    retry: 0,
  } as unknown as TestResult;
  return { testCase, result };
}

/** What the reporter prints for these tests, ended in this order. */
function printed(tests: ReturnType<typeof finished>[]): string {
  const reporter = new ProgressReporter();
  reporter.onBegin({} as FullConfig, { allTests: () => tests.map((t) => t.testCase) } as unknown as Suite);
  const out: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string) => out.push(chunk) > 0) as typeof process.stdout.write;
  try {
    for (const t of tests) reporter.onTestEnd(t.testCase, t.result);
  } finally {
    process.stdout.write = write;
  }
  return out.join('');
}

test('should print one line per check group with its counts and its failed checks, and no tags', () => {
  const text = printed([
    finished('tokens.spec.ts', 'should issue a reseller token (production) @tokens', 'passed'),
    finished('operations.spec.ts', 'should answer a valid call of each operation (production) @catalog.search @orders.search', 'failed', [
      { title: 'should answer a valid catalog.search call (production) @catalog.search', status: 'passed' },
      {
        title: 'should answer a valid orders.search call (production)',
        status: 'failed',
        error: 'Broken fact: 2xx\nExpected: 200\nReceived: 500\nmore',
      },
      { title: 'should answer a valid deals.search call (production)', status: 'skipped', reason: 'no deal' } as never,
    ]),
    finished('tokens.spec.ts', 'should reject a wrong client secret (production) @tokens', 'failed'),
  ]);
  expect(text.split('\n').filter(Boolean)).toEqual([
    '✘ answer a valid call of each operation (production): 3 checks, 1 failed, 1 not run',
    '    ✘ should answer a valid orders.search call (production)',
    '        Broken fact: 2xx',
    '        Expected: 200',
    '        Received: 500',
    '✘ tokens: 2 checks, 1 failed',
    '    ✘ should reject a wrong client secret (production)',
    '        Expected: 4xx',
    '        Received: 200',
  ]);
  expect(text).not.toContain('@');
});

test('should print every failure in full at the end, numbered, without tags', () => {
  expect(
    failureLines([
      { file: 'tokens.spec.ts', title: 'should reject a wrong secret (production) @tokens', errors: ['Expected: 4xx\nReceived: 200'] },
    ]),
  ).toEqual([
    '',
    'Failures:',
    '  1) tokens.spec.ts › should reject a wrong secret (production)',
    '     Expected: 4xx',
    '     Received: 200',
    '',
  ]);
  expect(failureLines([])).toEqual([]);
});

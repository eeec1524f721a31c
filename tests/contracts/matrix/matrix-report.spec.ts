/**
 * The detection matrix's verdicts come from the checks' labels in Playwright's JSON report, never from
 * titles or failure texts: rewording a check's message keeps its verdict, and a failure of another
 * check does not count.
 */
import { test, expect } from '@playwright/test';
import { entriesByMode, judgeMode, type JsonReport } from './matrix-report';

/** A report of one grouped token test in drift mode token.type-not-bearer, whose `shape` check failed with `message`. */
function tokenReport(
  message: string,
  failedCheck = 'shape',
  title = 'should answer the reseller token requests as documented (production)',
): JsonReport {
  const result = (check: string, status: string) => ({
    type: 'check-result',
    description: JSON.stringify({
      title: `${check} check`,
      operation: 'token.reseller',
      environment: 'production',
      check,
      status,
      durationMs: 1,
      error: status === 'failed' ? message : undefined,
    }),
  });
  return {
    suites: [
      {
        title: 'matrix-suite.ts',
        specs: [
          {
            title,
            tests: [
              {
                annotations: [{ type: 'drift-mode', description: 'token.type-not-bearer' }],
                results: [
                  {
                    status: 'failed',
                    annotations: [
                      result('token', 'passed'),
                      result(failedCheck, 'failed'),
                      result(failedCheck === 'shape' ? 'headers' : 'shape', 'passed'),
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
  };
}

const verdict = (report: JsonReport) => judgeMode('token.type-not-bearer', entriesByMode(report).get('token.type-not-bearer') ?? []);

test("should keep a check's verdict when its failure message and title are reworded", () => {
  const before = verdict(tokenReport('the token response with access_token: token_type must be equal to constant'));
  const after = verdict(
    tokenReport(
      'Broken fact: a token is of type Bearer\nExpected: Bearer\nReceived: mac',
      'shape',
      'should issue reseller tokens as the spec says (production)',
    ),
  );
  expect(before.detected, before.why).toBe(true);
  expect(after).toEqual(before);
});

test('should not count the failure of a check the detection does not name', () => {
  const row = verdict(tokenReport('token_type must be equal to constant', 'headers'));
  expect(row.detected).toBe(false);
  expect(row.why).toContain('no failure of shape token.reseller production');
});

test('should not count tests run under another drift mode', () => {
  expect(entriesByMode(tokenReport('x')).get('token.expires-in-string')).toBeUndefined();
});
